#!/bin/bash
# GPU run 79: why 0675f75's early fork-record publication breaks sssp-bf under chaos with a
# quarter-taking task. Binaries: x = 0675f75 + experiment switches (EXP_DELAY: 3 us wait before
# the out-of-line publication; EXP_INLINE_PUBLISH: published by local id 0 inline in the kernel,
# still before the group's workgroup barrier) + EXP_INSTR (sssp-bf's megakernel checks after each
# barrier: round against group 0's, M against the scheduler's state, id < M; violations ORed into
# dist[0] as bits); y = c6a06be (the tree as it stands) + EXP_INSTR.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc79; mkdir -p $T/x
one() { # name binary options seed
  local f=$T/x/$1-$4.txt s=$(date +%s)
  COOP_BUILD_OPTIONS="$3" timeout 25 gpu/bis/coop-bench-$2 sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $4 --repeat 1 > $f 2>&1
  echo "$1 chaos $4 rc=$? $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-30)$(grep -E 'differs|progress' $f | head -1 | cut -c1-90) $(grep -E '^  node' $f | head -1)"
}
for seed in 1 2 3 4 5 6 7 8; do
  one hi x "-DEXP_INSTR" $seed
  one yi y "-DEXP_INSTR" $seed
  one di x "-DEXP_INSTR -DEXP_DELAY" $seed
  one ki x "-DEXP_INSTR -DEXP_INLINE_PUBLISH" $seed
  [ $seed -le 4 ] && one h x "" $seed
done
cd $T && tar -cf $OUT/run79.tar x
