#!/bin/bash
# GPU run 136: the tree as committed (COOP_NEAR_IDS 8, the id order in coop_layout.h's
# COOP_ID_OF_TICKET): the apps beside a periodic task on USA-road-FLA (sssp medium quarter, bfs
# light half) and sched-bench's gather, against the same programs with -DCOOP_NEAR_IDS=0 (the ids
# of before), two alternations; chaos seeds 21-22 for every app; coop-chaos.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc136; mkdir -p $T/x; date -u > $T/x/machine136.txt; nvidia-smi -L >> $T/x/machine136.txt 2>&1
G=gpu/graphs; B=gpu/r136
for r in 1 2; do
  for c in "sssp --graph $G/USA-road-FLA.pace16.gr.xz --task medium --steal quarter --searches 100|sssp-medium-quarter" \
           "bfs --graph $G/USA-road-FLA.pace16.gr.xz --task light --steal half --searches 180|bfs-light-half"; do
    IFS="|" read -r cmd name <<< "$c"
    for v in near8 near0; do o=""; [ $v = near0 ] && o=-DCOOP_NEAR_IDS=0; f=$T/x/$name-$v-$r.txt
      COOP_BUILD_OPTIONS="$o" timeout 90 $B/coop-bench $cmd --repeat 1 > $f 2>&1
      echo "$name $v r$r rc=$?: $(grep -E '^time median' $f | cut -c1-40) | $(grep -E '^tasks' $f | sed -E 's/.*: response/response/' | cut -c1-150)"
    done
  done
  for v in near8 near0; do o=""; [ $v = near0 ] && o=-DCOOP_NEAR_IDS=0; f=$T/x/sched-$v-$r.txt
    timeout 60 $B/sched-bench --tasks 300 --repeat 1 --options "$o" > $f 2>&1
    echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
  done
done
for app in bfs sssp sssp-bf color mis; do for seed in 21 22; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
timeout 120 $B/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
tar -cf $OUT/run136.tar -C $T x
