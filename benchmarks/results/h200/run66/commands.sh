#!/bin/bash
# GPU run 66 (issue 18): registers of each function in the megakernels, 889ddb4 (gpu/m) against
# 400a468 (gpu/d's build of it), from cuobjdump -res-usage.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc66; mkdir -p $T/x
for app in bfs sssp-bf mis; do for v in m d; do d=$T/d-$app-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin; cp $d/k.ptx $T/x/$app-$v.ptx
    echo "== $app $v"; cuobjdump -res-usage $d/k.cubin | grep -A1 "Function" | paste - - | sed -E 's/ +/ /g' | cut -c1-160; done
done; done > $T/x/res-usage.txt 2>&1
cat $T/x/res-usage.txt
cd $T && xz -9 x/*.ptx && tar -cf $OUT/run66.tar x
