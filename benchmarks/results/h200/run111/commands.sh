#!/bin/bash
# GPU run 111: run 110's sched-bench gather again, eight alternations of a (a4554ba) and g
# (dddf647), and the registers of sched-bench's megakernels in both.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc111; mkdir -p $T/x; date -u > $T/x/machine111.txt; nvidia-smi -L >> $T/x/machine111.txt 2>&1
for v in a g; do d=$T/d-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r108/sched-bench-$v --tasks 20 --repeat 1 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin 2>/dev/null
    echo "$v $(basename $f): $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-80)"; done
done | tee $T/x/registers.txt
for r in 1 2 3 4 5 6 7 8; do for v in a g; do f=$T/x/sched-$v-$r.txt
  timeout 60 gpu/r108/sched-bench-$v --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -o 'taking [0-9]* of [0-9]*' $f)"
done; done
tar -cf $OUT/run111.tar -C $T x
