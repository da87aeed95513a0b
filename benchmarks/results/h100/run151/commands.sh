#!/bin/bash
# GPU run 151: the resizing barrier's hand-over with a fork staged and published by local id 0
# before the group's last workgroup barrier (-DCOOP_EXP_HANDOVER=1, experiment.patch), so that no
# call sits between that barrier and the kernel's next statement, against the tree as committed;
# registers of every megakernel and bfs's SASS; three alternations; chaos and sched-bench with it.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc151; mkdir -p $T/x; date -u > $T/x/machine151.txt; nvidia-smi -L >> $T/x/machine151.txt 2>&1
B=gpu/r151; G=gpu/graphs; H="-DCOOP_EXP_HANDOVER=1"
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$2" COOP_BUILD_DUMP=$d $B/coop-bench $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/$1-$3.sass
  echo "$(grep -oE 'Used [0-9]+ registers' $d/v.txt | tr '\n' ' ')"; }
for app in bfs sssp color mis sssp-bf; do echo "$app: committed $(regs $app "" c) handover $(regs $app "$H" h)"; done
run() { local tag=$1 opt=$2; shift 2; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="$opt" timeout 100 $B/coop-bench "$@" > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU|is a' $f)"; }
for r in 1 2 3; do
 for c in "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132|NY" "bfs|--graph $G/USA-road-FLA.pace16.gr.xz|10|132|FLA" "bfs|--gen grid:1000:1000|10|132|grid" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|6|396|FLA" "sssp-bf|--graph $G/USA-road-NY.pace16.gr.xz|10|528|NY" "mis|--gen grid:1000:1000|200|660|grid" "color|--graph $G/email-Enron.txt.gz|20|660|enron"; do
  IFS="|" read -r app in rep g name <<< "$c"
  [ $app = bfs ] && run $app-$name-standalone-$r "" $app $in --mode standalone --groups $g --repeat $rep
  run $app-$name-c-$r "" $app $in --mode cooperative --groups $g --repeat $rep
  run $app-$name-h-$r "$H" $app $in --mode cooperative --groups $g --repeat $rep
 done
done
for app in bfs sssp color mis sssp-bf; do for s in 1 2 3; do f=$T/x/chaos-$app-$s.txt
  COOP_BUILD_OPTIONS="$H" timeout 40 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos h $app $s rc=$?: $(grep -E '^check' $f | cut -c1-40) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f)"; done; done
COOP_BUILD_OPTIONS="$H" timeout 120 $B/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos h rc=$?: $(tail -1 $T/x/coop-chaos.txt | cut -c1-120)"
for r in 1 2; do for v in c h; do o=""; [ $v = h ] && o="$H"; f=$T/x/sched-$v-$r.txt
  COOP_BUILD_OPTIONS="$o" timeout 60 $B/sched-bench --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v $r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"; done; done
gzip $T/x/*.sass; tar -cf $OUT/run151.tar -C $T x
