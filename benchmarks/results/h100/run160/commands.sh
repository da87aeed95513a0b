#!/bin/bash
# GPU run 160: two simplifications of the resizing barrier (member 0's decision on the context
# itself, not on the narrowed copy; the vote's result set once before the early return), gpu/rB,
# against the tree before them, gpu/rA: registers and SASS of every megakernel (with and without
# a task), compared instruction by instruction; chaos with the new tree.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc160; mkdir -p $T/x; date -u > $T/x/machine160.txt; nvidia-smi -L >> $T/x/machine160.txt 2>&1
sass() { local d=$T/d-$1-$2-$3; mkdir -p $d; local t=""; [ $3 = task ] && t="--task light --period-ms 1"
  COOP_BUILD_DUMP=$d gpu/$1/coop-bench $2 --mode cooperative --gen grid:30:30 $t > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; grep -q '_mega(' $d/k.ptx && cp $d/k.ptx $d/m.ptx; done
  ptxas -arch=sm_90 -v $d/m.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin | grep -E '^\s+/\*[0-9a-f]{4,5}\*/' | sed -E 's#/\* 0x[0-9a-f]+ \*/##' > $d/k.sass
  echo "$(grep -oE 'Used [0-9]+ registers' $d/v.txt | head -1)"; }
for app in bfs sssp color mis sssp-bf; do for t in none task; do a=$(sass rA $app $t); b=$(sass rB $app $t)
  n=$(diff $T/d-rA-$app-$t/k.sass $T/d-rB-$app-$t/k.sass | grep -c '^[<>]')
  echo "$app $t: before $a, after $b, SASS lines differing $n of $(wc -l < $T/d-rA-$app-$t/k.sass)"; diff $T/d-rA-$app-$t/k.sass $T/d-rB-$app-$t/k.sass > $T/x/$app-$t.diff; done; done
for app in bfs sssp sssp-bf; do f=$T/x/chaos-$app.txt; timeout 30 gpu/rB/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos 1 --repeat 1 > $f 2>&1
  echo "chaos $app rc=$?: $(grep -E '^check' $f | cut -c1-40)"; done
tar -cf $OUT/run160.tar -C $T x
