#!/bin/bash
# GPU run 7 (issue 22): traced runs after the member-order fix (e95f07f), register counts with
# ptxas, trace-cost's sched and bfs steps again, and scripts/overhead for the tree before trace
# mode (gpu/trace-before, 353545b); run 8 has the overhead of this tree.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
for d in $(dirname "$(command -v nvcc 2>/dev/null)") /usr/local/cuda/bin /usr/local/cuda-*/bin; do
  [ -x "$d/ptxas" ] && export PATH="$PATH:$d" && break; done
echo "ptxas: $(command -v ptxas)"
R=$OUT; T=/tmp/tc7; mkdir -p $T/x $R
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/machine7.txt
B=gpu/build/bin
run() { local name=$1; shift; local t0=$(date +%s.%N); timeout 120 "$@" > $T/x/$name.txt 2>&1; local rc=$?
  echo "$name rc=$rc $(awk "BEGIN{printf \"%.1f s\", $(date +%s.%N)-$t0}") | $(grep -iE 'trace|differ|error' $T/x/$name.txt | head -2 | tr '\n' ' ')"; }
run bfs-grid $B/coop-bench bfs --gen grid:100:100 --task light --period-ms 2 --trace $T/bfs-grid.json --trace-events 65536
for s in 1 2 3; do
  run sssp-chaos$s $B/coop-bench sssp --gen grid:100:100 --task light --period-ms 2 --chaos $s --trace $T/sssp-chaos$s.json --trace-events 65536
done
run color-chaos $B/coop-bench color --gen rmat:12:8 --task medium --period-ms 3 --chaos 2 --groups 264 --trace $T/color-chaos.json --trace-events 65536
run mis-half $B/coop-bench mis --gen rmat:12:8 --task light --period-ms 1 --steal half --chaos 3 --trace $T/mis-half.json --trace-events 65536
run ssspbf-all $B/coop-bench sssp-bf --gen grid:60:60 --task light --period-ms 1 --steal all-but-one --chaos 7 --trace $T/ssspbf-all.json --trace-events 65536
run bfs-agent env COOP_CHANNEL=queue $B/coop-bench bfs --gen grid:100:100 --task light --period-ms 2 --chaos 4 --trace $T/bfs-agent.json --trace-events 65536
run ws-game $B/coop-ws game --task light --chaos 5 --trace $T/ws-game.json
run ws-octree $B/coop-ws octree --task light --chaos 6 --trace $T/ws-octree.json
run bfs-ny-small $B/coop-bench bfs --graph gpu/graphs/USA-road-NY.pace16.gr.xz --task light --period-ms 5 --trace $T/bfs-ny-small.json --trace-events 64
for f in $T/*.json; do xz -T0 -3 -c $f > $T/x/$(basename $f).xz; done
for step in registers sched bfs; do
  runs=5; [ $step = sched ] && runs=3
  t0=$(date +%s)
  timeout 200 python3 scripts/trace-cost --before gpu/trace-before --after gpu --steps $step --runs $runs --timeout 150 \
    --graph gpu/graphs/USA-road-FLA.pace16.gr.xz --out $T/cost > $T/x/trace-cost-$step.log 2>&1
  echo "trace-cost $step rc=$? $(( $(date +%s) - t0 )) s"
done
cp $T/cost/*.md $T/cost/trace-cost-log.txt $T/x/
mkdir -p $T/x/overhead-before
t0=$(date +%s)
timeout 285 python3 scripts/overhead --bench gpu/trace-before/build/bin/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-before > $T/x/overhead-before.log 2>&1
echo "overhead before rc=$? $(( $(date +%s) - t0 )) s"; tail -n 6 $T/x/overhead-before.log
tar -cf $R/run7.tar -C $T x; du -sh $R/run7.tar
