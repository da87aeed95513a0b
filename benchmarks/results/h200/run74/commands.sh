#!/bin/bash
# GPU run 74: which shape of the resizing barrier breaks sssp-bf under chaos with a task taking a
# quarter of the groups (run 73: 0675f75 wrong or hung, 889ddb4 right). coop-bench of 889ddb4 (m),
# run 61's (a), run 63's (c), 400a468 (d), run 67's (f), 0675f75 (h), run 70's (j).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc74; mkdir -p $T/x
for v in m a c d f h j; do for steal in quarter one; do for seed in 1 2; do
  f=$T/x/$v-$steal-$seed.txt; s=$(date +%s)
  timeout 40 gpu/bis/coop-bench-$v sssp-bf --gen grid:200:200 --task light --period-ms 1 --steal $steal --chaos $seed --repeat 1 > $f 2>&1
  echo "$v $steal chaos $seed rc=$? $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1 | cut -c1-100)"
done; done; done
cd $T && tar -cf $OUT/run74.tar x
