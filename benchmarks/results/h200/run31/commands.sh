#!/bin/bash
# GPU run 31 (issue 21): lib/expand.h's chunk (and so its local memory) at 256, 64 and 16 nodes
# (-DEXPAND_CHUNK_LOG2=8, 6, 4) against 0617bdd, on a road graph and on power-law graphs.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc31; mkdir -p $T/x; date -u > $T/x/machine31.txt
for r in 1 2; do for job in "bfs USA-road-NY.pace16.gr.xz" "sssp USA-road-FLA.pace16.gr.xz" "color email-Enron.txt.gz" "mis email-Enron.txt.gz" "bfs soc-Slashdot0902.txt.gz"; do
 set -- $job; for m in cooperative standalone; do for v in base 8 6 4; do
  if [ $v = base ]; then B=gpu/base/build/bin; opt=""; else B=gpu/build/bin; opt=-DEXPAND_CHUNK_LOG2=$v; fi
  COOP_BUILD_OPTIONS="$opt" $B/coop-bench $1 --mode $m --graph gpu/graphs/$2 --repeat 5 > $T/x/$1-$2-$m-$v-$r.txt 2>&1
  echo "$1 $2 $m $v r$r rc=$?: $(grep -E 'median' $T/x/$1-$2-$m-$v-$r.txt | cut -c13-30)"
done; done; done; done
tar -cf $OUT/run31.tar -C $T x
