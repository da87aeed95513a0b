#!/bin/bash
# GPU run 19 (issue 17, second sitting): sched-bench's gather, 6 alternating rounds of the
# hand-written tree (gpu/before, 20a8750), the generated kernels as built (gpu/build) and built for
# 48 registers (659 members, the hand-written count); then app overhead, before then after
# (run19.sh overhead-rev: after then before).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc19; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader; } >> $T/x/machine19.txt
if [ "$1" != overhead-rev ]; then
for r in 1 2 3 4 5 6; do
  for v in before after after-48regs; do
    case $v in
      before) cmd="gpu/before/build/bin/sched-bench --tasks 300 --repeat 1";;
      after) cmd="gpu/build/bin/sched-bench --tasks 300 --repeat 1";;
      after-48regs) cmd="gpu/build/bin/sched-bench --tasks 300 --repeat 1 --options -cl-nv-maxrregcount=48";;
    esac
    timeout 60 $cmd > $T/x/sched-$v-$r.txt 2>&1
    echo "$v r$r rc=$?: $(grep -E 'gather +median' $T/x/sched-$v-$r.txt | head -1 | sed 's/  */ /g') | $(grep -o 'taking [0-9]* of [0-9]*' $T/x/sched-$v-$r.txt)"
  done
done
sides="before after"; tag=1
else
sides="after before"; tag=2
fi
for side in $sides; do
  if [ $side = before ]; then B=gpu/before/build/bin; S=gpu/before/scripts; else B=gpu/build/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 240 python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side-$tag > $T/x/overhead-$side-$tag.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep "^all:" $T/x/overhead-$side-$tag.log
done
tar -cf $OUT/run19-$tag.tar -C $T x
