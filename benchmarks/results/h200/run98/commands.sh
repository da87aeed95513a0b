#!/bin/bash
# GPU run 98 (issue 18): is it the sweep's count reductions still in flight when the group's
# local id 0 arrives at the barrier? late = 0675f75 + gpu/exp98.patch (run 93's checks; with
# -DEXP_FENCE_ADD every work-item fences after its reduction of the count, before the barrier);
# lateH = the tree as it stands (aaecf43, 889ddb4's barrier) with run 93's checks only.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc98; mkdir -p $T/x
one() { # name binary options seed
  local f=$T/x/$1-$4.txt s=$(date +%s)
  COOP_BUILD_OPTIONS="$3" timeout 20 gpu/b95/coop-bench-$2 sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $4 --repeat 1 > $f 2>&1; local rc=$?
  echo "$1 seed $4 rc=$rc $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-20)$(grep -E 'nodes differ' $f | head -1 | cut -c1-60) | $(grep EXP $f | tr '\n' ' ')"
}
for seed in $(seq 1 20); do one fence late "-DEXP_LATE -DEXP_FENCE_ADD" $seed; done
for seed in $(seq 1 6); do one control late "-DEXP_LATE" $seed; done
for seed in $(seq 1 20); do one shipped lateH "-DEXP_LATE" $seed; done
cd $T && tar -cf $OUT/run98.tar x
