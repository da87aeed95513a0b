#!/bin/bash
# GPU run 163: member 0's decision and a flagged barrier's work out of line (-DCOOP_EXP_OOL,
# experiment.patch: two noinline wrappers, so that the round loop holds two calls instead of
# their code), alone ("o") and with the registers capped where the committed megakernel has them
# ("oc": -cl-nv-maxrregcount=40 for bfs, sssp, sssp-bf; 48 for color, mis), against the tree as
# committed ("c"); registers of each; three alternations; chaos with "oc".
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc163; mkdir -p $T/x; date -u > $T/x/machine163.txt; nvidia-smi -L >> $T/x/machine163.txt 2>&1
B=gpu/rD; G=gpu/graphs
cap() { case $1 in color|mis) echo 48;; *) echo 40;; esac; }
opt() { case $2 in c) echo "";; o) echo "-DCOOP_EXP_OOL";; oc) echo "-DCOOP_EXP_OOL -cl-nv-maxrregcount=$(cap $1)";; esac; }
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$(opt $1 $2)" COOP_BUILD_DUMP=$d $B/coop-bench $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -q '_mega(' $d/k.ptx && cp $d/k.ptx $d/m.ptx; done
  ptxas -arch=sm_90 -v $d/m.ptx -o $d/k.cubin $([ $2 = oc ] && echo "--maxrregcount $(cap $1)") > $d/v.txt 2>&1
  echo "$(grep -oE 'Used [0-9]+ registers' $d/v.txt | head -1) $(grep -oE '[0-9]+ bytes spill stores' $d/v.txt | head -1) $(grep -m1 -oE 'co-resident[^,;]*' $d/out.txt)"; }
for app in bfs sssp color mis sssp-bf; do for v in c o oc; do echo "regs $app $v: $(regs $app $v)"; done; done
run() { local tag=$1 app=$2 v=$3; shift 3; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="$(opt $app $v)" timeout 100 $B/coop-bench $app "$@" > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU|is a' $f)"; }
for r in 1 2 3; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132|NY" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132|FLA" "bfs|--gen grid:1000:1000|10|132|grid" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|6|396|FLA" "sssp-bf|--graph $G/USA-road-NY.pace16.gr.xz|10|528|NY" "sssp-bf|--gen grid:1000:1000|3|792|grid" "mis|--gen grid:1000:1000|200|660|grid" "color|--graph $G/email-Enron.txt.gz|20|660|enron"; do
  IFS="|" read -r app in rep g name <<< "$c"
  [ $app = bfs ] && run $app-$name-standalone-$r $app c $in --mode standalone --groups $g --repeat $rep
  for v in c o oc; do run $app-$name-$v-$r $app $v $in --mode cooperative --groups $g --repeat $rep; done
 done
done
for app in bfs sssp sssp-bf color mis; do for s in 1 2; do f=$T/x/chaos-$app-$s.txt
  COOP_BUILD_OPTIONS="$(opt $app oc)" timeout 40 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos oc $app $s rc=$?: $(grep -E '^check' $f | cut -c1-40) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f)"; done; done
COOP_BUILD_OPTIONS="-DCOOP_EXP_OOL -cl-nv-maxrregcount=40" timeout 100 $B/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos oc40 rc=$?: $(tail -1 $T/x/coop-chaos.txt | cut -c1-160)"
tar -cf $OUT/run163.tar -C $T x
