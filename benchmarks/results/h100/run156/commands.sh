#!/bin/bash
# GPU run 156: PTX and SASS of sssp_matmult_mega (the program run 155's chaos runs used) for the
# committed shape (c), run 152's failing hand-over (h) and h with run 154's checks (hx, right).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc156; mkdir -p $T/x; B=gpu/r154; H="-DCOOP_EXP_HANDOVER=1"
declare -A O=([c]="" [h]="$H" [hx]="$H -DCOOP_EXP_CHECKS")
for v in c h hx; do d=$T/d-$v; mkdir -p $d
  COOP_BUILD_OPTIONS="${O[$v]}" COOP_BUILD_DUMP=$d $B/coop-bench sssp --gen grid:30:30 --task light --period-ms 1 --repeat 1 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -q 'entry sssp_mega' $d/k.ptx && cp $d/k.ptx $T/x/sssp-task-$v.ptx; done
  ptxas -arch=sm_90 -v $T/x/sssp-task-$v.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/sssp-task-$v.sass
  echo "$v: $(ls $d | tr '\n' ' ') $(grep -oE 'Used [0-9]+ registers' $d/v.txt | tr '\n' ' ')"; done
gzip $T/x/*.sass $T/x/*.ptx; tar -cf $OUT/run156.tar -C $T x
