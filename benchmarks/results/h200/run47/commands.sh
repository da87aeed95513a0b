#!/bin/bash
# GPU run 47 (issues 21 and 18): the tree with bfs's, sssp's and sssp-bf's batched alone walks
# (gpu/batch2) against 0617bdd (gpu/base): the overhead script on both, one after the other.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc47; mkdir -p $T/x; date -u > $T/x/machine47.txt; nvidia-smi -L >> $T/x/machine47.txt 2>&1
for side in after before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/batch2/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 200 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run47.tar -C $T x
