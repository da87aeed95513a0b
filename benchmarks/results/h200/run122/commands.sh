#!/bin/bash
# GPU run 122: k (coop_kills_wanted: a parked member waits while a sweep holds the kill tokens)
# under chaos (every app, seeds 15-17, a quarter-taking... light task every ms; components; coop-chaos),
# then g (b504f38's scheduler) against k beside a periodic task on USA-road-FLA (sssp medium
# quarter, bfs light half) and sched-bench's gather, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc122; mkdir -p $T/x; date -u > $T/x/machine122.txt; nvidia-smi -L >> $T/x/machine122.txt 2>&1
t0=$(date +%s); G=gpu/graphs; B=gpu/r122
for app in bfs sssp sssp-bf color mis; do for seed in 15 16 17; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
for sd in 11 12 13; do timeout 60 $B/components --nodes 200000 --edges 150000 --seed $sd --chaos $sd > $T/x/components-$sd.txt 2>&1
  echo "components seed $sd rc=$?: $(tail -1 $T/x/components-$sd.txt | cut -c1-140)"; done
timeout 120 $B/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
echo "checks done $(( $(date +%s) - t0 )) s"
for r in 1 2; do
  for c in "sssp --graph $G/USA-road-FLA.pace16.gr.xz --task medium --steal quarter --searches 100|sssp-medium-quarter" \
           "bfs --graph $G/USA-road-FLA.pace16.gr.xz --task light --steal half --searches 180|bfs-light-half"; do
    IFS="|" read -r cmd name <<< "$c"
    for v in g k; do b=$B/coop-bench-g; [ $v = k ] && b=$B/coop-bench; f=$T/x/$name-$v-$r.txt
      timeout 90 $b $cmd --repeat 1 > $f 2>&1
      echo "$name $v r$r rc=$?: $(grep -E '^time median' $f | cut -c1-40) | $(grep -E '^tasks' $f | sed -E 's/.*: response/response/' | cut -c1-150)"
    done
  done
done
for r in 1 2 3 4; do for v in g k; do b=$B/sched-bench-g; [ $v = k ] && b=$B/sched-bench; f=$T/x/sched-$v-$r.txt
  timeout 60 $b --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
echo "all done $(( $(date +%s) - t0 )) s"
tar -cf $OUT/run122.tar -C $T x
