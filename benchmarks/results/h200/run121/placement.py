# Run 121 analysis: per run, the SMs of the groups that ran the task (the killed set), their age rank on
# their SM by start time and by launch index, and how far discovery tickets follow launch order.
# python3 placement.py > placement.txt (in this folder)
import sys,collections
for r in range(1,9):
    rows=[list(map(int,l.split())) for l in open(f'diag-{r}.txt').read().split('\n')[1:] if l.strip()]
    g=open(f'sched-{r}.txt').read().split('gather   median')[1].split()[0]
    bysm=collections.defaultdict(list)
    for t,sm,blk,t0,tasks in rows: bysm[sm].append((t0 if t0>=rows[0][3]-2**31 else t0+2**32,blk,t,tasks))
    # tasks>0 means ran task workgroups (killed set); agent is ticket 0
    killed=[x for x in rows if x[4]>0]
    nk=len(killed)
    persm=collections.Counter(x[1] for x in killed)
    # age rank within SM by t0 and by block
    rank_t=[];rank_b=[]
    for sm,l in bysm.items():
        byt=sorted(l); byb=sorted(l,key=lambda x:x[1])
        for i,x in enumerate(byt):
            if x[3]>0: rank_t.append(i)
        for i,x in enumerate(byb):
            if x[3]>0: rank_b.append(i)
    # ticket vs block correlation
    tick_blk=sorted((x[0],x[2]) for x in rows)
    inv=sum(1 for i in range(len(tick_blk)-1) if tick_blk[i][1]>tick_blk[i+1][1])
    print(f'r{r} gather {g}: groups {len(rows)} SMs {len(bysm)} per-SM groups {collections.Counter(len(l) for l in bysm.values())} killed-set {nk} on {len(persm)} SMs dist {sorted(collections.Counter(persm.values()).items())}; age rank(t0) {sorted(collections.Counter(rank_t).items())} rank(block) {sorted(collections.Counter(rank_b).items())}; ticket-order block inversions {inv}; tasks hist {sorted(collections.Counter(x[4] for x in rows).items())[:6]}')
