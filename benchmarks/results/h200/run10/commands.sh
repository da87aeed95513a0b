#!/bin/bash
# GPU run 10 (issues 17/18): scripts/overhead with --groups auto (each persistent mode at the group
# count coop-bench's calibration picks), generated kernels at f9f36ce.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc10; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $T/x/machine10.txt
t0=$(date +%s)
timeout 560 python3 scripts/overhead --bench gpu/build/bin/coop-bench --graphs gpu/graphs --repeat 3 --groups auto --out $T/x/overhead-auto > $T/x/overhead-auto.log 2>&1
echo "overhead auto rc=$? $(( $(date +%s) - t0 )) s"; tail -n 7 $T/x/overhead-auto.log
tar -cf $OUT/run10.tar -C $T x
