#!/bin/bash
# GPU run 99 (issues 18, 21): the cooperative form's fixed cost at the end of a run. gpu/t99 (the
# tree at 1984f68 with two experiment switches): tiny inputs and the short road-graph runs,
# standalone against cooperative as built, with the last finishing member storing the state to
# the host itself (-DCOOP_EXP_FINISH_HOST), and with the agent's pauses 0 and 64
# (-DCOOP_AGENT_PAUSES). Medians of R runs, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc99; mkdir -p $T/x; date -u > $T/x/machine99.txt; nvidia-smi -L >> $T/x/machine99.txt 2>&1
G=gpu/graphs
one() { # name mode options reps app args...
  local name=$1 mode=$2 opt=$3 reps=$4; shift 4; local f=$T/x/$name.txt
  COOP_BUILD_OPTIONS="$opt" timeout 60 gpu/t99/bin/coop-bench "$@" --mode $mode --repeat $reps > $f 2>&1; local rc=$?
  echo "$name rc=$rc: $(grep -E '^time median' $f | cut -c13-60) $(grep -oE 'groups [0-9]+ co-resident' $f)"
}
for r in 1 2; do
  for c in "bfs --gen grid:2:2 --groups 132|bfs-tiny|100" "mis --gen grid:2:2 --groups 528|mis-tiny|100" "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY|40" "color --graph $G/USA-road-NY.pace16.gr.xz --groups 528|color-NY|40" "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY|10"; do
    IFS="|" read -r cmd name reps <<< "$c"
    one $name-standalone-$r standalone "" $reps $cmd
    one $name-coop-$r cooperative "" $reps $cmd
    one $name-finish-$r cooperative "-DCOOP_EXP_FINISH_HOST" $reps $cmd
    one $name-p0-$r cooperative "-DCOOP_AGENT_PAUSES=0u" $reps $cmd
    one $name-p64-$r cooperative "-DCOOP_AGENT_PAUSES=64u" $reps $cmd
  done
done
tar -cf $OUT/run99.tar -C $T x
