#!/bin/bash
# GPU run 32 (issues 21 and 20): the merged tree (lib/expand.h, coop-bench's TEPS, the kill-token
# fix) against 0617bdd: scripts/scaling (cut at 270 s), then the overhead script on both trees.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc32; mkdir -p $T/x; date -u > $T/x/machine32.txt; nvidia-smi -L >> $T/x/machine32.txt 2>&1
t0=$(date +%s)
timeout 270 /usr/bin/python3 scripts/scaling --bench gpu/build/bin/coop-bench --repeat 3 --out $T/x/scaling \
  --inputs rmat:14:16,rmat:16:16,rmat:18:16,rmat:20:16,rmat:22:16,grid:500:500,grid:1000:1000,grid:2000:2000 > $T/x/scaling.log 2>&1
echo "scaling rc=$? $(( $(date +%s) - t0 )) s"; tail -2 $T/x/scaling.log
for side in after before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/build/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 150 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run32.tar -C $T x
