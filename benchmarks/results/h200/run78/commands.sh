#!/bin/bash
# GPU run 78 (review): bfs's and sssp's alone walks push the heads won through one helper,
# expand_push_won (gpu/r: the working tree), against 1871702 (gpu/n). Registers of their kernels;
# chaos with a quarter-taking task (results checked); bfs and sssp at 132 groups, medians of 10,
# alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc78; mkdir -p $T/x
for app in bfs sssp; do for v in n r; do for mode in cooperative standalone; do d=$T/d-$app-$v-$mode; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode $mode --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v $mode: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"; done
done; done; done
for app in bfs sssp; do for seed in 1 2; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/r/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1
  echo "chaos $app $seed rc=$?: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
for r in 1 2; do for app in bfs sssp; do for mode in standalone cooperative; do for v in n r; do
  f=$T/x/$app-$mode-$v-$r.txt
  timeout 60 gpu/$v/bin/coop-bench $app --mode $mode --graph gpu/graphs/USA-road-NY.pace16.gr.xz --groups 132 --repeat 10 > $f 2>&1
  echo "$app NY 132 $mode $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-24)"
done; done; done; done
cd $T && tar -cf $OUT/run78.tar x
