#!/bin/bash
# GPU run 159: the barrier's rare branches marked unlikely (__builtin_expect, -DCOOP_EXP_EXPECT,
# experiment.patch), so that the compiler may lay the flagged, fork and kill paths out of the
# round's hot path, against the tree as committed; registers, bfs's SASS, times (bfs three
# alternations, the others two) and chaos with a quarter-taking task.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc159; mkdir -p $T/x; date -u > $T/x/machine159.txt; nvidia-smi -L >> $T/x/machine159.txt 2>&1
B=gpu/r159; G=gpu/graphs; E="-DCOOP_EXP_EXPECT"
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$2" COOP_BUILD_DUMP=$d $B/coop-bench $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/$1-$3.sass
  echo "$(grep -oE 'Used [0-9]+ registers' $d/v.txt | tr '\n' ' ')"; }
for app in bfs sssp mis sssp-bf color; do echo "$app: committed $(regs $app "" c) expect $(regs $app "$E" e)"; done
run() { local tag=$1 opt=$2; shift 2; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="$opt" timeout 100 $B/coop-bench "$@" > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU|is a' $f)"; }
for r in 1 2 3; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132|NY" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132|FLA" "bfs|--gen grid:1000:1000|10|132|grid" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|6|396|FLA" "sssp-bf|--graph $G/USA-road-NY.pace16.gr.xz|10|528|NY" "mis|--gen grid:1000:1000|200|660|grid"; do
  IFS="|" read -r app in rep g name <<< "$c"; [ $app != bfs ] && [ $r = 3 ] && continue
  [ $app = bfs ] && run $app-$name-standalone-$r "" $app $in --mode standalone --groups $g --repeat $rep
  run $app-$name-c-$r "" $app $in --mode cooperative --groups $g --repeat $rep
  run $app-$name-e-$r "$E" $app $in --mode cooperative --groups $g --repeat $rep
 done
done
for app in bfs sssp sssp-bf mis color; do for s in 1 2; do f=$T/x/chaos-$app-$s.txt
  COOP_BUILD_OPTIONS="$E" timeout 30 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos e $app $s rc=$?: $(grep -E '^check' $f | cut -c1-40) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f)"; done; done
gzip $T/x/*.sass; tar -cf $OUT/run159.tar -C $T x
