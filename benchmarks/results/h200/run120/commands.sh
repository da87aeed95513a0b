#!/bin/bash
# GPU run 120: sched-bench's gather traced on 792 groups: k's diagnostic build with
# -cl-nv-maxrregcount=40 so that the traced megakernel fits 6 groups per SM; untraced beside.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc120; mkdir -p $T/x; date -u > $T/x/machine120.txt; nvidia-smi -L >> $T/x/machine120.txt 2>&1
O="-cl-nv-maxrregcount=40"
for r in 1 2 3; do
  f=$T/x/sched-$r.txt
  timeout 60 gpu/r119/sched-bench-kd --tasks 300 --repeat 1 --options "$O" > $f 2>&1
  echo "untraced r$r rc=$?: $(grep -E '^gather' $f | cut -c1-60) $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
  f=$T/x/traced-$r.txt
  COOP_TRACE_FILE=$T/trace-$r.json timeout 120 gpu/r119/sched-bench-kd --tasks 300 --repeat 1 --options "$O" > $f 2>&1
  echo "traced r$r rc=$?: $(grep -E '^gather' $f | cut -c1-60) $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
  python3 gpu/r119/gather-cost $T/trace-$r.json --slow 25 --csv $T/x/gather-$r.csv > $T/x/gather-$r.txt 2>&1
  head -9 $T/x/gather-$r.txt
done
for r in 1 2 3; do gzip -c $T/trace-$r.json > $T/x/trace-$r.json.gz; done
ls -la $T/x
tar -cf $OUT/run120.tar -C $T x
