#!/bin/bash
# GPU run 13 (issue 18): color's sweep without branches (gpu/build) against c8c2d44 (gpu/colorA),
# alternating, both forms at 396 groups and at their defaults, power-law inputs and USA-road-NY.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
export PATH="$PATH:/usr/local/cuda/bin"
for r in 1 2; do for side in A B; do
  if [ $side = A ]; then B=gpu/colorA/bin; else B=gpu/build/bin; fi
  for in in "--graph gpu/graphs/email-Enron.txt.gz" "--graph gpu/graphs/soc-Slashdot0902.txt.gz" "--gen rmat:16:16" "--graph gpu/graphs/USA-road-NY.pace16.gr.xz"; do
    for mode in standalone cooperative; do
      $B/coop-bench color $in --mode $mode --groups 396 --repeat 5 > /tmp/o.txt 2>&1
      echo "$side r$r color ${in##*/} $mode 396 rc=$?: $(grep -iE 'median' /tmp/o.txt | cut -d';' -f1)"
    done
  done
done; done
mkdir -p /tmp/d && COOP_BUILD_DUMP=/tmp/d gpu/build/bin/coop-bench color --gen rmat:12:8 --repeat 1 > /dev/null 2>&1
tr -d '\000' < /tmp/d/program-0.bin > /tmp/d/p.ptx; ptxas -v -arch=sm_90 /tmp/d/p.ptx -o /tmp/d/p.cubin 2>&1 | grep -E "registers|spill" | head -2
cuobjdump -sass /tmp/d/p.cubin | grep -c "BSSY" ; cuobjdump -sass /tmp/d/p.cubin > $OUT/color_mega_after.sass
