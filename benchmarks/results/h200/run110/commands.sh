#!/bin/bash
# GPU run 110 (issue 18: gather medians and responsiveness no worse): a4554ba (a) against the
# committed tree dddf647 (g): sched-bench's gather, three alternations; bfs and sssp on
# USA-road-FLA beside a periodic task taking a quarter (sssp, medium matmult) or half (bfs, light
# matmult) of the groups, about 1.5 s of searches, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc110; mkdir -p $T/x; date -u > $T/x/machine110.txt; nvidia-smi -L >> $T/x/machine110.txt 2>&1
t0=$(date +%s); G=gpu/graphs
for r in 1 2 3; do for v in a g; do f=$T/x/sched-$v-$r.txt
  timeout 60 gpu/r108/sched-bench-$v --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -o 'taking [0-9]* of [0-9]*' $f)"
done; done
echo "sched done $(( $(date +%s) - t0 )) s"
for r in 1 2; do
  for c in "sssp --graph $G/USA-road-FLA.pace16.gr.xz --task medium --steal quarter --searches 100|sssp-medium-quarter" \
           "bfs --graph $G/USA-road-FLA.pace16.gr.xz --task light --steal half --searches 180|bfs-light-half"; do
    IFS="|" read -r cmd name <<< "$c"
    for v in a g; do b=gpu/r108/coop-bench-a; [ $v = g ] && b=gpu/r108/coop-bench; f=$T/x/$name-$v-$r.txt
      timeout 90 $b $cmd --repeat 1 > $f 2>&1
      echo "$name $v r$r rc=$?: $(grep -E '^time median' $f | cut -c1-40) | $(grep -E '^tasks' $f | sed -E 's/.*: response/response/' | cut -c1-150)"
    done
  done
done
echo "all done $(( $(date +%s) - t0 )) s"
tar -cf $OUT/run110.tar -C $T x
