#!/bin/bash
# GPU run 155: run 154's checks made run 152's failing shape right (5 of 5): which part. Run 152's
# shape (h) as built, with -DCOOP_EXP_CHECKS only, with -DCOOP_CHECKS=1 only; seeds 1-6; SASS of
# sssp_matmult_mega for h and the committed shape (c).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin COOP_EXP_DUMP=1
T=/tmp/tc155; mkdir -p $T/x; date -u > $T/x/machine155.txt; nvidia-smi -L >> $T/x/machine155.txt 2>&1
B=gpu/r154; H="-DCOOP_EXP_HANDOVER=1"
declare -A O=([h]="$H" [hx]="$H -DCOOP_EXP_CHECKS" [hk]="$H -DCOOP_CHECKS=1")
for s in 1 2 3 4 5 6; do for v in h hx hk; do f=$T/x/chaos-sssp-$v-$s.txt
  COOP_BUILD_OPTIONS="${O[$v]}" timeout 25 $B/coop-bench sssp --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "sssp $v $s rc=$? right $(grep -cE '^check: every run' $f) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f) $(grep -oE '[0-9]+ of [0-9]+ nodes differ' $f) $(grep -E 'EXP' $f | grep -v 'publishes 0$' | head -1 | cut -c1-140)"; done; done
for v in h c; do d=$T/d-$v; mkdir -p $d; o=""; [ $v = h ] && o="$H"
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d $B/coop-bench sssp --gen grid:30:30 --task light --period-ms 1 --repeat 1 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/sssp-task-$v.sass; cp $d/k.ptx $T/x/sssp-task-$v.ptx
  echo "$v: $(grep -oE 'Used [0-9]+ registers' $d/v.txt | tr '\n' ' ')"; done
gzip $T/x/*.sass $T/x/*.ptx; tar -cf $OUT/run155.tar -C $T x
