#!/bin/bash
# GPU run 69 (issues 18, 21): scripts/overhead --sweep on 889ddb4 (gpu/m, before) and 0675f75 (gpu/h:
# the resizing barrier's slow paths out of line, no deeper call chains), one after the other.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc69; mkdir -p $T/x; date -u > $T/x/machine69.txt; nvidia-smi -L >> $T/x/machine69.txt 2>&1
for v in m h; do
  t0=$(date +%s)
  timeout 280 /usr/bin/python3 scripts/overhead --bench gpu/$v/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep-$v > $T/x/sweep-$v.log 2>&1
  echo "sweep $v rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep-$v.log; grep -i "best against best" $T/x/sweep-$v/overhead.md
done
tar -cf $OUT/run69.tar -C $T x
