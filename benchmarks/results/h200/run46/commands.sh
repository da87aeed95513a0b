#!/bin/bash
# GPU run 46 (issues 18 and 21): sssp's and sssp-bf's alone walks reading a batch of arcs ahead as
# bfs's (EXPAND_BATCH 4, gpu/batch2: the tree of run 45 with all three) against b510617 (gpu/final);
# standalone and cooperative on every co-resident group; three alternations, medians of 10.
# Registers (ptxas -v).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc46; mkdir -p $T/x; date -u > $T/x/machine46.txt; nvidia-smi -L >> $T/x/machine46.txt 2>&1
for v in final batch2; do for app in sssp sssp-bf; do d=$T/x/dump-$v-$app; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode standalone --gen grid:30:30 > /dev/null 2>&1
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $v $app $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for r in 1 2 3; do
for app in sssp sssp-bf; do for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000 email-Enron.txt.gz; do
  if [ ${in#grid} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for mode in standalone cooperative; do for v in final batch2; do
    f=$T/x/$app-${in%%.*}-$mode-$v-$r.txt
    timeout 60 gpu/$v/bin/coop-bench $app --mode $mode $src --repeat 10 > $f 2>&1
    echo "$app ${in%%.*} $mode $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-34)"
  done; done
done; done; done
tar -cf $OUT/run46.tar -C $T x
