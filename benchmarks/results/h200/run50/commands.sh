#!/bin/bash
# GPU run 50 (issue 18): scripts/overhead --sweep on the tree with M per work-item (gpu/pm) as
# built, and with libcoop's slow paths inlined (COOP_BUILD_OPTIONS=-DCOOP_NV_INLINE=1); then bfs
# at 132 groups on the road graphs, both builds alternating (medians of 10).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc50; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $T/x/machine50.txt
for side in pm pm-inline; do
  o=$([ $side = pm-inline ] && echo -DCOOP_NV_INLINE=1)
  t0=$(date +%s)
  COOP_BUILD_OPTIONS="$o" timeout 250 /usr/bin/python3 scripts/overhead --bench gpu/pm/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep-$side > $T/x/sweep-$side.log 2>&1
  echo "sweep $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep-$side.log; grep -i "best against best" $T/x/sweep-$side/overhead.md
done
for r in 1 2; do for in in USA-road-NY USA-road-FLA; do for mode in standalone cooperative; do for side in pm pm-inline; do
  o=$([ $side = pm-inline ] && echo -DCOOP_NV_INLINE=1)
  f=$T/x/bfs-$in-132-$mode-$side-$r.txt
  COOP_BUILD_OPTIONS="$o" timeout 60 gpu/pm/bin/coop-bench bfs --mode $mode --graph gpu/graphs/$in.pace16.gr.xz --groups 132 --repeat 10 > $f 2>&1
  echo "bfs $in 132 $mode $side r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30)"
done; done; done; done
tar -cf $OUT/run50.tar -C $T x
