#!/bin/bash
# GPU run 30 (issue 21): registers and spills of bfs's megakernel and standalone kernel, 0617bdd
# (gpu/base) against lib/expand.h (gpu/build), ptxas -v on the dumped PTX; bfs NY cooperative.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc30; mkdir -p $T/x; date -u > $T/x/machine30.txt
for r in 1 2; do for v in base new; do for m in cooperative standalone; do
  if [ $v = base ]; then B=gpu/base/build/bin; else B=gpu/build/bin; fi
  d=$T/x/dump-$v-$m-$r; mkdir -p $d
  COOP_BUILD_DUMP=$d $B/coop-bench bfs --mode $m --graph gpu/graphs/USA-road-NY.pace16.gr.xz --repeat 5 > $T/x/bfs-$v-$m-$r.txt 2>&1
  echo "bfs NY $v $m r$r rc=$?: $(grep -E 'median' $T/x/bfs-$v-$m-$r.txt | cut -c1-40)"
  if [ $r = 1 ]; then for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers|spill' | tr '\n' ' ' | sed 's/ptxas info *: //g' | cut -c1-300)"; done; else rm -rf $d; fi
done; done; done
tar -cf $OUT/run30.tar -C $T x
