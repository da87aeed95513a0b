#!/bin/bash
# GPU run 14 (issue 18): scripts/overhead --sweep --repeat 3: each persistent form at every
# multiple of the 132 SMs (median of 3 runs each), generated kernels at 491fbdd (color predicated).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc14; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $T/x/machine14.txt
t0=$(date +%s)
timeout 580 python3 scripts/overhead --bench gpu/build/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/overhead-sweep > $T/x/overhead-sweep.log 2>&1
echo "overhead sweep rc=$? $(( $(date +%s) - t0 )) s"; tail -n 7 $T/x/overhead-sweep.log; grep "Best against best" $T/x/overhead-sweep/overhead.md
tar -cf $OUT/run14.tar -C $T x
