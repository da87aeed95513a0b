#!/bin/bash
# GPU run 153: printf checks (-DCOOP_EXP_CHECKS, experiment.patch) on run 152's failing shape:
# the transmitted round against the barrier's number in the fork record (publish, claim) and in
# every work-item after every resizing barrier; sssp under chaos with a quarter-taking task.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc153; mkdir -p $T/x; date -u > $T/x/machine153.txt; nvidia-smi -L >> $T/x/machine153.txt 2>&1
B=gpu/r153
for v in h c; do for s in 1 2 3 4 5 6; do o="-DCOOP_EXP_CHECKS"; [ $v = h ] && o="$o -DCOOP_EXP_HANDOVER=1"; f=$T/x/chaos-sssp-$v-$s.txt
  COOP_BUILD_OPTIONS="$o" timeout 30 $B/coop-bench sssp --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "sssp $v $s rc=$? right $(grep -cE '^check: every run' $f) checks $(grep -c CHK $f) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f) $(grep -oE '[0-9]+ of [0-9]+ nodes differ' $f)"
  grep CHK $f | sed -E 's/id [0-9]+/id N/; s/lid [0-9]+/lid L/; s/number [0-9]+ round [0-9]+/number/' | sort | uniq -c | sort -rn | head -4; grep CHK $f | head -3; done; done
tar -cf $OUT/run153.tar -C $T x
