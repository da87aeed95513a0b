#!/bin/bash
# GPU run 62 (issue 18): SASS of bfs's megakernel variants (run 60's PTX; the working tree's from gpu/a).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc62; mkdir -p $T/x
d=$T/d; mkdir -p $d; COOP_BUILD_DUMP=$d gpu/a/bin/coop-bench bfs --mode cooperative --gen grid:30:30 > /dev/null 2>&1
for f in $d/*.bin; do tr -d '\000' < $f > $T/x/bfs-new.ptx; done
for f in gpu/ptx62/*.ptx.xz; do xz -dc $f > $T/x/$(basename $f .xz); done
for p in $T/x/*.ptx; do n=$(basename $p .ptx); ptxas -arch=sm_90 $p -o $T/$n.cubin && cuobjdump -sass $T/$n.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@ */\* 0x[0-9a-f]+ \*/@@; s/ +;/ ;/' > $T/x/$n.sass; echo "$n $(wc -l < $T/x/$n.sass)"; done
rm -f $T/x/*.ptx; cd $T && xz -9 x/*.sass && tar -cf $OUT/run62.tar x
