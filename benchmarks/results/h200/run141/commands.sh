#!/bin/bash
# GPU run 141: the resizing barrier with member 0's decision made before its group barrier and a
# common path of one hand-over word (gpu/r141, experiment) against the tree as committed (gpu/r138,
# whose switches are off by default): registers of every megakernel, times at equal counts in two
# alternations, then chaos with a quarter-taking task for every app and coop-chaos.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc141; mkdir -p $T/x; date -u > $T/x/machine141.txt; nvidia-smi -L >> $T/x/machine141.txt 2>&1
G=gpu/graphs
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$1/coop-bench $2 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/$2-$1.sass
  grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE '[0-9]+ bytes stack frame|[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' '; }
for app in bfs sssp color mis sssp-bf; do for v in r138 r141; do echo "$app $v: $(regs $v $app)"; done; done
run() { local f=$T/x/$1.txt; shift; timeout 120 "$@" > $f 2>&1; echo "$(basename $f .txt): rc=$? $(grep -E '^time median' $f | cut -c1-60)"; }
for r in 1 2; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132" "bfs|--gen grid:1000:1000|10|132" \
          "mis|--graph $G/USA-road-NY.pace16.gr.xz|400|528" "mis|--gen grid:1000:1000|300|660" "sssp-bf|--graph $G/USA-road-FLA.pace16.gr.xz|5|792" \
          "color|--graph $G/USA-road-NY.pace16.gr.xz|400|528" "sssp|--gen rmat:16:16|150|528" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|8|396"; do
  IFS="|" read -r app in rep g <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')
  for v in r138 r141; do run $tag-$v-$r gpu/$v/coop-bench $app $in --mode cooperative --groups $g --repeat $rep; done
 done
done
for app in bfs sssp color mis sssp-bf; do for s in 1 2 3; do
  f=$T/x/chaos-$app-$s.txt; timeout 40 gpu/r141/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos $app $s rc=$?: $(grep -E '^check' $f | cut -c1-60)$(grep -E 'differ|progress|rror' $f | head -1 | cut -c1-100) $(grep -E '^scheduler|kills' $f | head -1 | cut -c1-80)"; done; done
timeout 120 gpu/r141/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
cd $T/x && gzip *.sass && cd - > /dev/null
tar -cf $OUT/run141.tar -C $T x
