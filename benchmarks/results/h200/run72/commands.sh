#!/bin/bash
# GPU run 72: trace mode with the resizing barrier's new shape (0675f75's build, gpu/h): bfs and
# sssp-bf traced under chaos with a task (results checked), and bfs's traced round through
# scripts/round-cost.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc72; mkdir -p $T/x
for app in bfs sssp-bf; do
  timeout 120 gpu/h/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos 1 --repeat 2 --trace $T/x/trace-$app.json > $T/x/chaos-$app.txt 2>&1
  echo "traced chaos $app rc=$?: $(grep -E '^kills' $T/x/chaos-$app.txt | cut -c1-60) | $(grep -E '^check|^trace' $T/x/chaos-$app.txt | tr '\n' ' ' | cut -c1-160)"
done
timeout 60 gpu/h/bin/coop-bench bfs --graph gpu/graphs/USA-road-NY.pace16.gr.xz --groups 132 --repeat 3 --trace $T/x/trace-bfs-NY.json > $T/x/trace-bfs-NY.txt 2>&1
echo "trace bfs NY rc=$?: $(grep -E '^time median' $T/x/trace-bfs-NY.txt | cut -c1-40)"
/usr/bin/python3 scripts/round-cost $T/x/trace-bfs-NY.json --skip 5 | tee $T/x/round-cost-bfs-NY.txt
rm -f $T/x/*.json
cd $T && tar -cf $OUT/run72.tar x
