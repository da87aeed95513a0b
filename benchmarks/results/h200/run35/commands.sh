#!/bin/bash
# GPU run 35 (issue 20): the kill-token fix alone. gpu/i20 is 0617bdd with ff41cc3 (requests
# applied in one place) and e8c404d (kill tokens never outlive their task) cherry-picked; gpu/base is
# 0617bdd. The overhead script and sched-bench on both, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc35; mkdir -p $T/x; date -u > $T/x/machine35.txt; nvidia-smi -L >> $T/x/machine35.txt 2>&1
for side in i20 before; do
  B=gpu/$([ $side = before ] && echo base/build || echo i20)/bin
  t0=$(date +%s)
  timeout 200 /usr/bin/python3 gpu/base/scripts/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^all:" $T/x/overhead-$side.log
  timeout 60 $B/sched-bench --tasks 300 --repeat 1 > $T/x/sched-$side.txt 2>&1
  echo "sched $side rc=$?: $(grep -E '^units|^rounds|gather +median' $T/x/sched-$side.txt | tr -s ' ' | tr '\n' '|')"
done
tar -cf $OUT/run35.tar -C $T x
