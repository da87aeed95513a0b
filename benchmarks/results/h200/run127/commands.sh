#!/bin/bash
# GPU run 127: where the cooperative round's extra time is now: each app's standalone kernel, its
# megakernel, and its megakernel with plain global barriers in place of the resizing ones
# (experiment.patch, -DCOOP_EXP_PLAIN through COOP_BUILD_OPTIONS: no kill or fork can happen, no
# task comes), at one group count, three alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc127; mkdir -p $T/x; date -u > $T/x/machine127.txt; nvidia-smi -L >> $T/x/machine127.txt 2>&1
G=gpu/graphs; B=gpu/r127/coop-bench-exp
for r in 1 2 3; do
 for c in "mis|--graph $G/USA-road-NY.pace16.gr.xz|528|400" "mis|--gen grid:1000:1000|660|400" \
          "bfs|--graph $G/USA-road-NY.pace16.gr.xz|132|20" "bfs|--gen grid:1000:1000|264|10" \
          "color|--graph $G/USA-road-NY.pace16.gr.xz|528|400" "sssp-bf|--graph $G/soc-Slashdot0902.txt.gz|660|100" \
          "sssp|--gen rmat:16:16|528|200"; do
  IFS="|" read -r app in g rep <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')-$g
  for m in standalone cooperative plain; do f=$T/x/$tag-$m-$r.txt
    if [ $m = plain ]; then COOP_BUILD_OPTIONS=-DCOOP_EXP_PLAIN=1 timeout 120 $B $app $in --mode cooperative --groups $g --repeat $rep > $f 2>&1
    else timeout 120 $B $app $in --mode $m --groups $g --repeat $rep > $f 2>&1; fi
    echo "$tag $m r$r rc=$?: $(grep -E '^time median' $f | cut -c1-50)"
  done
 done
done
tar -cf $OUT/run127.tar -C $T x
