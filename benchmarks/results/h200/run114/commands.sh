#!/bin/bash
# GPU run 114: sched-bench's gather, a (a4554ba) against g (dddf647) over unit lengths and takes,
# two alternations, to see what run 111's longer gather in g depends on.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc114; mkdir -p $T/x; date -u > $T/x/machine114.txt; nvidia-smi -L >> $T/x/machine114.txt 2>&1
for r in 1 2; do
  for c in "--iters 1000|i1000" "--iters 2000|i2000" "--iters 4000|i4000" "--take one|one" "--take half|half"; do
    IFS="|" read -r opt name <<< "$c"
    for v in a g; do f=$T/x/sched-$name-$v-$r.txt
      timeout 60 gpu/r112/sched-bench-$v --tasks 300 --repeat 1 $opt > $f 2>&1
      echo "$name $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40) | $(grep -oE 'offers kill every [0-9.]+ us' $f)"
    done
  done
done
tar -cf $OUT/run114.tar -C $T x
