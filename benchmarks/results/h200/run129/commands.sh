#!/bin/bash
# GPU run 129: every run's time (--json) of bfs on grid:1000:1000 at 264 groups and on USA-road-NY at
# 132, standalone and cooperative, 30 runs each, two alternations: is the megakernel's spread per run?
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc129; mkdir -p $T/x; date -u > $T/x/machine129.txt; nvidia-smi -L >> $T/x/machine129.txt 2>&1
B=gpu/r127/coop-bench-exp
for r in 1 2; do for c in "grid|--gen grid:1000:1000|264" "NY|--graph gpu/graphs/USA-road-NY.pace16.gr.xz|132"; do
  IFS="|" read -r tag in g <<< "$c"
  for m in standalone cooperative; do f=$T/x/bfs-$tag-$m-$r
    timeout 120 $B bfs $in --mode $m --groups $g --repeat 30 --json $f.json > $f.txt 2>&1
    echo "$tag $m r$r rc=$?: $(grep -E '^time median' $f.txt | cut -c1-70)"
    python3 -c "
import json; j=json.load(open('$f.json')); t=sorted(round(x['time_ms'],3) for x in j['runs'] if not x.get('warmup'))
print('   runs:', t)"
  done; done; done
tar -cf $OUT/run129.tar -C $T x
