#!/bin/bash
# GPU run 137: runs 134 and 135 again in the other order, for the sweep's spread: the committed
# programs (COOP_NEAR_IDS 8) first, then the same built with -DCOOP_NEAR_IDS=0.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc137; mkdir -p $T/x; date -u > $T/x/machine137.txt; nvidia-smi -L >> $T/x/machine137.txt 2>&1
t0=$(date +%s)
for v in near8 near0; do o=""; [ $v = near0 ] && o=-DCOOP_NEAR_IDS=0
  COOP_BUILD_OPTIONS="$o" timeout 280 /usr/bin/python3 scripts/overhead --bench gpu/r136/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep-$v > $T/x/sweep-$v.log 2>&1
  echo "$v sweep rc=$? $(( $(date +%s) - t0 )) s: $(grep -i 'best against best' $T/x/sweep-$v/overhead.md) | $(grep -E '^\| all ' $T/x/sweep-$v/overhead.md)"
done
tar -cf $OUT/run137.tar -C $T x
