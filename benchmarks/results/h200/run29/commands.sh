#!/bin/bash
# GPU run 29 (issue 21): lib/expand.h with the alone walks not unrolled (EXPAND_WALK_ALONE):
# bfs on USA-road-NY against 0617bdd with PTX dumps, then the overhead script on this tree.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc29; mkdir -p $T/x; date -u > $T/x/machine29.txt
for r in 1 2; do for v in base new; do
  if [ $v = base ]; then B=gpu/base/build/bin; else B=gpu/build/bin; fi
  mkdir -p $T/x/dump-$v-$r; COOP_BUILD_DUMP=$T/x/dump-$v-$r $B/coop-bench bfs --mode standalone --graph gpu/graphs/USA-road-NY.pace16.gr.xz --repeat 5 > $T/x/bfs-NY-$v-$r.txt 2>&1
  echo "bfs NY $v r$r rc=$?: $(grep -E 'median' $T/x/bfs-NY-$v-$r.txt | cut -c1-40) $(grep -E '^groups' $T/x/bfs-NY-$v-$r.txt | cut -c1-30)"
done; done
rm -rf $T/x/dump-*-2
t0=$(date +%s)
timeout 270 python3 scripts/overhead --bench gpu/build/bin/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-after > $T/x/overhead-after.log 2>&1
echo "overhead after rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-after.log
tar -cf $OUT/run29.tar -C $T x
