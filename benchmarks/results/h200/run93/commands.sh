#!/bin/bash
# GPU run 93 (issue 18): which group adds to a count after the barrier that closed it, in 0675f75's
# out-of-line barrier? gpu/bis/coop-bench-late = 0675f75 + gpu/exp93.patch: with -DEXP_LATE, after
# its sweep each group's local id 0 checks that barrier epoch + 1 (the one closing the count it
# added to) has not completed; the first violator writes counts[5] = 0xA0000000 | forked << 24 |
# sweeps since (re)start << 16 | id, counts[6] = epoch, counts[7] = round << 12 | role << 8 | M,
# counts[8] counts violations; a work-item leaving the loop on a count that reads non-zero after
# it counts in counts[4] (first: counts[3] = 0xB0000000 | forked << 24 | lid << 12 | id).
# coop-bench prints counts[3..8] after every run's check, right or wrong.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc93; mkdir -p $T/x
for seed in $(seq 1 20); do f=$T/x/late-$seed.txt; s=$(date +%s)
  COOP_BUILD_OPTIONS="-DEXP_LATE" timeout 20 gpu/bis/coop-bench-late sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "seed $seed rc=$rc $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-20)$(grep -E 'nodes differ' $f | head -1 | cut -c1-60) | $(grep EXP $f | tr '\n' ' ')"
done
cd $T && tar -cf $OUT/run93.tar x
