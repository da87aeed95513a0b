#!/bin/bash
# GPU run 17 (issue 17): sched-bench's gather, hand-written (gpu/before) against generated
# (gpu/build, ce76eac) as is, taking 164 groups, and built for 48 registers (659 members).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc17; mkdir -p $T/x; date -u > $T/x/machine17.txt
for r in 1 2 3; do
  for v in before after after-take164 after-48regs; do
    case $v in
      before) cmd="gpu/before/build/bin/sched-bench --tasks 300 --repeat 1";;
      after) cmd="gpu/build/bin/sched-bench --tasks 300 --repeat 1";;
      after-take164) cmd="gpu/build/bin/sched-bench --tasks 300 --repeat 1 --take 164";;
      after-48regs) cmd="gpu/build/bin/sched-bench --tasks 300 --repeat 1 --options -cl-nv-maxrregcount=48";;
    esac
    timeout 60 $cmd > $T/x/$v-$r.txt 2>&1
    echo "$v r$r rc=$?: $(grep -E '^gather' $T/x/$v-$r.txt | head -1 | cut -c1-80) | $(grep -E 'gather +median' $T/x/$v-$r.txt | head -1 | sed 's/  */ /g')"
  done
done
tar -cf $OUT/run17.tar -C $T x
