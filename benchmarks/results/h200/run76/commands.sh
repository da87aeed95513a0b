#!/bin/bash
# GPU run 76: the tree as it stands (aef017b: 889ddb4's barrier and coop-merge's vote fix, gpu/n):
# every app under chaos seeds 1-4 with a task taking a quarter of the groups (the case that broke
# the out-of-line shapes), and the components example under chaos seeds 1-6.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc76; mkdir -p $T/x
for app in bfs sssp sssp-bf color mis; do for seed in 1 2 3 4; do
  f=$T/x/$app-$seed.txt
  timeout 60 gpu/n/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1
  echo "$app chaos $seed rc=$?: $(grep -E '^kills' $f | cut -c1-45) | $(grep -E '^check' $f | cut -c1-45)$(grep -E 'differ|progress' $f | head -1 | cut -c1-100)"
done; done
for s in 1 2 3 4 5 6; do
  timeout 60 gpu/n/bin/components --nodes 200000 --edges 150000 --seed $s --chaos $s > $T/x/components-$s.txt 2>&1
  echo "components seed $s rc=$?: $(tail -1 $T/x/components-$s.txt | cut -c1-140)"
done
cd $T && tar -cf $OUT/run76.tar x
