#!/bin/bash
# GPU run 158: which of run 154's three checks makes run 152's failing hand-over (h) right: the
# count in coop_publish_fork (pub), the per-work-item check after the barrier (bar), the check
# in the new group's claim (claim); sssp under chaos, seeds 1-5 each.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc158; mkdir -p $T/x; date -u > $T/x/machine158.txt; B=gpu/r158; H="-DCOOP_EXP_HANDOVER=1"
declare -A O=([h]="$H" [pub]="$H -DCOOP_EXP_CHECK_PUB" [bar]="$H -DCOOP_EXP_CHECK_BAR" [claim]="$H -DCOOP_EXP_CHECK_CLAIM")
for s in 1 2 3 4 5; do for v in h pub bar claim; do f=$T/x/chaos-sssp-$v-$s.txt
  COOP_BUILD_OPTIONS="${O[$v]}" timeout 25 $B/coop-bench sssp --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "sssp $v $s rc=$? right $(grep -cE '^check: every run' $f) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f) $(grep -oE '[0-9]+ of [0-9]+ nodes differ|no progress' $f | head -1)"; done; done
tar -cf $OUT/run158.tar -C $T x
