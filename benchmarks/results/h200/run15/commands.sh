#!/bin/bash
# GPU run 15 (issue 17, one sitting with run 16): the hand-written kernels (gpu/before: 20a8750)
# against the generated ones at 6c7a388 (gpu/build), every co-resident group: app overhead, then
# sched-bench alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc15; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $T/x/machine15.txt
for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; S=gpu/before/scripts; else B=gpu/build/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 200 python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep "geometric mean" $T/x/overhead-$side.log
done
for r in 1 2; do for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  t0=$(date +%s)
  timeout 60 $B/sched-bench --tasks 300 --repeat 1 > $T/x/sched-bench-$side-$r.txt 2>&1
  echo "sched-bench $side $r rc=$? $(( $(date +%s) - t0 )) s"; grep -iE "gather|overhead" $T/x/sched-bench-$side-$r.txt | head -4
done; done
tar -cf $OUT/run15.tar -C $T x
