#!/bin/bash
# GPU run 128: the fixed part of each form's time (start and end, few rounds): colour, mis, sssp and
# bfs on grid:2:2 and grid:8:8 at 528 groups, standalone, cooperative and the plain-barrier
# megakernel (run 127's experiment build), 400 runs each, --json for every run's time; then colour
# and mis on USA-road-NY the same way; two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc128; mkdir -p $T/x; date -u > $T/x/machine128.txt; nvidia-smi -L >> $T/x/machine128.txt 2>&1
B=gpu/r127/coop-bench-exp
for r in 1 2; do for app in color mis sssp bfs; do for in in grid:2:2 grid:8:8; do
  for m in standalone cooperative plain; do tag=$app-${in//:/-}-$m-$r; f=$T/x/$tag.txt
    if [ $m = plain ]; then COOP_BUILD_OPTIONS=-DCOOP_EXP_PLAIN=1 timeout 120 $B $app --gen $in --mode cooperative --groups 528 --repeat 400 --json $T/x/$tag.json > $f 2>&1
    else timeout 120 $B $app --gen $in --mode $m --groups 528 --repeat 400 --json $T/x/$tag.json > $f 2>&1; fi
    echo "$tag rc=$?: $(grep -E '^time median' $f | cut -c1-70)"
  done; done; done
  for app in color mis; do for m in standalone cooperative plain; do tag=$app-NY-$m-$r; f=$T/x/$tag.txt
    if [ $m = plain ]; then COOP_BUILD_OPTIONS=-DCOOP_EXP_PLAIN=1 timeout 120 $B $app --graph gpu/graphs/USA-road-NY.pace16.gr.xz --mode cooperative --groups 528 --repeat 400 --json $T/x/$tag.json > $f 2>&1
    else timeout 120 $B $app --graph gpu/graphs/USA-road-NY.pace16.gr.xz --mode $m --groups 528 --repeat 400 --json $T/x/$tag.json > $f 2>&1; fi
    echo "$tag rc=$?: $(grep -E '^time median' $f | cut -c1-70)"
  done; done
done
cd $T/x && gzip *.json && cd - > /dev/null
tar -cf $OUT/run128.tar -C $T x
