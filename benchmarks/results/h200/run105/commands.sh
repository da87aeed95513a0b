#!/bin/bash
# GPU run 105 (issue 18): t105a (HEAD a4554ba), t105b (+ expand_chunk_size returns a whole chunk
# without dividing when the round has at least a whole chunk per group), t105c (b + transmit state
# staged and restored a word at a time), d (c built with -cl-nv-maxrregcount=40): registers, chaos,
# cooperative times at fixed counts (standalone a for reference), medians of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc105; mkdir -p $T/x; date -u > $T/x/machine105.txt; nvidia-smi -L >> $T/x/machine105.txt 2>&1
t0=$(date +%s)
for app in bfs sssp sssp-bf color mis; do for v in t105a t105b t105c; do for m in cooperative standalone; do d=$T/d-$app-$v-$m; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r105/coop-bench-${v#t105} $app --mode $m --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v $m: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-70)"; done
done; done; done | tee $T/x/registers.txt
echo "registers done $(( $(date +%s) - t0 )) s"
for app in bfs sssp sssp-bf color mis; do for seed in 7 8; do f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/r105/coop-bench-c $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
echo "chaos done $(( $(date +%s) - t0 )) s"
G=gpu/graphs
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY" "bfs --graph $G/USA-road-FLA.pace16.gr.xz --groups 132|bfs-FLA" \
           "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528|ssspbf-NY" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|ssspbf-FLA" \
           "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY" "mis --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|mis-FLA" \
           "color --graph $G/USA-road-NY.pace16.gr.xz --groups 528|color-NY" "color --gen grid:1000:1000 --groups 660|color-grid" \
           "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396|sssp-FLA"; do
    IFS="|" read -r cmd name <<< "$c"
    f=$T/x/$name-standalone-$r.txt; timeout 60 gpu/r105/coop-bench-a $cmd --mode standalone --repeat 10 > $f 2>&1
    line="$name r$r st $(grep -E '^time median' $f | cut -c13-26)"
    for v in t105a t105b t105c d; do
      b=$v; o=; [ $v = d ] && { b=t105c; o=-cl-nv-maxrregcount=40; case $name in color*|sssp-FLA) continue;; esac; }
      f=$T/x/$name-$v-$r.txt
      COOP_BUILD_OPTIONS=$o timeout 60 gpu/r105/coop-bench-${b#t105} $cmd --mode cooperative --repeat 10 > $f 2>&1
      line="$line | $v $(grep -E '^time median' $f | cut -c13-26) $(grep -oE 'groups [0-9]+ co-resident' $f | cut -d' ' -f2)"
    done; echo "$line"
  done
  echo "alternation $r done $(( $(date +%s) - t0 )) s"
done
tar -cf $OUT/run105.tar -C $T x
