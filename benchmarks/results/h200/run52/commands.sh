#!/bin/bash
# GPU run 52 (issues 21 and 18): the tree at 801beee (gpu/ab) against 0617bdd (gpu/base), the
# overhead script on both one after the other; then scripts/overhead --sweep on 801beee.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc52; mkdir -p $T/x; date -u > $T/x/machine52.txt; nvidia-smi -L >> $T/x/machine52.txt 2>&1
for side in after before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/ab/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 170 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
t0=$(date +%s)
timeout 230 /usr/bin/python3 scripts/overhead --bench gpu/ab/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep > $T/x/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep.log; grep -i "best against best" $T/x/sweep/overhead.md
tar -cf $OUT/run52.tar -C $T x
