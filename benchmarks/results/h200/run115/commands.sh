#!/bin/bash
# GPU run 115: is sched-bench's slow gather mode (runs 110-114) sensitive to unrelated timing?
# a (a4554ba) and g (dddf647) with the agent's pauses between polls at 0, 8 (the default) and 32
# (--options -DCOOP_AGENT_PAUSES=N), three alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc115; mkdir -p $T/x; date -u > $T/x/machine115.txt; nvidia-smi -L >> $T/x/machine115.txt 2>&1
for r in 1 2 3; do for p in 0 8 32; do for v in a g; do f=$T/x/sched-$v-p$p-$r.txt
  timeout 60 gpu/r112/sched-bench-$v --tasks 300 --repeat 1 --options "-DCOOP_AGENT_PAUSES=$p" > $f 2>&1
  echo "pauses $p $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done; done
tar -cf $OUT/run115.tar -C $T x
