#!/bin/bash
# GPU run 28 (issue 21): bisecting lib/expand.h's cost on road graphs by build option.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc28; mkdir -p $T/x; date -u > $T/x/machine28.txt
N="-DEXPAND_ALONE=0xffffffffu -DEXPAND_NO_SYNC"
V2="$N"; V5="$N -DEXPAND_FIXED_CHUNK"; V6="$N -DEXPAND_FIXED_CHUNK -DEXPAND_NO_STORE"; V7="$N -DEXPAND_NO_STORE"
for r in 1 2; do for g in NY; do for v in base 2 5 6 7; do
  if [ $v = base ]; then B=gpu/base/build/bin; opt=""; else B=gpu/build/bin; eval opt=\$V$v; fi
  mkdir -p $T/x/dump-$v-$r; COOP_BUILD_OPTIONS="$opt" COOP_BUILD_DUMP=$T/x/dump-$v-$r $B/coop-bench bfs --mode standalone --graph gpu/graphs/USA-road-$g.pace16.gr.xz --repeat 5 > $T/x/bfs-$g-$v-$r.txt 2>&1
  echo "bfs $g v$v r$r rc=$?: $(grep -E 'median' $T/x/bfs-$g-$v-$r.txt | cut -c1-40) $(grep -E '^groups' $T/x/bfs-$g-$v-$r.txt | cut -c1-30)"
done; done; done
ls $T/x | head; rm -rf $T/x/dump-*-2*
tar -cf $OUT/run28.tar -C $T x
