#!/bin/bash
# GPU run 65 (issues 18, 21): scripts/overhead --sweep on 889ddb4 (gpu/m, before) and 400a468 (gpu/e:
# the resizing barrier's slow paths out of line), one after the other in one run.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc65; mkdir -p $T/x; date -u > $T/x/machine65.txt; nvidia-smi -L >> $T/x/machine65.txt 2>&1
for v in m e; do
  t0=$(date +%s)
  timeout 280 /usr/bin/python3 scripts/overhead --bench gpu/$v/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep-$v > $T/x/sweep-$v.log 2>&1
  echo "sweep $v rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep-$v.log; grep -i "best against best" $T/x/sweep-$v/overhead.md
done
tar -cf $OUT/run65.tar -C $T x
