#!/bin/bash
# GPU run 44 (issue 18 after issue 21): scripts/overhead --sweep --repeat 3 on b510617's kernels
# (gpu/final): each persistent form at every multiple of the 132 SMs, best against best.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc44; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $T/x/machine44.txt
t0=$(date +%s)
timeout 560 /usr/bin/python3 scripts/overhead --bench gpu/final/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/overhead-sweep > $T/x/overhead-sweep.log 2>&1
echo "overhead sweep rc=$? $(( $(date +%s) - t0 )) s"; tail -n 8 $T/x/overhead-sweep.log; grep -i "best against best" $T/x/overhead-sweep/overhead.md
tar -cf $OUT/run44.tar -C $T x
