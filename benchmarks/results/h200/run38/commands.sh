#!/bin/bash
# GPU run 38 (issue 21): the expansion as committed next (gpu/cand4): slots, EXPAND_ALONE 8, and
# max_degree from the host (no node can be shared on a graph whose nodes have at most 8 arcs:
# chunks of a whole group, no barrier), against 0617bdd (gpu/base): the overhead script on both,
# then bfs on the road graphs standalone, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc38; mkdir -p $T/x; date -u > $T/x/machine38.txt; nvidia-smi -L >> $T/x/machine38.txt 2>&1
for side in after before; do
  if [ $side = before ]; then B=gpu/base/build/bin; S=gpu/base/scripts; else B=gpu/cand4/bin; S=scripts; fi
  t0=$(date +%s)
  timeout 200 /usr/bin/python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
for r in 1 2 3; do for in in USA-road-NY USA-road-FLA; do for side in before after; do
  if [ $side = before ]; then B=gpu/base/build/bin; else B=gpu/cand4/bin; fi
  f=$T/x/bfs-$in-$side-$r.txt
  $B/coop-bench bfs --mode standalone --graph gpu/graphs/$in.pace16.gr.xz --repeat 5 > $f 2>&1
  echo "bfs $in $side r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30)"
done; done; done
tar -cf $OUT/run38.tar -C $T x
