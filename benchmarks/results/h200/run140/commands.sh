#!/bin/bash
# GPU run 140: colour's registers with coop_grow and coop_resize_decision inline plus each other
# slow path; then times of the megakernels as built (base), with coop_grow inline (grow) and with
# coop_grow and coop_resize_decision inline (growdec), standalone for reference, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc140; mkdir -p $T/x; date -u > $T/x/machine140.txt; nvidia-smi -L >> $T/x/machine140.txt 2>&1
B=gpu/r138/coop-bench; G=gpu/graphs
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$2" COOP_BUILD_DUMP=$d $B $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1
  grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE '[0-9]+ bytes stack frame|[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' '; }
GD="-DCOOP_COLD_coop_grow=inline -DCOOP_COLD_coop_resize_decision=inline"
for f in agent await_parked give_back_tokens idle_wait join_killed join_task kill_self leave_task member_finished next_role offer_fork_slow offer_kill_slow park park_wait publish_fork resize_commit sweep sweep_flat take_from take_tokens; do
  echo "color growdec+$f: $(regs color "$GD -DCOOP_COLD_coop_$f=inline")"; done | tee $T/x/color-regs.txt
run() { local f=$T/x/$1.txt; shift; local opt=$1; shift
  COOP_BUILD_OPTIONS="$opt" timeout 120 $B "$@" > $f 2>&1
  echo "$(basename $f .txt): rc=$? $(grep -E '^time median' $f | cut -c1-60)"; }
for r in 1 2; do
 for c in "sssp|--graph $G/email-Enron.txt.gz|200|792|660" "sssp|--gen rmat:16:16|150|792|660" "sssp|--graph $G/soc-Slashdot0902.txt.gz|150|792|660" \
          "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|8|396|396" "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132|132" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132|132" \
          "mis|--graph $G/USA-road-NY.pace16.gr.xz|400|528|528" "mis|--graph $G/USA-road-FLA.pace16.gr.xz|300|792|660" "sssp-bf|--graph $G/USA-road-FLA.pace16.gr.xz|5|792|792" \
          "color|--gen rmat:16:16|5|528|528"; do
  IFS="|" read -r app in rep g gbase <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')
  run $tag-s$g-$r "" $app $in --mode standalone --groups $g --repeat $rep
  run $tag-base$gbase-$r "" $app $in --mode cooperative --groups $gbase --repeat $rep
  run $tag-grow$g-$r "-DCOOP_COLD_coop_grow=inline" $app $in --mode cooperative --groups $g --repeat $rep
  run $tag-growdec$g-$r "$GD" $app $in --mode cooperative --groups $g --repeat $rep
 done
done
tar -cf $OUT/run140.tar -C $T x
