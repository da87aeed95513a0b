#!/bin/bash
# GPU run 80: why 0675f75's early fork-record publication breaks sssp-bf under chaos with a
# quarter-taking task. Binaries: x = 0675f75 + experiment switches (EXP_DELAY: 3 us wait before
# the out-of-line publication; EXP_INLINE_PUBLISH: published by local id 0 inline in the kernel,
# still before the group's workgroup barrier) + EXP_INSTR (sssp-bf's megakernel checks after each
# barrier: round against group 0's, M against the scheduler's state, id < M; violations ORed into
# dist[0] as bits); y = c6a06be (the tree as it stands) + EXP_INSTR.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc80; mkdir -p $T/x
one() { # name binary options seed
  local f=$T/x/$1-$4.txt s=$(date +%s)
  COOP_BUILD_OPTIONS="$3" timeout 15 gpu/bis/coop-bench-$2 sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $4 --repeat 1 > $f 2>&1
  echo "$1 chaos $4 rc=$? $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-30)$(grep -E 'differs|progress' $f | head -1 | cut -c1-90) $(grep -E '^  node' $f | head -1)"
}
# EXP_EXITCHECK: a work-item leaving the sweep loop finds counts[round % 3] not zero when read
# again from L2 (bit 64 / 128 in dist[0]); EXP_VOLATILE_COND: the loop's condition read volatile.
for seed in 1 2 3 4 5 6 7 8 9 10; do
  one he x "-DEXP_INSTR -DEXP_EXITCHECK" $seed
  one hv x "-DEXP_INSTR -DEXP_VOLATILE_COND" $seed
done
cd $T && tar -cf $OUT/run80.tar x
