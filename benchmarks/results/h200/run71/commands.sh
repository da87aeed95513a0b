#!/bin/bash
# GPU run 71: the tutorial's components program (resizing_global_barrier_any, regenerated after
# ba04413) under chaos seeds 1-12 with its periodic task, 0675f75's build (gpu/h).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc71; mkdir -p $T/x
for s in $(seq 1 12); do
  timeout 60 gpu/h/bin/components --nodes 200000 --edges 150000 --seed $s --chaos $s > $T/x/components-$s.txt 2>&1
  echo "seed $s rc=$?: $(tail -1 $T/x/components-$s.txt | cut -c1-160)"
done
cd $T && tar -cf $OUT/run71.tar x
