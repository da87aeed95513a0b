#!/bin/bash
# GPU run 121: a diagnostic build of k's sched-bench: each group's SM (%smid), launch index and start
# time (globaltimer), and how many task workgroups it ran, written after the gather run.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc121; mkdir -p $T/x; date -u > $T/x/machine121.txt; nvidia-smi -L >> $T/x/machine121.txt 2>&1
for r in 1 2 3 4 5 6 7 8; do f=$T/x/sched-$r.txt
  SCHED_DIAG_FILE=$T/x/diag-$r.txt timeout 60 gpu/r121/sched-bench-diag --tasks 300 --repeat 1 > $f 2>&1
  echo "r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done
tar -cf $OUT/run121.tar -C $T x
