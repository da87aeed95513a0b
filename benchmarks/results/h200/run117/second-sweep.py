# Run 117, trace-1 (not kept: 55 MB): the spans of the group that held id 567 around request 20, whose
# gather took a second sweep. python3 second-sweep.py trace-1.json
import json, sys
d = json.load(open(sys.argv[1]))
req, tracks = {}, {}
for e in d['traceEvents']:
    if e.get('ph') in ('X', 'i') and e.get('tid', 0) != 0:
        tracks.setdefault(e['tid'], []).append(e)
    if e.get('ph') == 'i' and e.get('cat') == 'request' and e.get('tid') != 0:
        req[e['args']['request']] = e['ts']
t0 = req[20]
for tid, spans in tracks.items():
    for s in sorted(spans, key=lambda e: e['ts']):
        if -20 < s['ts'] - t0 < 50 and (s.get('args', {}).get('id') == 567 or tid == 157):
            print(tid, round(s['ts'] - t0, 3), round(s.get('dur', 0), 3), s['cat'], s['name'], s.get('args'))
