#!/bin/bash
# GPU run 86 (issue 21): where colour's and mis's rounds go on the road graphs and the grid.
# The tree as it stands (9dc16d8, gpu/t86). Per app and input: standalone and multikernel
# medians of 5, the cooperative form with --trace (per-barrier times of every group).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc86; mkdir -p $T/x; date -u > $T/x/machine86.txt; nvidia-smi -L >> $T/x/machine86.txt 2>&1
B=gpu/t86/bin/coop-bench
for app in color mis; do
  for g in "--graph gpu/graphs/USA-road-NY.pace16.gr.xz:NY" "--graph gpu/graphs/USA-road-FLA.pace16.gr.xz:FLA" "--gen grid:1000:1000:grid"; do
    spec=${g%:*}; name=${g##*:}
    for mode in standalone multikernel cooperative; do
      f=$T/x/$app-$name-$mode.txt
      extra=""; [ $mode = cooperative ] && extra="--trace $T/x/$app-$name.json"
      timeout 60 $B $app $spec --mode $mode --repeat 5 $extra > $f 2>&1
      echo "$app $name $mode rc=$?: $(grep -E '^time' $f)"
    done
  done
done
tar -cf $OUT/run86.tar -C $T x
