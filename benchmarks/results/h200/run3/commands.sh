#!/bin/bash
# GPU run 3 (issue 17, before/after in one sitting): app overhead, the hand-written kernels
# (gpu/before: the tree at 20a8750) against the generated ones (gpu/build: issue17-apps at 74d24ed).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
R=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/machine3.txt
python3 -c 'import matplotlib' >> $R/machine3.txt 2>&1
for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; S=gpu/before/scripts; else B=gpu/build/bin; S=gpu/after-scripts; fi
  mkdir -p $R/overhead-$side
  timeout 285 python3 $S/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $R/overhead-$side > $R/overhead-$side.log 2>&1
  echo "overhead $side rc=$?"; tail -n 15 $R/overhead-$side.log
done
