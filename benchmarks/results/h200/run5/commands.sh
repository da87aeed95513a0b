#!/bin/bash
# Does sssp's generated megakernel get its 27 ms back on 659 members? (issue 17's regression)
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
for r in 1 2; do for n in 659 791; do
  gpu/build/bin/coop-bench sssp --gen grid:1000:1000 --mode cooperative --groups $n --repeat 5 > /tmp/o.txt 2>&1
  echo "after r$r sssp grid coop --groups $n rc=$?: $(grep -E '^groups' /tmp/o.txt | cut -d';' -f1); $(grep -iE 'median' /tmp/o.txt | cut -d';' -f1)"
  gpu/build/bin/coop-bench sssp --graph gpu/graphs/USA-road-NY.pace16.gr.xz --mode cooperative --groups $n --repeat 5 > /tmp/o.txt 2>&1
  echo "after r$r sssp NY coop --groups $n rc=$?: $(grep -iE 'median' /tmp/o.txt | cut -d';' -f1)"
done; done
