#!/bin/bash
# GPU run 157: run 152's failing hand-over (h), whose SASS loads the next round's count right after
# the barrier's last workgroup barrier (run 156), with (hd) local id 0 waiting 1000 SM cycles after
# its acquire before that workgroup barrier, or (hf) every work-item's own fence.acq_rel.gpu after
# it; sssp under chaos seeds 1-6 each; SASS after the barrier for each.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc157; mkdir -p $T/x; date -u > $T/x/machine157.txt; B=gpu/r157; H="-DCOOP_EXP_HANDOVER=1"
declare -A O=([h]="$H" [hd]="$H -DCOOP_EXP_DELAY=1000u" [hf]="$H -DCOOP_EXP_WARP_FENCE")
for s in 1 2 3 4 5 6; do for v in h hd hf; do f=$T/x/chaos-sssp-$v-$s.txt
  COOP_BUILD_OPTIONS="${O[$v]}" timeout 25 $B/coop-bench sssp --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "sssp $v $s rc=$? right $(grep -cE '^check: every run' $f) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f) $(grep -oE '[0-9]+ of [0-9]+ nodes differ|no progress' $f | head -1)"; done; done
for v in h hd hf; do d=$T/d-$v; mkdir -p $d
  COOP_BUILD_OPTIONS="${O[$v]}" COOP_BUILD_DUMP=$d $B/coop-bench sssp --gen grid:30:30 --task light --period-ms 1 --repeat 1 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -q 'entry sssp_mega' $d/k.ptx && cp $d/k.ptx $T/x/sssp-task-$v.ptx; done
  ptxas -arch=sm_90 $T/x/sssp-task-$v.ptx -o $d/k.cubin && cuobjdump -sass $d/k.cubin > $T/x/sssp-task-$v.sass; done
gzip -f $T/x/*.sass $T/x/*.ptx; tar -cf $OUT/run157.tar -C $T x
