#!/bin/bash
# GPU run 34 (issue 21): expand.h with slots (the scratch sized by 64 slots, 1.3 KB, not by the
# 256-node chunk; nothing stored for a node walked alone) against 0617bdd (gpu/base): the overhead
# script on both trees, one after the other.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc34; mkdir -p $T/x; date -u > $T/x/machine34.txt; nvidia-smi -L >> $T/x/machine34.txt 2>&1
for side in slots before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/cand/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 200 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run34.tar -C $T x
