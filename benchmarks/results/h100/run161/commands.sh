#!/bin/bash
# GPU run 161: run 160's two simplifications (gpu/rB: member 0's decision on the context itself,
# the vote's result set once) timed against the tree before them (gpu/rA), three alternations;
# rB also with member 0's decision after the group barrier (-DCOOP_RESIZE_PREFETCH=0, "np");
# registers of each megakernel; chaos with rB (five apps, two seeds) and coop-chaos.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc161; mkdir -p $T/x; date -u > $T/x/machine161.txt; nvidia-smi -L >> $T/x/machine161.txt 2>&1
G=gpu/graphs
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$3" COOP_BUILD_DUMP=$d gpu/$1/coop-bench $2 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -q '_mega(' $d/k.ptx && cp $d/k.ptx $d/m.ptx; done
  ptxas -arch=sm_90 -v $d/m.ptx -o $d/k.cubin > $d/v.txt 2>&1
  echo "$(grep -oE 'Used [0-9]+ registers' $d/v.txt | head -1)"; }
for app in bfs sssp color mis sssp-bf; do echo "regs $app: A $(regs rA $app) B $(regs rB $app) B-np $(regs rB $app -DCOOP_RESIZE_PREFETCH=0)"; done
run() { local tag=$1 tree=$2 opt=$3; shift 3; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="$opt" timeout 100 gpu/$tree/coop-bench "$@" > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU|is a' $f)"; }
for r in 1 2 3; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132|NY" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132|FLA" "bfs|--gen grid:1000:1000|10|132|grid" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|6|396|FLA" "sssp-bf|--graph $G/USA-road-NY.pace16.gr.xz|10|528|NY" "mis|--gen grid:1000:1000|200|660|grid" "color|--graph $G/email-Enron.txt.gz|20|660|enron"; do
  IFS="|" read -r app in rep g name <<< "$c"
  [ $app = bfs ] && run $app-$name-standalone-$r rA "" $app $in --mode standalone --groups $g --repeat $rep
  run $app-$name-A-$r rA "" $app $in --mode cooperative --groups $g --repeat $rep
  run $app-$name-B-$r rB "" $app $in --mode cooperative --groups $g --repeat $rep
  [ $app = bfs ] && run $app-$name-Bnp-$r rB "-DCOOP_RESIZE_PREFETCH=0" $app $in --mode cooperative --groups $g --repeat $rep
 done
done
for app in bfs sssp color mis sssp-bf; do for s in 1 2; do f=$T/x/chaos-$app-$s.txt
  timeout 40 gpu/rB/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos B $app $s rc=$?: $(grep -E '^check' $f | cut -c1-40) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f)"; done; done
timeout 150 gpu/rB/coop-chaos --seeds 20 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos B rc=$?: $(tail -1 $T/x/coop-chaos.txt | cut -c1-160)"
tar -cf $OUT/run161.tar -C $T x
