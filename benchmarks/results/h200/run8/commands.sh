#!/bin/bash
# GPU run 8: scripts/overhead for this tree (e95f07f; run 7 has the tree before trace mode), and
# sssp's generated megakernel on grid:1000:1000 and USA-road-NY over member counts (issue 17/18).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
R=$OUT; T=/tmp/tc8; mkdir -p $T/x
date -u > $T/x/machine8.txt
t0=$(date +%s)
timeout 285 python3 scripts/overhead --bench gpu/build/bin/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-after > $T/x/overhead-after.log 2>&1
echo "overhead after rc=$? $(( $(date +%s) - t0 )) s"; tail -n 6 $T/x/overhead-after.log
for g in 131 263 395 527 659 791; do for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  for mode in cooperative standalone; do
    $B/coop-bench sssp --gen grid:1000:1000 --mode $mode --groups $g --repeat 5 > /tmp/o.txt 2>&1
    echo "$side sssp grid $mode --groups $g rc=$?: $(grep -E '^groups' /tmp/o.txt | cut -d';' -f1); $(grep -iE 'median' /tmp/o.txt | cut -d';' -f1)"
  done
done; done | tee $T/x/sssp-groups.txt
tar -cf $R/run8.tar -C $T x
