#!/bin/bash
# GPU run 6 (issue 22): trace mode on NVIDIA. Traced runs (checked afterwards by
# build/tests/trace-verify where Check and jansson are), then scripts/trace-cost's registers,
# sched and bfs steps: gpu/trace-before is the tree at 353545b (before trace mode), gpu/build HEAD.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
R=$OUT
T=/tmp/tc; mkdir -p $T $R/traces
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null; } > $R/machine6.txt
B=gpu/build/bin
run() { local name=$1; shift; local t0=$(date +%s.%N); timeout 120 "$@" > $R/traces/$name.txt 2>&1; local rc=$?
  echo "$name rc=$rc $(awk "BEGIN{printf \"%.1f s\", $(date +%s.%N)-$t0}") | $(grep -iE 'trace|equal|differ|error' $R/traces/$name.txt | head -3 | tr '\n' ' ')"; }
run bfs-grid $B/coop-bench bfs --gen grid:100:100 --task light --period-ms 2 --trace $T/bfs-grid.json --trace-events 65536
run sssp-chaos $B/coop-bench sssp --gen grid:100:100 --task light --period-ms 2 --chaos 1 --trace $T/sssp-chaos.json --trace-events 65536
run color-chaos $B/coop-bench color --gen rmat:12:8 --task medium --period-ms 3 --chaos 2 --groups 264 --trace $T/color-chaos.json --trace-events 65536
run mis-half $B/coop-bench mis --gen rmat:12:8 --task light --period-ms 1 --steal half --chaos 3 --trace $T/mis-half.json --trace-events 65536
run bfs-agent env COOP_CHANNEL=queue $B/coop-bench bfs --gen grid:100:100 --task light --period-ms 2 --chaos 4 --trace $T/bfs-agent.json --trace-events 65536
run ws-game $B/coop-ws game --task light --chaos 5 --trace $T/ws-game.json
run ws-octree $B/coop-ws octree --task light --trace $T/ws-octree.json
run bfs-ny-small $B/coop-bench bfs --graph gpu/graphs/USA-road-NY.pace16.gr.xz --task light --period-ms 5 --trace $T/bfs-ny-small.json --trace-events 64
run demo $B/coop-demo --graph gpu/graphs/USA-road-NY.pace16.gr.xz --seconds 1 --out $T/demo --trace $T/demo.json
ls -la $T > $R/traces/sizes.txt
for f in $T/*.json; do xz -T0 -3 -c $f > $R/traces/$(basename $f).xz; done
du -sh $R/traces
# trace-cost: registers (ptxas), sched-bench before / off / on, bfs with a periodic task off / on
for step in registers sched bfs; do
  runs=5; [ $step = sched ] && runs=2
  t0=$(date +%s)
  timeout 250 python3 scripts/trace-cost --before gpu/trace-before --after gpu --steps $step --runs $runs --timeout 150 \
    --graph gpu/graphs/USA-road-FLA.pace16.gr.xz --out $T/cost > $R/trace-cost-$step.log 2>&1
  echo "trace-cost $step rc=$? $(( $(date +%s) - t0 )) s"
done
cp $T/cost/*.md $T/cost/trace-cost-log.txt $R/ 2>/dev/null
ls $T/cost
