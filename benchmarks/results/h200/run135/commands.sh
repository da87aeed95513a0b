#!/bin/bash
# GPU run 135: run 134's sweep again with the ids of before (the same programs built with
# -DCOOP_NEAR_IDS=0 through COOP_BUILD_OPTIONS, both forms: ids against arrival order all through),
# for a before/after pair within one session.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc135; mkdir -p $T/x; date -u > $T/x/machine135.txt; nvidia-smi -L >> $T/x/machine135.txt 2>&1
t0=$(date +%s)
COOP_BUILD_OPTIONS=-DCOOP_NEAR_IDS=0 timeout 420 /usr/bin/python3 scripts/overhead --bench gpu/r134/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep > $T/x/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep.log | tail -3; grep -i "best against best" $T/x/sweep/overhead.md; grep -E "^\| all " $T/x/sweep/overhead.md
tar -cf $OUT/run135.tar -C $T x
