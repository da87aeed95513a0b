#!/bin/bash
# GPU run 125: sched-bench's gather (k) with the scheduler's polling pause (coop_pause's nanosleep,
# COOP_PAUSE_NS, default 200) at 20, 200 and 800 ns, four alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc125; mkdir -p $T/x; date -u > $T/x/machine125.txt; nvidia-smi -L >> $T/x/machine125.txt 2>&1
for r in 1 2 3 4; do for p in 20 200 800; do f=$T/x/sched-p$p-$r.txt
  timeout 60 gpu/r125/sched-bench --tasks 300 --repeat 1 --options "-DCOOP_PAUSE_NS=$p" > $f 2>&1
  echo "pause $p r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40) | $(grep -E '^units' $f | sed 's/  */ /g' | cut -c1-90)"
done; done
tar -cf $OUT/run125.tar -C $T x
