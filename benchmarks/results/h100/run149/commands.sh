#!/bin/bash
# GPU run 149: the agent on the last discovery ticket (-DCOOP_AGENT_LAST=1, experiment.patch)
# against the agent on ticket 0 (the tree at 8746e34), and the megakernel on 133 groups (132
# members and the agent) beside 132 (131 members); the standalone kernel at 132 for reference.
# Three alternations; then sched-bench's gather, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc149; mkdir -p $T/x; date -u > $T/x/machine149.txt; nvidia-smi -L >> $T/x/machine149.txt 2>&1
B=gpu/r149; G=gpu/graphs
run() { local tag=$1 opt=$2; shift 2; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="$opt" timeout 100 $B/coop-bench "$@" > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-40) $(grep -E '^groups' $f | cut -c1-48)"; }
for r in 1 2 3; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|NY" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|FLA" "bfs|--gen grid:1000:1000|10|grid"; do
  IFS="|" read -r app in rep name <<< "$c"
  run $app-$name-standalone-132-$r "" $app $in --mode standalone --groups 132 --repeat $rep
  for g in 132 133; do
   run $app-$name-first-$g-$r "" $app $in --mode cooperative --groups $g --repeat $rep
   run $app-$name-last-$g-$r "-DCOOP_AGENT_LAST=1" $app $in --mode cooperative --groups $g --repeat $rep
  done
 done
 for c in "bfs|--graph $G/soc-Slashdot0902.txt.gz|100|528|slash" "bfs|--graph $G/email-Enron.txt.gz|100|792|enron" "mis|--graph $G/USA-road-NY.pace16.gr.xz|300|528|NY" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|8|396|FLA"; do
  IFS="|" read -r app in rep g name <<< "$c"
  run $app-$name-first-$g-$r "" $app $in --mode cooperative --groups $g --repeat $rep
  run $app-$name-last-$g-$r "-DCOOP_AGENT_LAST=1" $app $in --mode cooperative --groups $g --repeat $rep
 done
done
for r in 1 2; do for v in first last; do o=""; [ $v = last ] && o="-DCOOP_AGENT_LAST=1"; f=$T/x/sched-$v-$r.txt
  COOP_BUILD_OPTIONS="$o" timeout 60 $B/sched-bench --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v $r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"; done; done
for s in 1 2; do for app in bfs sssp mis; do f=$T/x/chaos-$app-$s.txt
  COOP_BUILD_OPTIONS="-DCOOP_AGENT_LAST=1" timeout 40 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos last $app $s rc=$?: $(grep -E '^check' $f | cut -c1-50)"; done; done
tar -cf $OUT/run149.tar -C $T x
