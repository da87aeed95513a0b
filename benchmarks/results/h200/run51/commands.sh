#!/bin/bash
# GPU run 51 (issue 18: bfs's cost per level): bfs's and sssp's alone walks claim (or lower and
# mark) a batch's heads first and push those won with one slot request per work-item
# (coop_atomic_add_index; gpu/ab) against the tree before (gpu/pm: b04a0d3's kernels).
# Registers; chaos runs with a task (results checked); medians of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc51; mkdir -p $T/x; date -u > $T/x/machine51.txt; nvidia-smi -L >> $T/x/machine51.txt 2>&1
for app in bfs sssp; do for v in pm ab; do d=$T/x/dump-$app-$v; mkdir -p $d
  gpu/$v/bin/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode standalone --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for app in bfs sssp; do for in in grid:200:200 rmat:16:16 email-Enron.txt.gz; do for seed in 1 2; do
  if [ ${in#*:} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  f=$T/x/chaos-$app-${in%%.*}-$seed.txt
  timeout 60 gpu/ab/bin/coop-bench $app $src --task light --period-ms 1 --steal one --chaos $seed --repeat 2 > $f 2>&1
  echo "chaos $app ${in%%.*} seed $seed rc=$?: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-60)"
done; done
  for mode in standalone multikernel; do f=$T/x/check-$app-$mode.txt
    timeout 60 gpu/ab/bin/coop-bench $app --mode $mode --gen rmat:16:16 --repeat 2 > $f 2>&1; echo "$app $mode rmat rc=$?: $(grep -E '^check' $f | cut -c1-60)"; done
  f=$T/x/searches-$app.txt; timeout 60 gpu/ab/bin/coop-bench $app --graph gpu/graphs/USA-road-NY.pace16.gr.xz --searches 4 --chaos 5 > $f 2>&1
  echo "$app searches chaos rc=$?: $(grep -E '^check' $f | cut -c1-60)"
done
run() { # app input groups mode tree rep
  local src g f
  if [ ${2#*:} != $2 ]; then src="--gen $2"; else src="--graph gpu/graphs/$2"; fi
  g=$([ $3 = 132 ] && echo "--groups 132")
  f=$T/x/$1-${2%%.*}-$3-$4-$5-$6.txt
  timeout 60 gpu/$5/bin/coop-bench $1 --mode $4 $src $g --repeat 10 > $f 2>&1
  echo "$1 ${2%%.*} $3 $4 $5 r$6 rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-40)"
}
for r in 1 2; do for app in bfs sssp; do
  for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000; do for g in 132 all; do
    for mode in standalone cooperative; do for v in pm ab; do run $app $in $g $mode $v $r; done; done
  done; done
  [ $r = 1 ] && for in in email-Enron.txt.gz soc-Slashdot0902.txt.gz rmat:16:16; do
    for mode in standalone cooperative; do for v in pm ab; do run $app $in all $mode $v $r; done; done
  done
done; done
tar -cf $OUT/run51.tar -C $T x
