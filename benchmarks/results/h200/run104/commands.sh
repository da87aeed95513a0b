#!/bin/bash
# GPU run 104 (issue 18): the tree as committed (5888794, gpu/t104) against 1984f68 (gpu/t99, whose
# experiment switches are off by default): registers; every app under chaos with a quarter-taking
# task, the components example under chaos, coop-chaos; times, medians of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc104; mkdir -p $T/x; date -u > $T/x/machine104.txt; nvidia-smi -L >> $T/x/machine104.txt 2>&1
for app in bfs sssp sssp-bf color mis; do for v in t99 t104; do d=$T/d-$app-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"; done
done; done | tee $T/x/registers.txt
for app in bfs sssp sssp-bf color mis; do for seed in 4 5 6; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/t104/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
for sd in 5 6 7; do timeout 60 gpu/t104/bin/components --nodes 200000 --edges 150000 --seed $sd --chaos $sd > $T/x/components-$sd.txt 2>&1
  echo "components seed $sd rc=$?: $(tail -1 $T/x/components-$sd.txt | cut -c1-140)"; done
timeout 200 gpu/t104/bin/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
G=gpu/graphs
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY" "bfs --graph $G/USA-road-FLA.pace16.gr.xz --groups 132|bfs-FLA" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|ssspbf-FLA" "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY" "color --gen rmat:16:16 --groups 528|color-rmat"; do
    IFS="|" read -r cmd name <<< "$c"
    for v in t99 t104; do f=$T/x/$name-$v-$r.txt
      timeout 60 gpu/$v/bin/coop-bench $cmd --mode cooperative --repeat 10 > $f 2>&1
      echo "$name $v r$r: $(grep -E '^time median' $f | cut -c13-26) $(grep -oE 'groups [0-9]+ co-resident' $f)"
    done
  done
done
tar -cf $OUT/run104.tar -C $T x
