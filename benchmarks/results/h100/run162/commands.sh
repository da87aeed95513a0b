#!/bin/bash
# GPU run 162: does never-run code in the round loop slow a kernel? The standalone bfs kernel with
# COOP_EXP_PAD atomics behind a branch that is never taken, right after its barrier's wait (local
# id 0; experiment.patch), against itself without; the megakernel with the plain barrier
# (COOP_EXP_PLAIN, run 150's switch) with and without the pad; the committed megakernel.
# Registers, instruction count and the round loop's span (SASS) of each; three alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc162; mkdir -p $T/x; date -u > $T/x/machine162.txt; nvidia-smi -L >> $T/x/machine162.txt 2>&1
B=gpu/rC; G=gpu/graphs
declare -A O=([s0]="" [s80]="-DCOOP_EXP_PAD=80" [s200]="-DCOOP_EXP_PAD=200" [c]="" [p0]="-DCOOP_EXP_PLAIN" [p200]="-DCOOP_EXP_PLAIN -DCOOP_EXP_PAD=200")
mode() { case $1 in s*) echo standalone;; *) echo cooperative;; esac; }
sass() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="${O[$1]}" COOP_BUILD_DUMP=$d $B/coop-bench bfs --mode $(mode $1) --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -qE '_(mega|standalone)\(' $d/k.ptx && cp $d/k.ptx $d/m.ptx; done
  ptxas -arch=sm_90 -v $d/m.ptx -o $d/k.cubin > $d/v.txt 2>&1
  cuobjdump -sass $d/k.cubin | grep -E '^\s+/\*[0-9a-f]{4,5}\*/' | sed -E 's#/\* 0x[0-9a-f]+ \*/##; s#^\s+##' > $T/x/bfs-$1.s
  echo "$1: $(grep -oE 'Used [0-9]+ registers' $d/v.txt | head -1), $(python3 gpu/spans.py $T/x/bfs-$1.s)"; }
for v in s0 s80 s200 c p0 p200; do sass $v; done
run() { local tag=$1 v=$2; shift 2; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="${O[$v]}" timeout 100 $B/coop-bench bfs "$@" --mode $(mode $v) > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU' $f)"; }
for r in 1 2 3; do
 for c in "--graph $G/USA-road-NY.pace16.gr.xz|30|NY" "--graph $G/USA-road-FLA.pace16.gr.xz|10|FLA" "--gen grid:1000:1000|10|grid"; do
  IFS="|" read -r in rep name <<< "$c"
  for v in s0 s80 s200 c p0 p200; do run bfs-$name-$v-$r $v $in --groups 132 --repeat $rep; done
 done
done
gzip $T/x/*.s; tar -cf $OUT/run162.tar -C $T x
