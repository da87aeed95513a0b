#!/bin/bash
# GPU run 134: the working tree with member ids 0-7 given to the first groups to arrive after the
# agent (COOP_NEAR_IDS 8): chaos (every app, seeds 18-20; components, seeds 14-16; coop-chaos),
# sched-bench's gather three times, then scripts/overhead --sweep --repeat 3.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc134; mkdir -p $T/x; date -u > $T/x/machine134.txt; nvidia-smi -L >> $T/x/machine134.txt 2>&1
t0=$(date +%s); B=gpu/r134
for app in bfs sssp sssp-bf color mis; do for seed in 18 19 20; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
for sd in 14 15 16; do timeout 60 $B/components --nodes 200000 --edges 150000 --seed $sd --chaos $sd > $T/x/components-$sd.txt 2>&1
  echo "components seed $sd rc=$?: $(tail -1 $T/x/components-$sd.txt | cut -c1-140)"; done
timeout 120 $B/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
for r in 1 2 3; do f=$T/x/sched-$r.txt; timeout 60 $B/sched-bench --tasks 300 --repeat 1 > $f 2>&1
  echo "sched r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"; done
echo "checks done $(( $(date +%s) - t0 )) s"
timeout 420 /usr/bin/python3 scripts/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep > $T/x/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep.log | tail -3; grep -i "best against best" $T/x/sweep/overhead.md; grep -E "^\| all " $T/x/sweep/overhead.md
tar -cf $OUT/run134.tar -C $T x
