#!/bin/bash
# GPU run 112: a (a4554ba), g (dddf647) and h (dddf647 with a4554ba's byte-wise transmit copy, so
# only expand_chunk_size's change): sched-bench's gather (run 111 found g's longer), registers,
# the sweeps at fixed counts; alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc112; mkdir -p $T/x; date -u > $T/x/machine112.txt; nvidia-smi -L >> $T/x/machine112.txt 2>&1
t0=$(date +%s); G=gpu/graphs
for app in sssp-bf mis sssp color; do for v in h; do for m in cooperative standalone; do d=$T/d-$app-$v-$m; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r112/coop-bench-$v $app --mode $m --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v $m: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-70)"; done
done; done; done | tee $T/x/registers.txt
for r in 1 2 3 4; do for v in a g h; do f=$T/x/sched-$v-$r.txt
  timeout 60 gpu/r112/sched-bench-$v --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g')"
done; done
for r in 1 2; do
  for c in "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528|ssspbf-NY" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|ssspbf-FLA" \
           "mis --graph $G/USA-road-FLA.pace16.gr.xz --groups 792|mis-FLA" "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396|sssp-FLA"; do
    IFS="|" read -r cmd name <<< "$c"; line="$name r$r"
    for v in a g h; do f=$T/x/$name-$v-$r.txt
      timeout 60 gpu/r112/coop-bench-$v $cmd --mode cooperative --repeat 10 > $f 2>&1
      line="$line | $v $(grep -E '^time median' $f | cut -c13-19) $(grep -oE 'groups [0-9]+ co-resident' $f | cut -d' ' -f2)"
    done; echo "$line"
  done
done
echo "all done $(( $(date +%s) - t0 )) s"
tar -cf $OUT/run112.tar -C $T x
