#!/bin/bash
# GPU run 27 (issue 21): does a group's local memory alone slow bfs on road graphs? 0617bdd
# (gpu/base) against 0617bdd with a 5 KB local array written once per round (gpu/pad).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc27; mkdir -p $T/x; date -u > $T/x/machine27.txt
for r in 1 2; do for g in NY FLA; do for v in base pad pad256 new; do
  opt=""
  case $v in base) B=gpu/base/build/bin;; pad) B=gpu/pad/build/bin;; pad256) B=gpu/pad/build/bin; opt=-DPAD_WORDS=256;; new) B=gpu/build/bin;; esac
  COOP_BUILD_OPTIONS="$opt" $B/coop-bench bfs --mode standalone --graph gpu/graphs/USA-road-$g.pace16.gr.xz --repeat 5 > $T/x/bfs-$g-$v-$r.txt 2>&1
  echo "bfs $g $v r$r rc=$?: $(grep -E 'median' $T/x/bfs-$g-$v-$r.txt | cut -c1-40) $(grep -E '^groups' $T/x/bfs-$g-$v-$r.txt | cut -c1-30)"
done; done; done
tar -cf $OUT/run27.tar -C $T x
