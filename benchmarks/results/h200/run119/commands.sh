#!/bin/bash
# GPU run 119: k (coop_kills_wanted) with sched-bench's gather run on at most 792 (all), 660 and
# 528 groups (a diagnostic build reading SCHED_DIAG_GROUPS into the launch's max_groups), alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc119; mkdir -p $T/x; date -u > $T/x/machine119.txt; nvidia-smi -L >> $T/x/machine119.txt 2>&1
for r in 1 2 3 4; do for g in 0 660 528; do f=$T/x/sched-$g-$r.txt
  SCHED_DIAG_GROUPS=$g timeout 60 gpu/r119/sched-bench-kd --tasks 300 --repeat 1 > $f 2>&1
  echo "groups $g r$r rc=$?: $(grep -E '^gather' $f | cut -c1-60) $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
tar -cf $OUT/run119.tar -C $T x
