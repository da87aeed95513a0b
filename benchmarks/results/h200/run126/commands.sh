#!/bin/bash
# GPU run 126: SASS of mis's, colour's and sssp-bf's megakernel and standalone kernel (the tree at
# 17d875d), for comparing their sweeps instruction by instruction.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc126; mkdir -p $T/x
for app in mis color sssp-bf; do for m in cooperative standalone; do d=$T/d-$app-$m; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r126/coop-bench $app --mode $m --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    cuobjdump -sass $d/k.cubin > $T/x/$app-$m.sass; cp $d/k.ptx $T/x/$app-$m.ptx
    echo "$app $m: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-80) $(wc -l < $T/x/$app-$m.sass)"; done
done; done
cd $T/x && gzip *.sass *.ptx && cd - >/dev/null
tar -cf $OUT/run126.tar -C $T x
