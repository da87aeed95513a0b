#!/bin/bash
# GPU run 4 (issue 17, same sitting): sched-bench's gather, apps on USA-road-NY, merge-bench,
# responsiveness; before (gpu/before) and after (gpu/build), alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
R=$OUT
date -u > $R/machine4.txt
for r in 1 2; do for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  $B/sched-bench --tasks 300 --repeat 1 > $R/sched-bench-$side-$r.txt 2>&1; echo "sched-bench $side $r rc=$?"; grep -iE "gather|overhead" $R/sched-bench-$side-$r.txt | head -6
done; done
G=gpu/graphs/USA-road-NY.pace16.gr.xz
for r in 1 2; do for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  for app in bfs sssp sssp-bf color mis; do for mode in standalone cooperative; do
    $B/coop-bench $app --graph $G --mode $mode --repeat 5 > /tmp/o.txt 2>&1
    echo "$side $r $app $mode rc=$?: $(grep -E '^groups' /tmp/o.txt | cut -d';' -f1); $(grep -iE 'median' /tmp/o.txt | cut -d';' -f1)"
  done; done
done; done > $R/apps-ny.txt
cat $R/apps-ny.txt
for r in 1 2; do for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  for mode in standalone cooperative; do
    $B/coop-bench sssp --gen grid:1000:1000 --mode $mode --repeat 5 > /tmp/o.txt 2>&1
    echo "$side $r sssp grid:1000:1000 $mode rc=$?: $(grep -E '^groups' /tmp/o.txt | cut -d';' -f1); $(grep -iE 'median' /tmp/o.txt | cut -d';' -f1)"
  done
done; done > $R/sssp-grid.txt
cat $R/sssp-grid.txt
for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; S=gpu/before/scripts; else B=gpu/build/bin; S=gpu/after-scripts; fi
  mkdir -p $R/resp-$side
  timeout 150 python3 $S/responsiveness --bench $B/coop-bench --graphs gpu/graphs --repeat 1 --run-ms 800 --out $R/resp-$side > $R/resp-$side.log 2>&1
  echo "responsiveness $side rc=$?"; tail -n 12 $R/resp-$side.log
done
