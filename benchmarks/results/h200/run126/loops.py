# Run 126: the loops of each kernel's SASS (backward branches: start, end, instructions, global
# loads), for comparing a megakernel's sweep with its standalone kernel's. python3 loops.py *.sass
# (the SASS files, 3 MB, are not kept; commands.sh makes them).
import re, sys
for f in sys.argv[1:]:
    ins = [(int(m.group(1), 16), m.group(2).strip()) for m in
           (re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', l) for l in open(f).read().split('\n')) if m]
    print(f, len(ins), 'instructions')
    for a, t in ins:
        m = re.search(r'BRA (?:!?P\d, )?0x([0-9a-f]+)', t)
        if m and int(m.group(1), 16) < a:
            body = [x for x in ins if int(m.group(1), 16) <= x[0] <= a]
            print('   loop', hex(int(m.group(1), 16)), hex(a), len(body), 'instructions', sum('LDG' in x[1] for x in body), 'LDG')
