#!/bin/bash
# GPU run 101 (issue 18): the resizing barrier's hand-over in one word, and no vote read where
# the barrier takes no vote (gpu/t101), against gpu/t100 (run 100's build), both with run 100's
# stamps (COOP_EXP_STAMPS); t101 also without its prefetch (-DCOOP_RESIZE_PREFETCH=0); SASS of
# mis's and sssp-bf's megakernel and standalone kernel (t101, no stamps).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc101; mkdir -p $T/x; date -u > $T/x/machine101.txt; nvidia-smi -L >> $T/x/machine101.txt 2>&1
for app in mis sssp-bf bfs; do for mode in cooperative standalone; do d=$T/d-$app-$mode; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/t101/bin/coop-bench $app --mode $mode --gen grid:30:30 > /dev/null 2>&1
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
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY|10" "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528|ssspbf-NY|10" "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY|30" "bfs --graph $G/USA-road-FLA.pace16.gr.xz --groups 132|bfs-FLA|5"; do
    IFS="|" read -r cmd name reps <<< "$c"
    one $name-standalone-$r t101 standalone "" $reps $cmd
    one $name-coop-t100-$r t100 cooperative "" $reps $cmd
    one $name-coop-t101-$r t101 cooperative "" $reps $cmd
    one $name-standalone-st-$r t101 standalone "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-coop-t100-st-$r t100 cooperative "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-coop-t101-st-$r t101 cooperative "-DCOOP_EXP_STAMPS" $reps $cmd
    one $name-coop-t101-nopf-st-$r t101 cooperative "-DCOOP_EXP_STAMPS -DCOOP_RESIZE_PREFETCH=0" $reps $cmd
  done
done
tar -cf $OUT/run101.tar -C $T x
