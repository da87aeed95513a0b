#!/bin/bash
# GPU run 90 (issues 18, 21): scripts/overhead --sweep --repeat 3 on gpu/$1 (t86p: 9dc16d8 with
# the standalone wait polled without a pause; t89: the working tree).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc90; mkdir -p $T/x; date -u > $T/x/machine-$1.txt; nvidia-smi -L >> $T/x/machine-$1.txt 2>&1
t0=$(date +%s)
timeout 560 /usr/bin/python3 scripts/overhead --bench gpu/$1/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep-$1 > $T/x/sweep-$1.log 2>&1
echo "sweep $1 rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep-$1.log; grep -i "best against best" $T/x/sweep-$1/overhead.md
tar -cf $OUT/run90-$1.tar -C $T x
