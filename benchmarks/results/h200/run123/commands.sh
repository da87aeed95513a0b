#!/bin/bash
# GPU run 123: g (b504f38's scheduler) against k (coop_kills_wanted) with sched-bench's task taking
# half of the members (two sweeps or more per gather) and a quarter, six alternations; then each
# traced once taking half, each task's gather split by scripts/gather-cost.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc123; mkdir -p $T/x; date -u > $T/x/machine123.txt; nvidia-smi -L >> $T/x/machine123.txt 2>&1
B=gpu/r123
for r in 1 2 3 4 5 6; do for take in half quarter; do for v in g k; do b=$B/sched-bench-g; [ $v = k ] && b=$B/sched-bench
  f=$T/x/sched-$take-$v-$r.txt
  timeout 60 $b --tasks 300 --repeat 1 --take $take > $f 2>&1
  echo "$take $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done; done
for v in g k; do b=$B/sched-bench-g; [ $v = k ] && b=$B/sched-bench; f=$T/x/traced-half-$v.txt
  COOP_TRACE_FILE=$T/trace-$v.json timeout 120 $b --tasks 300 --repeat 1 --take half > $f 2>&1
  echo "traced half $v rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"
  python3 $B/gather-cost $T/trace-$v.json --slow 40 --csv $T/x/gather-half-$v.csv > $T/x/gather-half-$v.txt 2>&1
  cat $T/x/gather-half-$v.txt
done
tar -cf $OUT/run123.tar -C $T x
