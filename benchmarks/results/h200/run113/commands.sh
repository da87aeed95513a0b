#!/bin/bash
# GPU run 113: the PTX and SASS of sched-bench's megakernels in a (a4554ba) and g (dddf647), for
# run 111's longer gather in g.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc113; mkdir -p $T/x
for v in a g; do d=$T/d-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r112/sched-bench-$v --tasks 20 --repeat 1 > /dev/null 2>&1
  for f in $d/*.bin; do n=$(basename $f .bin); tr -d '\000' < $f > $T/x/$v-$n.ptx; ptxas -arch=sm_90 $T/x/$v-$n.ptx -o $d/$n.cubin 2>/dev/null
    cuobjdump -sass $d/$n.cubin > $T/x/$v-$n.sass; done
done
gzip $T/x/*; ls -la $T/x
tar -cf $OUT/run113.tar -C $T x
