#!/bin/bash
# GPU run 23 (issue 20: no behaviour or performance change): barrier-bench, sched-bench and the
# overhead script, the tree before issue 20 (gpu/build-fix, da812ce) against the tree after it
# (gpu/build), alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc23; mkdir -p $T/x; date -u > $T/x/machine23.txt
bin() { if [ $1 = before ]; then echo gpu/build-fix/bin; else echo gpu/build/bin; fi; }
for r in 1 2; do for side in before after; do
  timeout 60 $(bin $side)/barrier-bench > $T/x/barrier-$side-$r.txt 2>&1
  echo "barrier $side r$r rc=$?: $(grep -iE 'median|us per' $T/x/barrier-$side-$r.txt | head -3 | tr -s ' ' | tr '\n' '|')"
  timeout 60 $(bin $side)/sched-bench --tasks 300 --repeat 1 > $T/x/sched-$side-$r.txt 2>&1
  echo "sched $side r$r rc=$?: $(grep -E '^units|^rounds|gather +median' $T/x/sched-$side-$r.txt | tr -s ' ' | tr '\n' '|')"
done; done
for side in after before; do
  t0=$(date +%s)
  timeout 200 python3 scripts/overhead --bench $(bin $side)/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep "^all:" $T/x/overhead-$side.log
done
tar -cf $OUT/run23.tar -C $T x
