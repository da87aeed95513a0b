#!/bin/bash
# GPU run 150: which part of the resizing barrier makes bfs's megakernel slower than its
# standalone kernel at 132 groups. Experiment switches (experiment.patch, one build):
# NO_DECIDE (member 0 never decides), NO_KILL_EXIT (the barrier never returns killed: no exit
# from the round loop), PLAIN (the plain global barrier in the megakernel), M_FIXED (M from the
# group count, not from the barrier's hand-over); registers and SASS of each; two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc150; mkdir -p $T/x; date -u > $T/x/machine150.txt; nvidia-smi -L >> $T/x/machine150.txt 2>&1
B=gpu/r150; G=gpu/graphs
declare -A O=([c]="" [nd]="-DCOOP_EXP_NO_DECIDE" [nk]="-DCOOP_EXP_NO_KILL_EXIT" [p]="-DCOOP_EXP_PLAIN" [mf]="-DCOOP_EXP_M_FIXED" [all]="-DCOOP_EXP_NO_DECIDE -DCOOP_EXP_NO_KILL_EXIT -DCOOP_EXP_M_FIXED")
sass() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$2" COOP_BUILD_DUMP=$d $B/coop-bench bfs --mode $3 --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $T/x/bfs-$1.sass
  echo "$1: $(grep -oE 'Used [0-9]+ registers' $d/v.txt | tr '\n' ' ') $(grep -cE '^ +/\*[0-9a-f]{4}\*/' $T/x/bfs-$1.sass) instructions"; }
sass standalone "" standalone
for v in c nd nk p mf all; do sass $v "${O[$v]}" cooperative; done
run() { local tag=$1 opt=$2; shift 2; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="$opt" timeout 100 $B/coop-bench "$@" > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU' $f)"; }
for r in 1 2; do
 for c in "--graph $G/USA-road-NY.pace16.gr.xz|30|NY" "--graph $G/USA-road-FLA.pace16.gr.xz|10|FLA" "--gen grid:1000:1000|10|grid"; do
  IFS="|" read -r in rep name <<< "$c"
  run bfs-$name-standalone-$r "" bfs $in --mode standalone --groups 132 --repeat $rep
  for v in c nd nk p mf all; do run bfs-$name-$v-$r "${O[$v]}" bfs $in --mode cooperative --groups 132 --repeat $rep; done
 done
done
gzip $T/x/*.sass
tar -cf $OUT/run150.tar -C $T x
