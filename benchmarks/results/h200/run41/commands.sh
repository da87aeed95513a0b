#!/bin/bash
# GPU run 41 (issue 21): the rows of run 39 that missed a target, again: color on USA-road-NY and on
# rmat:16:16, sssp-bf on USA-road-NY, standalone and cooperative, 0617bdd (gpu/base) against
# b510617 (gpu/final), alternating four times, medians of 10 runs each.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc41; mkdir -p $T/x; date -u > $T/x/machine41.txt; nvidia-smi -L >> $T/x/machine41.txt 2>&1
for r in 1 2 3 4; do
for job in "color USA-road-NY.pace16.gr.xz" "color rmat:16:16" "sssp-bf USA-road-NY.pace16.gr.xz"; do
  set -- $job; app=$1; in=$2
  if [ ${in#rmat} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for mode in standalone cooperative; do for side in before after; do
    if [ $side = before ]; then B=gpu/base/build/bin; else B=gpu/final/bin; fi
    f=$T/x/$app-${in%%.*}-$mode-$side-$r.txt
    timeout 60 $B/coop-bench $app --mode $mode $src --repeat 10 > $f 2>&1
    echo "$app ${in%%.*} $mode $side r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-30)"
  done; done
done; done
tar -cf $OUT/run41.tar -C $T x
