#!/bin/bash
# GPU run 39 (issue 21): the expansion as committed (gpu/final: slots, EXPAND_ALONE 8; bfs skips the
# chunks' barrier on a graph whose nodes have at most 8 arcs, the other apps keep it) against 0617bdd
# (gpu/base): the overhead script on both; then scripts/scaling on the grids (its R-MAT half is run 40).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc39; mkdir -p $T/x; date -u > $T/x/machine39.txt; nvidia-smi -L >> $T/x/machine39.txt 2>&1
for side in after before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/final/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 200 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
t0=$(date +%s)
timeout 300 /usr/bin/python3 scripts/scaling --bench gpu/final/bin/coop-bench --repeat 3 --out $T/x/scaling-grid \
  --inputs grid:500:500,grid:1000:1000,grid:1415:1415,grid:2000:2000 > $T/x/scaling-grid.log 2>&1
echo "scaling grids rc=$? $(( $(date +%s) - t0 )) s"; tail -2 $T/x/scaling-grid.log
tar -cf $OUT/run39.tar -C $T x
