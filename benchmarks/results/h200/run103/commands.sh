#!/bin/bash
# GPU run 103 (issue 18): the transmit state staged and restored a word at a time
# (__builtin_memcpy) instead of byte by byte, which made the compiler keep a transmitted round
# counter as four bytes (gpu/t103, on run 101's gpu/t101), against t101, both with run 100's
# stamps; SASS (t103, no stamps); chaos with a quarter-taking task, and a task on USA-road-NY.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc103; mkdir -p $T/x; date -u > $T/x/machine103.txt; nvidia-smi -L >> $T/x/machine103.txt 2>&1
for app in mis sssp-bf bfs; do for mode in cooperative standalone; do d=$T/d-$app-$mode; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/t103/bin/coop-bench $app --mode $mode --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $mode: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"
    cuobjdump -sass $d/k.cubin | gzip > $T/x/$app-$mode.sass.gz; gzip -c $d/k.ptx > $T/x/$app-$mode.ptx.gz; done
done; done | tee $T/x/registers.txt
G=gpu/graphs
one() { # name build mode options reps app args...
  local name=$1 b=$2 mode=$3 opt=$4 reps=$5; shift 5; local f=$T/x/$name.txt
  COOP_EXP_STAMPS=1 COOP_BUILD_OPTIONS="$opt" timeout 60 gpu/$b/bin/coop-bench "$@" --mode $mode --repeat $reps > $f 2>&1; local rc=$?
  echo "$name rc=$rc: $(grep -E '^time median' $f | cut -c13-40) $(grep -oE 'groups [0-9]+ co-resident' $f)"
  grep '^stamps' $f | tail -n $reps | awk '{n++; for(i=4;i<=NF;i+=2) s[i]+=$i} END {if(n){printf "   mean of %d runs:", n; for(i=4;i<=14;i+=2) printf " %.0f", s[i]/n; printf "\n"}}'
}
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY|10" "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528|ssspbf-NY|10" "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY|30" "bfs --graph $G/USA-road-FLA.pace16.gr.xz --groups 132|bfs-FLA|5" "color --graph $G/USA-road-NY.pace16.gr.xz --groups 528|color-NY|30" "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396|sssp-FLA|5"; do
    IFS="|" read -r cmd name reps <<< "$c"
    one $name-standalone-$r t103 standalone "" $reps $cmd
    one $name-coop-t101-$r t101 cooperative "" $reps $cmd
    one $name-coop-t103-$r t103 cooperative "" $reps $cmd
    one $name-standalone-st-$r t103 standalone "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-coop-t101-st-$r t101 cooperative "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-coop-t103-st-$r t103 cooperative "-DCOOP_EXP_STAMPS" $reps $cmd
  done
done
for app in bfs sssp sssp-bf color mis; do for seed in 1 2 3; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/t103/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
for app in bfs sssp-bf mis; do f=$T/x/task-$app.txt
  timeout 60 gpu/t103/bin/coop-bench $app --graph $G/USA-road-NY.pace16.gr.xz --task light --period-ms 2 --repeat 3 > $f 2>&1; rc=$?
  echo "task $app rc=$rc: $(grep -E '^kills' $f | cut -c1-50) | $(grep -E '^check' $f | cut -c1-40)"
done
for sd in 1 2 3 4; do timeout 60 gpu/t103/bin/components --nodes 200000 --edges 150000 --seed $sd --chaos $sd > $T/x/components-$sd.txt 2>&1
  echo "components seed $sd rc=$?: $(tail -1 $T/x/components-$sd.txt | cut -c1-140)"; done
tar -cf $OUT/run103.tar -C $T x
