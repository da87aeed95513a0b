#!/bin/bash
# GPU run 165: which of the resizing barrier's rare paths costs bfs its gap, each compiled out
# (measuring only: not correct with tasks or chaos): member 0's decision (nd), a flagged
# barrier's work (nf), a fork's publication after the last workgroup barrier (nk), all three
# (none); against the tree as committed (c) and the standalone kernel (s); registers, size and
# round loop span; bfs at 132 groups, three alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc165; mkdir -p $T/x; date -u > $T/x/machine165.txt; nvidia-smi -L >> $T/x/machine165.txt 2>&1
B=gpu/rE; G=gpu/graphs
declare -A O=([s]="" [c]="" [nd]="-DCOOP_EXP_NO_DECIDE" [nf]="-DCOOP_EXP_NO_FLAGGED" [nk]="-DCOOP_EXP_NO_FORK" [none]="-DCOOP_EXP_NO_DECIDE -DCOOP_EXP_NO_FLAGGED -DCOOP_EXP_NO_FORK")
mode() { [ $1 = s ] && echo standalone || echo cooperative; }
sass() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="${O[$1]}" COOP_BUILD_DUMP=$d $B/coop-bench bfs --mode $(mode $1) --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -qE '_(mega|standalone)\(' $d/k.ptx && cp $d/k.ptx $d/m.ptx; done
  ptxas -arch=sm_90 -v $d/m.ptx -o $d/k.cubin > $d/v.txt 2>&1
  cuobjdump -sass $d/k.cubin | grep -E '^\s+/\*[0-9a-f]{4,5}\*/' | sed -E 's#/\* 0x[0-9a-f]+ \*/##; s#^\s+##' > $T/x/bfs-$1.s
  echo "$1: $(grep -oE 'Used [0-9]+ registers' $d/v.txt | head -1), $(python3 gpu/spans.py $T/x/bfs-$1.s | sed 's#.*/##')"; }
for v in s c nd nf nk none; do sass $v; done
run() { local tag=$1 v=$2; shift 2; local f=$T/x/$tag.txt
  COOP_BUILD_OPTIONS="${O[$v]}" timeout 100 $B/coop-bench bfs "$@" --mode $(mode $v) > $f 2>&1
  echo "$tag rc=$? $(grep -E '^time median' $f | cut -c1-28) $(grep -cE 'equals the CPU' $f)"; }
for r in 1 2 3; do
 for c in "--graph $G/USA-road-NY.pace16.gr.xz|30|NY" "--graph $G/USA-road-FLA.pace16.gr.xz|10|FLA" "--gen grid:1000:1000|10|grid"; do
  IFS="|" read -r in rep name <<< "$c"
  for v in s c nd nf nk none; do run bfs-$name-$v-$r $v $in --groups 132 --repeat $rep; done
 done
done
xz -9 $T/x/*.s; tar -cf $OUT/run165.tar -C $T x
