#!/bin/bash
# GPU run 108 (issues 18, 21): scripts/overhead --sweep --repeat 3 on the working tree after
# a4554ba (run 107's g with its comments: gpu/r108/coop-bench), and its registers.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc108; mkdir -p $T/x; date -u > $T/x/machine108.txt; nvidia-smi -L >> $T/x/machine108.txt 2>&1
t0=$(date +%s)
for app in bfs sssp sssp-bf color mis; do for m in cooperative standalone; do d=$T/d-$app-$m; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r108/coop-bench $app --mode $m --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $m: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-70)"; done
done; done | tee $T/x/registers.txt
timeout 540 /usr/bin/python3 scripts/overhead --bench gpu/r108/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep > $T/x/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep.log; grep -i "best against best" $T/x/sweep/overhead.md
tar -cf $OUT/run108.tar -C $T x
