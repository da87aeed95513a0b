#!/bin/bash
# GPU run 22 (issue 17): the standalone forms with M kept in a register (gpu/build-fix) against the
# hand-written tree (gpu/before) and the tree before the fix (gpu/build): sssp-bf alternating, the
# overhead script (fix, then before), sched-bench's unit loop.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc22; mkdir -p $T/x; date -u > $T/x/machine22.txt
for r in 1 2; do for side in before after fix; do
  case $side in before) B=gpu/before/build/bin;; after) B=gpu/build/bin;; fix) B=gpu/build-fix/bin;; esac
  $B/coop-bench sssp-bf --mode standalone --graph gpu/graphs/USA-road-FLA.pace16.gr.xz --repeat 5 > $T/x/FLA-$side-$r.txt 2>&1
  echo "FLA $side r$r rc=$?: $(grep -E 'median' $T/x/FLA-$side-$r.txt | head -1)"
done; done
for side in fix before; do
  if [ $side = before ]; then B=gpu/before/build/bin; S=gpu/before/scripts; else B=gpu/build-fix/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 240 python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep "^all:" $T/x/overhead-$side.log
done
for r in 1 2; do for side in after fix; do
  case $side in after) B=gpu/build/bin;; fix) B=gpu/build-fix/bin;; esac
  timeout 60 $B/sched-bench --tasks 300 --repeat 1 > $T/x/sched-$side-$r.txt 2>&1
  echo "sched $side r$r rc=$?: $(grep -E '^units' $T/x/sched-$side-$r.txt | sed 's/  */ /g')"
done; done
tar -cf $OUT/run22.tar -C $T x
