#!/bin/bash
# GPU run 117: sched-bench's slow gather mode. (A) the largest member's wait for the parked members
# below it (COOP_GATHER_WAIT_NS, default 30000) at 10000, 30000, 60000, three alternations;
# (B) traced runs at the defaults, each task's gather split by scripts/gather-cost.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc117; mkdir -p $T/x; date -u > $T/x/machine117.txt; nvidia-smi -L >> $T/x/machine117.txt 2>&1
B=gpu/r117/sched-bench-g
for r in 1 2 3; do for w in 10000 30000 60000; do f=$T/x/sched-w$w-$r.txt
  timeout 60 $B --tasks 300 --repeat 1 --options "-DCOOP_GATHER_WAIT_NS=$w" > $f 2>&1
  echo "wait $w r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
for r in 1 2 3 4; do f=$T/x/traced-$r.txt
  COOP_TRACE_FILE=$T/trace-$r.json timeout 120 $B --tasks 300 --repeat 1 > $f 2>&1
  echo "traced r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"
  python3 gpu/r117/gather-cost $T/trace-$r.json --slow 25 --csv $T/x/gather-$r.csv > $T/x/gather-$r.txt 2>&1
  head -20 $T/x/gather-$r.txt
done
ls -la $T
gzip -c $T/trace-1.json > $T/x/trace-1.json.gz
tar -cf $OUT/run117.tar -C $T x
