#!/bin/bash
# GPU run 40 (issue 21): scripts/scaling on the R-MAT graphs (scales 14 to 22, edge factor 16) with the
# expansion as committed (gpu/final); the grids are run 39's.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc40; mkdir -p $T/x; date -u > $T/x/machine40.txt; nvidia-smi -L >> $T/x/machine40.txt 2>&1
t0=$(date +%s)
timeout 560 /usr/bin/python3 scripts/scaling --bench gpu/final/bin/coop-bench --repeat 3 --out $T/x/scaling-rmat \
  --inputs rmat:14:16,rmat:16:16,rmat:18:16,rmat:20:16,rmat:22:16 > $T/x/scaling-rmat.log 2>&1
echo "scaling rmat rc=$? $(( $(date +%s) - t0 )) s"; tail -2 $T/x/scaling-rmat.log
tar -cf $OUT/run40.tar -C $T x
