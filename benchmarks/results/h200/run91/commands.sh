#!/bin/bash
# GPU run 91 (issue 18): run 77's question with more seeds. p1 = 0675f75's barrier with member 0's
# fork record published after its group's workgroup barrier (as 889ddb4 does; run 77's binary);
# h = 0675f75; m = 889ddb4. sssp-bf under chaos with a quarter-taking task, seeds 7-30 for p1,
# 7-14 for h and m; then bfs and sssp-bf times, medians of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc91; mkdir -p $T/x
one() { # variant seed
  local f=$T/x/$1-$2.txt s=$(date +%s)
  timeout 25 gpu/bis/coop-bench-$1 sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $2 --repeat 1 > $f 2>&1; local rc=$?
  echo "$1 chaos $2 rc=$rc $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-30)$(grep -E 'nodes differ|progress' $f | head -1 | cut -c1-100)"
}
for seed in $(seq 7 30); do one p1 $seed; done
for seed in $(seq 7 14); do one h $seed; one m $seed; done
G=gpu/graphs
for r in 1 2; do for v in m h p1; do
  f=$T/x/t-bfs-NY-$v-$r.txt; timeout 60 gpu/bis/coop-bench-$v bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132 --repeat 10 > $f 2>&1
  echo "bfs NY 132 $v r$r: $(grep -E '^time median' $f | cut -c13-24)"
  f=$T/x/t-ssspbf-FLA-$v-$r.txt; timeout 60 gpu/bis/coop-bench-$v sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 792 --repeat 10 > $f 2>&1
  echo "sssp-bf FLA 792 $v r$r: $(grep -E '^time median' $f | cut -c13-24)"
done; done
cd $T && tar -cf $OUT/run91.tar x
