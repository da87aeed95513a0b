#!/bin/bash
# GPU run 143: run 141's barrier with every "local id 0" test written as (lid.x | lid.y | lid.z) == 0
# (coop_is_leader), gpu/r143, against gpu/r138: registers, warp aggregation, times.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc143; mkdir -p $T/x; G=gpu/graphs
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$1/coop-bench $2 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/$2-$1.sass
  echo "$(grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE 'Used [0-9]+ registers' | tr '\n' ' ') voteu $(grep -c VOTEU $T/x/$2-$1.sass)"; }
for app in bfs sssp color mis sssp-bf; do for v in r138 r143; do echo "$app $v: $(regs $v $app)"; done; done
run() { local f=$T/x/$1.txt; shift; timeout 120 "$@" > $f 2>&1; echo "$(basename $f .txt): rc=$? $(grep -E '^time median' $f | cut -c1-60)"; }
for r in 1 2; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132" "mis|--gen grid:1000:1000|300|660" "bfs|--gen grid:1000:1000|10|132" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|8|396" "sssp-bf|--graph $G/USA-road-FLA.pace16.gr.xz|5|792"; do
  IFS="|" read -r app in rep g <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')
  for v in r138 r143; do run $tag-$v-$r gpu/$v/coop-bench $app $in --mode cooperative --groups $g --repeat $rep; done
 done
done
cd $T/x && gzip *.sass && cd - > /dev/null
tar -cf $OUT/run143.tar -C $T x
