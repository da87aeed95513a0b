#!/bin/bash
# GPU run 45 (issue 18: bfs's cost per level): bfs's alone walk reading a batch of heads, then their
# levels, before claiming any (gpu/batch: BFS_BATCH 4 by default; 2 and 8 by build option) against
# b510617 (gpu/final); standalone and cooperative on every co-resident group and on 132; three
# alternations, medians of 10. Registers of the batch build (ptxas -v).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc45; mkdir -p $T/x; date -u > $T/x/machine45.txt; nvidia-smi -L >> $T/x/machine45.txt 2>&1
for v in final batch; do d=$T/x/dump-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench bfs --mode standalone --gen grid:30:30 > /dev/null 2>&1
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench bfs --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for r in 1 2 3; do
for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000 email-Enron.txt.gz; do
  if [ ${in#grid} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for groups in all 132; do for mode in standalone cooperative; do for v in final batch batch2 batch8; do
    B=gpu/$([ $v = final ] && echo final || echo batch)/bin
    opt=$(case $v in batch2) echo -DBFS_BATCH=2u;; batch8) echo -DBFS_BATCH=8u;; esac)
    g=$([ $groups = 132 ] && echo "--groups 132")
    f=$T/x/bfs-${in%%.*}-$groups-$mode-$v-$r.txt
    COOP_BUILD_OPTIONS="$opt" timeout 60 $B/coop-bench bfs --mode $mode $src $g --repeat 10 > $f 2>&1
    echo "bfs ${in%%.*} $groups $mode $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-34)"
  done; done; done
done; done
tar -cf $OUT/run45.tar -C $T x
