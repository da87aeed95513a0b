#!/bin/bash
# GPU run 16 (issue 17, one sitting with run 15): responsiveness, hand-written (gpu/before) against
# generated (gpu/build), bfs and sssp on USA-road-FLA, 4 tasks x 4 takes, one run per cell.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc16; mkdir -p $T/x
date -u > $T/x/machine16.txt
for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; S=gpu/before/scripts; else B=gpu/build/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 280 python3 $S/responsiveness --bench $B/coop-bench --graphs gpu/graphs --repeat 1 --run-ms 800 --out $T/x/resp-$side > $T/x/resp-$side.log 2>&1
  echo "responsiveness $side rc=$? $(( $(date +%s) - t0 )) s"; tail -n 8 $T/x/resp-$side.log
done
tar -cf $OUT/run16.tar -C $T x
