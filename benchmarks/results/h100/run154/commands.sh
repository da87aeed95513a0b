#!/bin/bash
# GPU run 154: run 153 again with the checks counted in spare words of the control block and the
# check build's rules (-DCOOP_CHECKS=1), printed by libcoop after each run (COOP_EXP_DUMP,
# experiment.patch) instead of printf (run 153's builds gave no output in 30 s).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin COOP_EXP_DUMP=1
T=/tmp/tc154; mkdir -p $T/x; date -u > $T/x/machine154.txt; nvidia-smi -L >> $T/x/machine154.txt 2>&1
B=gpu/r154
for v in h c; do for s in 1 2 3 4 5; do o="-DCOOP_EXP_CHECKS -DCOOP_CHECKS=1"; [ $v = h ] && o="$o -DCOOP_EXP_HANDOVER=1"; f=$T/x/chaos-sssp-$v-$s.txt
  COOP_BUILD_OPTIONS="$o" timeout 25 $B/coop-bench sssp --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "sssp $v $s rc=$? right $(grep -cE '^check: every run' $f) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f) $(grep -oE '[0-9]+ of [0-9]+ nodes differ' $f)"
  grep EXP $f | sort | uniq -c | head -6; done; done
tar -cf $OUT/run154.tar -C $T x
