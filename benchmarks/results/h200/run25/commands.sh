#!/bin/bash
# GPU run 25 (issue 21): lib/expand.h with a node shared only above 32 arcs and chunks of an even share (gpu/build; not committed: the alone walks were still unrolled) against 0617bdd (gpu/base):
# the overhead script on both trees (standalone, cooperative, multikernel on the six inputs).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc25; mkdir -p $T/x; date -u > $T/x/machine25.txt; nvidia-smi -L >> $T/x/machine24.txt 2>&1
for app in bfs color; do
  gpu/build/bin/coop-bench $app --mode standalone --graph gpu/graphs/email-Enron.txt.gz --repeat 3 > $T/x/quick-$app.txt 2>&1
  echo "quick $app rc=$?: $(grep -E 'median' $T/x/quick-$app.txt | head -1)"
done
for side in ${SIDES:-after before}; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/build/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 270 python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run25.tar -C $T x
