#!/bin/bash
# GPU run 77: is it where the fork record is published? p1 = 0675f75's barrier with member 0's
# fork record published after its group's workgroup barrier, as 889ddb4 does (not committed);
# h = 0675f75; m = 889ddb4. sssp-bf under chaos with a quarter-taking task, seeds 1-6.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc77; mkdir -p $T/x
for seed in 1 2 3 4 5 6; do for v in m h p1; do
  f=$T/x/$v-$seed.txt; s=$(date +%s)
  timeout 25 gpu/bis/coop-bench-$v sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1
  echo "$v chaos $seed rc=$? $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-30)$(grep -E 'nodes differ|progress' $f | head -1 | cut -c1-100)"
done; done
cd $T && tar -cf $OUT/run77.tar x
