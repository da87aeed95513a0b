#!/bin/bash
# GPU run 33 (issue 20: the kill-token fix changes no figure; issue 21: 3eba3db measured):
# barrier-bench, sched-bench and coop-chaos on 0617bdd (gpu/base, before the kill-token fix) and
# on 3eba3db (gpu/build), alternating; then the overhead script on both trees.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc33; mkdir -p $T/x; date -u > $T/x/machine33.txt; nvidia-smi -L >> $T/x/machine33.txt 2>&1
bin() { if [ $1 = before ]; then echo gpu/base/build/bin; else echo gpu/build/bin; fi; }
for r in 1 2; do for side in before after; do
  timeout 60 $(bin $side)/barrier-bench > $T/x/barrier-$side-$r.txt 2>&1
  echo "barrier $side r$r rc=$?: $(grep -iE 'median|us per' $T/x/barrier-$side-$r.txt | head -3 | tr -s ' ' | tr '\n' '|')"
  timeout 60 $(bin $side)/sched-bench --tasks 300 --repeat 1 > $T/x/sched-$side-$r.txt 2>&1
  echo "sched $side r$r rc=$?: $(grep -E '^units|^rounds|gather +median' $T/x/sched-$side-$r.txt | tr -s ' ' | tr '\n' '|')"
  t0=$(date +%s); timeout 60 $(bin $side)/coop-chaos --seeds 20 --first $((r * 100)) > $T/x/chaos-$side-$r.txt 2>&1
  echo "chaos $side r$r rc=$? $(( $(date +%s) - t0 )) s: $(tail -n 1 $T/x/chaos-$side-$r.txt)"
done; done
for side in after before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/build/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 160 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run33.tar -C $T x
