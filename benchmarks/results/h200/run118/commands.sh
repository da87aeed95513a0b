#!/bin/bash
# GPU run 118: g (b504f38's scheduler) against k (parked members keep waiting while a sweep holds
# the kill tokens: coop_kills_wanted), sched-bench's gather, alternating; then k traced.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc118; mkdir -p $T/x; date -u > $T/x/machine118.txt; nvidia-smi -L >> $T/x/machine118.txt 2>&1
for r in 1 2 3 4 5 6; do for v in g k; do f=$T/x/sched-$v-$r.txt
  timeout 60 gpu/r118/sched-bench-$v --tasks 300 --repeat 1 > $f 2>&1
  echo "$v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
for take in half one; do for r in 1 2; do for v in g k; do f=$T/x/sched-$take-$v-$r.txt
  timeout 60 gpu/r118/sched-bench-$v --tasks 300 --repeat 1 --take $take > $f 2>&1
  echo "$take $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done; done
for r in 1 2; do f=$T/x/traced-k-$r.txt
  COOP_TRACE_FILE=$T/trace-$r.json timeout 120 gpu/r118/sched-bench-k --tasks 300 --repeat 1 > $f 2>&1
  echo "traced k r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"
  python3 gpu/r118/gather-cost $T/trace-$r.json --slow 25 --csv $T/x/gather-k-$r.csv > $T/x/gather-k-$r.txt 2>&1
  cat $T/x/gather-k-$r.txt
done
gzip -c $T/trace-1.json > $T/x/trace-k-1.json.gz
tar -cf $OUT/run118.tar -C $T x
