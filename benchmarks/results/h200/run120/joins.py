# Run 120: from each task's request, when the groups it took were killed and when they joined it.
# python3 joins.py trace-1.json (the traces, 55 MB each, are not kept): per task, the gather, the
# kill, the median and longest kill-to-join and the last joiner; then, for tasks 11-16, the
# spread of kill-to-join and the sweeper's own.
import json, statistics, sys

d = json.load(open(sys.argv[1]))
req, gat, tracks = {}, {}, {}
for e in d['traceEvents']:
    if e.get('ph') == 'X' and e.get('tid', 0) != 0:
        tracks.setdefault(e['tid'], []).append(e)
    if e.get('ph') == 'i' and e.get('cat') == 'request' and e.get('tid') != 0:
        req[e['args']['request']] = e['ts']
    if e.get('ph') == 'i' and e.get('cat') == 'gathered':
        gat[e['args']['request']] = e['ts']
for t in tracks.values():
    t.sort(key=lambda e: e['ts'])


def joins(request):
    """(kill to join, join, kill, track, how) of each group that joined `request`, from the request."""
    t0, rows = req[request], []
    for tid, spans in tracks.items():
        for i, s in enumerate(spans):
            if s['cat'] == 'gathering' and s['args'].get('request') == request:
                k = spans[i - 1]
                rows.append((s['ts'] - k['ts'], s['ts'] - t0, k['ts'] - t0, tid, k['args'].get('how')))
    return sorted(rows, key=lambda r: r[1])


agg, last = [], {}
for r in sorted(gat):
    rows = joins(r) if r in req else []
    if len(rows) < 10:
        continue
    lat = [x[0] for x in rows]
    agg.append((r, gat[r] - req[r], rows[0][2], statistics.median(lat), max(lat), rows[len(rows) // 2][1], rows[-1][1],
                rows[-1][3], rows[-1][4]))
    last[rows[-1][3]] = last.get(rows[-1][3], 0) + 1
print("R gather kill med(kill->join) max(kill->join) medjoin lastjoin lasttid how")
for a in agg[5:25]:
    print(' '.join(f'{x:.2f}' if isinstance(x, float) else str(x) for x in a))
print('last joiners by track:', sorted(last.items(), key=lambda x: -x[1])[:10])
print('median kill->join med', statistics.median(a[3] for a in agg), 'max', statistics.median(a[4] for a in agg))
for r in sorted(gat)[10:16]:
    rows = joins(r)
    lat = sorted(x[0] for x in rows)
    sweeper = [round(x[0], 2) for x in rows if x[4] == 'sweep']
    print(r, 'gather', round(gat[r] - req[r], 2), 'kill->join min/p10/med/p90/max', round(lat[0], 2),
          round(lat[len(lat) // 10], 2), round(lat[len(lat) // 2], 2), round(lat[9 * len(lat) // 10], 2),
          round(lat[-1], 2), 'sweeper', sweeper)
