#!/bin/bash
# GPU run 100 (issue 18): where the cooperative round's extra time goes. gpu/t100 = 1984f68 with
# experiment switches (gpu/exp100.patch): COOP_EXP_STAMPS (group 0's local id 0 sums clock
# cycles between points of every global barrier: work since the last barrier, first group sync,
# before the arrival, arrival and wait, after, second group sync; printed per run) and
# COOP_EXP_PLAIN (the megakernel with the plain global barrier). Standalone, cooperative, plain.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc100; mkdir -p $T/x; date -u > $T/x/machine100.txt; nvidia-smi -L >> $T/x/machine100.txt 2>&1
G=gpu/graphs
one() { # name mode options reps app args...
  local name=$1 mode=$2 opt=$3 reps=$4; shift 4; local f=$T/x/$name.txt
  COOP_EXP_STAMPS=1 COOP_BUILD_OPTIONS="$opt" timeout 60 gpu/t100/bin/coop-bench "$@" --mode $mode --repeat $reps > $f 2>&1; local rc=$?
  echo "$name rc=$rc: $(grep -E '^time median' $f | cut -c13-40) $(grep -oE 'groups [0-9]+ co-resident' $f)"
  grep '^stamps' $f | tail -n $reps | awk '{n++; for(i=4;i<=NF;i+=2) s[i]+=$i} END {if(n){printf "   mean of %d runs:", n; for(i=4;i<=14;i+=2) printf " %.0f", s[i]/n; printf "\n"}}'
}
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY|10" "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528|ssspbf-NY|10" "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY|30"; do
    IFS="|" read -r cmd name reps <<< "$c"
    one $name-standalone-$r standalone "" $reps $cmd
    one $name-coop-$r cooperative "" $reps $cmd
    one $name-standalone-st-$r standalone "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-coop-st-$r cooperative "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-plain-st-$r cooperative "-DCOOP_EXP_STAMPS -DCOOP_EXP_PLAIN" $reps $cmd
  done
done
tar -cf $OUT/run100.tar -C $T x
