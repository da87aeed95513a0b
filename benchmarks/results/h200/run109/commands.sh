#!/bin/bash
# GPU run 109 (issues 18, 21): the same tree as run 108 (gpu/r108): chaos with a quarter-taking
# task for every app, the components example under chaos, coop-chaos; then scripts/overhead
# --sweep --repeat 3 again, for its run-to-run spread.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc109; mkdir -p $T/x; date -u > $T/x/machine109.txt; nvidia-smi -L >> $T/x/machine109.txt 2>&1
t0=$(date +%s)
for app in bfs sssp sssp-bf color mis; do for seed in 12 13 14; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/r108/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
for sd in 8 9 10; do timeout 60 gpu/r108/components --nodes 200000 --edges 150000 --seed $sd --chaos $sd > $T/x/components-$sd.txt 2>&1
  echo "components seed $sd rc=$?: $(tail -1 $T/x/components-$sd.txt | cut -c1-140)"; done
timeout 120 gpu/r108/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
echo "checks done $(( $(date +%s) - t0 )) s"
timeout 400 /usr/bin/python3 scripts/overhead --bench gpu/r108/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep > $T/x/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep.log; grep -i "best against best" $T/x/sweep/overhead.md
tar -cf $OUT/run109.tar -C $T x
