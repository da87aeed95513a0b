#!/bin/bash
# GPU run 106 (issue 18): a (HEAD a4554ba), c (run 105's t105c: expand_chunk_size returns a whole
# chunk without dividing when the round has one per group, and the transmit state staged a word at
# a time), e (a + the word-wise transmit only), f (e + expand_chunk_size by a float reciprocal, no
# branch, no integer division): registers, chaos, times at fixed counts in both forms, medians of
# 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc106; mkdir -p $T/x; date -u > $T/x/machine106.txt; nvidia-smi -L >> $T/x/machine106.txt 2>&1
t0=$(date +%s)
for app in bfs sssp sssp-bf color mis; do for v in a c e f; do for m in cooperative standalone; do d=$T/d-$app-$v-$m; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r106/coop-bench-$v $app --mode $m --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v $m: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-70)"; done
done; done; done | tee $T/x/registers.txt
echo "registers done $(( $(date +%s) - t0 )) s"
for v in e f; do for app in bfs sssp sssp-bf color mis; do for seed in 9; do f=$T/x/chaos-$v-$app-$seed.txt
  timeout 60 gpu/r106/coop-bench-$v $app --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos $v $app $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done; done
echo "chaos done $(( $(date +%s) - t0 )) s"
G=gpu/graphs
for r in 1 2; do
  for c in "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528|ssspbf-NY" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|ssspbf-FLA" \
           "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 924|ssspbf-FLA924" "sssp-bf --gen grid:1000:1000 --groups 792|ssspbf-grid" \
           "mis --graph $G/USA-road-NY.pace16.gr.xz --groups 528|mis-NY" "mis --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|mis-FLA" \
           "color --graph $G/USA-road-NY.pace16.gr.xz --groups 528|color-NY" "color --gen grid:1000:1000 --groups 660|color-grid" \
           "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396|sssp-FLA" "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132|bfs-NY"; do
    IFS="|" read -r cmd name <<< "$c"
    line="$name r$r"
    for m in standalone cooperative; do for v in a c e f; do
      [ $m = standalone ] && [ $v = e ] && continue
      f=$T/x/$name-$m-$v-$r.txt
      timeout 60 gpu/r106/coop-bench-$v $cmd --mode $m --repeat 10 > $f 2>&1
      line="$line | ${m:0:2} $v $(grep -E '^time median' $f | cut -c13-19) $(grep -oE 'groups [0-9]+ co-resident' $f | cut -d' ' -f2)"
    done; done; echo "$line"
  done
  echo "alternation $r done $(( $(date +%s) - t0 )) s"
done
tar -cf $OUT/run106.tar -C $T x
