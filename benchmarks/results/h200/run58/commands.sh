#!/bin/bash
# GPU run 58 (review): coop_atomic_inc and coop_atomic_add_index share one warp helper
# (coop_warp_fetch_add; gpu/m) against 31a4f52 (gpu/fin). Registers; chaos with a task (results
# checked); bfs and sssp at 132 groups on USA-road-NY, alternating, medians of 10.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc58; mkdir -p $T/x; date -u > $T/x/machine58.txt; nvidia-smi -L >> $T/x/machine58.txt 2>&1
for app in bfs sssp sssp-bf color mis; do for v in fin m; do d=$T/x/dump-$app-$v; mkdir -p $d
  for mode in cooperative standalone; do COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode $mode --gen grid:30:30 > /dev/null 2>&1; done
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-100)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for app in bfs sssp sssp-bf; do for in in grid:200:200 rmat:16:16; do f=$T/x/chaos-$app-$in.txt
  timeout 60 gpu/m/bin/coop-bench $app --gen $in --task light --period-ms 1 --steal one --chaos 1 --repeat 2 > $f 2>&1
  echo "chaos $app $in rc=$?: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-60)"
done; done
for r in 1 2; do for app in bfs sssp; do for mode in standalone cooperative; do for v in fin m; do
  f=$T/x/$app-$mode-$v-$r.txt
  timeout 60 gpu/$v/bin/coop-bench $app --mode $mode --graph gpu/graphs/USA-road-NY.pace16.gr.xz --groups 132 --repeat 10 > $f 2>&1
  echo "$app NY 132 $mode $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30)"
done; done; done; done
tar -cf $OUT/run58.tar -C $T x
