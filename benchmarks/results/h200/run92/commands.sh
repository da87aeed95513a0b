#!/bin/bash
# GPU run 92 (issues 18, 21), EXPERIMENT: the context's fields parked in local memory between
# resizing barriers (COOP_EXP_PARK_CTX=1, a switch in the working tree, default off) against the
# tree as built (gpu/t92, 04fc022 + the switch). Registers of the megakernels; times, medians of
# 10, two alternations; chaos with a quarter-taking task.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc92; mkdir -p $T/x; date -u > $T/x/machine92.txt
B=gpu/t92/bin/coop-bench; P="-DCOOP_EXP_PARK_CTX=1"
for app in bfs sssp color mis sssp-bf; do for v in off on; do d=$T/d-$app-$v; mkdir -p $d
  o=""; [ $v = on ] && o="$P"
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d $B $app --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-70)"; done
done; done | tee $T/x/registers.txt
for app in sssp-bf bfs mis color; do for seed in 1 2 3; do f=$T/x/chaos-$app-$seed.txt
  COOP_BUILD_OPTIONS="$P" timeout 60 $B $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
G=gpu/graphs
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132:bfs-NY" "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396:sssp-FLA" "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528:ssspbf-NY" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz:ssspbf-FLA" "color --graph $G/USA-road-FLA.pace16.gr.xz:color-FLA" "mis --graph $G/USA-road-FLA.pace16.gr.xz:mis-FLA" "color --gen rmat:16:16:color-rmat"; do
    cmd=${c%:*}; name=${c##*:}
    for v in off on; do o=""; [ $v = on ] && o="$P"
      f=$T/x/$name-$v-$r.txt; COOP_BUILD_OPTIONS="$o" timeout 60 $B $cmd --repeat 10 > $f 2>&1
      echo "$name $v r$r: $(grep -E '^time median' $f | cut -c13-60) $(grep -oE 'groups [0-9]+ co-resident' $f)"
    done
  done
done
tar -cf $OUT/run92.tar -C $T x
