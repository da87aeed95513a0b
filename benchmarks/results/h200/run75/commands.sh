#!/bin/bash
# GPU run 75: which of 0675f75's two inlinings breaks sssp-bf under chaos with a quarter-taking task
# (run 74): k = the decision inline, the commit out of line; l = the reverse; h = both inline;
# f = neither (run 67's); m = 889ddb4.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc75; mkdir -p $T/x
for seed in 1 2 3 4; do for v in m f k l h; do
  f=$T/x/$v-$seed.txt; s=$(date +%s)
  timeout 30 gpu/bis/coop-bench-$v sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1
  echo "$v chaos $seed rc=$? $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-30)$(grep -E 'nodes differ|progress' $f | head -1 | cut -c1-100)"
done; done
cd $T && tar -cf $OUT/run75.tar x
