#!/bin/bash
# GPU run 144: run 141's barrier with coop_local_linear_id in inline PTX, so that the compiler
# cannot rewrite the work-item 0 tests (gpu/r144; -DCOOP_EXP_C_LID gives back the C form, i.e.
# run 141), against gpu/r138 (the tree as committed): registers, warp aggregation, times, chaos.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc144; mkdir -p $T/x; G=gpu/graphs
bin() { case $1 in r138) echo gpu/r138/coop-bench;; *) echo gpu/r144/coop-bench;; esac; }
opt() { case $1 in r144c) echo -DCOOP_EXP_C_LID;; *) echo "";; esac; }
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$(opt $1)" COOP_BUILD_DUMP=$d $(bin $1) $2 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/$2-$1.sass
  echo "$(grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE 'Used [0-9]+ registers' | tr '\n' ' ') voteu $(grep -c VOTEU $T/x/$2-$1.sass) $(grep -m1 -i error $d/out.txt)"; }
for app in bfs sssp color mis sssp-bf; do for v in r138 r144 r144c; do echo "$app $v: $(regs $v $app)"; done; done | tee $T/x/registers.txt
run() { local v=$1 f=$T/x/$2.txt; shift 2; COOP_BUILD_OPTIONS="$(opt $v)" timeout 120 $(bin $v) "$@" > $f 2>&1; echo "$(basename $f .txt): rc=$? $(grep -E '^time median' $f | cut -c1-60)"; }
for r in 1 2; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132" "bfs|--gen grid:1000:1000|10|132" \
          "mis|--graph $G/USA-road-NY.pace16.gr.xz|400|528" "mis|--gen grid:1000:1000|300|660" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|8|396" "sssp-bf|--graph $G/USA-road-FLA.pace16.gr.xz|5|792"; do
  IFS="|" read -r app in rep g <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')
  for v in r138 r144 r144c; do run $v $tag-$v-$r $app $in --mode cooperative --groups $g --repeat $rep; done
 done
done
for app in bfs sssp-bf mis; do for s in 1 2; do f=$T/x/chaos-$app-$s.txt
  timeout 40 gpu/r144/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos $app $s rc=$?: $(grep -E '^check' $f | cut -c1-50)$(grep -E 'differ|progress|rror' $f | head -1 | cut -c1-100)"; done; done
cd $T/x && gzip *.sass && rm -f color-*.sass.gz mis-*.sass.gz sssp-*.sass.gz && cd - > /dev/null
tar -cf $OUT/run144.tar -C $T x
