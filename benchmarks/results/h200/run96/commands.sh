#!/bin/bash
# GPU run 96 (review): one predicate per rule in the kernel library (bfs_won, sssp_marked,
# lib/relax.h's relax_through and relax_lower for sssp and sssp-bf, lib/priority.h for colour and
# mis; gpu/t96, the working tree on a3e3e71) against a3e3e71 (gpu/t92's code is 04fc022, the
# same kernels). Registers of every app's megakernel and standalone kernel; chaos with a
# quarter-taking task; times, medians of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc96; mkdir -p $T/x
for app in bfs sssp sssp-bf color mis; do for v in t92 t96; do for mode in cooperative standalone; do d=$T/d-$app-$v-$mode; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode $mode --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v $mode: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"; done
done; done; done | tee $T/x/registers.txt
for app in bfs sssp sssp-bf color mis; do for seed in 1 2; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/t96/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
G=gpu/graphs
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132:bfs-NY" "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396:sssp-FLA" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz:ssspbf-FLA" "color --graph $G/USA-road-FLA.pace16.gr.xz:color-FLA" "mis --graph $G/USA-road-FLA.pace16.gr.xz:mis-FLA" "color --gen rmat:16:16:color-rmat" "sssp --graph $G/soc-Slashdot0902.txt.gz:sssp-slashdot"; do
    cmd=${c%:*}; name=${c##*:}
    for v in t92 t96; do for mode in cooperative standalone; do
      f=$T/x/$name-$mode-$v-$r.txt; timeout 60 gpu/$v/bin/coop-bench $cmd --mode $mode --repeat 10 > $f 2>&1
      echo "$name $mode $v r$r: $(grep -E '^time median' $f | cut -c13-26) $(grep -oE 'groups [0-9]+ co-resident' $f)"
    done; done
  done
done
tar -cf $OUT/run96.tar -C $T x
