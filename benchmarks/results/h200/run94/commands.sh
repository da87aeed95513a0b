#!/bin/bash
# GPU run 94 (issue 18): run 93's checks plus EXP_EARLY (every work-item, right after the resizing
# barrier returns: barrier ctx->epoch has completed; the first violator writes counts[5] =
# 0xC0000000 | forked << 24 | warp << 16 | id, counts[6] = epoch, counts[7] = round << 12 |
# role << 8 | M; counts[8] counts violations). late = 0675f75 + gpu/exp93.patch; lateH = the tree
# as it stands (aaecf43, 889ddb4's barrier) + gpu/exp94-head.patch (the same function and host
# print). sssp-bf under chaos with a quarter-taking task, seeds 1-16, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc94; mkdir -p $T/x
for seed in $(seq 1 16); do for v in late lateH; do f=$T/x/$v-$seed.txt; s=$(date +%s)
  COOP_BUILD_OPTIONS="-DEXP_LATE -DEXP_EARLY" timeout 20 gpu/bis/coop-bench-$v sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "$v seed $seed rc=$rc $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-20)$(grep -E 'nodes differ' $f | head -1 | cut -c1-60) | $(grep EXP $f | tr '\n' ' ')"
done; done
cd $T && tar -cf $OUT/run94.tar x
