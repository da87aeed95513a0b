#!/bin/bash
# GPU run 148: scripts/overhead --sweep --repeat 3 on gpu/r146 again (run 147's spread).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc148; mkdir -p $T/x; date -u > $T/x/machine148.txt; nvidia-smi -L >> $T/x/machine148.txt 2>&1
t0=$(date +%s)
for v in r146; do
  timeout 280 /usr/bin/python3 scripts/overhead --bench gpu/$v/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep-$v > $T/x/sweep-$v.log 2>&1
  echo "$v sweep rc=$? $(( $(date +%s) - t0 )) s: $(grep -i 'best against best' $T/x/sweep-$v/overhead.md) | $(grep -E '^\| all ' $T/x/sweep-$v/overhead.md)"
done
gzip $T/x/sweep-*/overhead-runs.csv 2>/dev/null
tar -cf $OUT/run148.tar -C $T x
