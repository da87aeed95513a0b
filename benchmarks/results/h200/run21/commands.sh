#!/bin/bash
# GPU run 21 (issue 17): does building sssp-bf's standalone form in its megakernel's program (as
# the hand-written tree did) bring back its time on USA-road-FLA? before (gpu/before), after
# (gpu/build), combo (gpu/combo: after, with the standalone kernel appended to the megakernel's
# source, one program), alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
export PATH="$PATH:/usr/local/cuda/bin"
T=/tmp/tc21; mkdir -p $T/x/combo
COOP_BUILD_DUMP=$T/x/combo gpu/combo/build/bin/coop-bench sssp-bf --mode standalone --gen grid:20:20 > $T/x/combo-dump.txt 2>&1
for f in $T/x/combo/*.bin; do p=${f%.bin}.ptx; tr -d '\000' < $f > $p; rm -f $f
  ptxas -v -arch=sm_90 $p -o ${f%.bin}.cubin > ${f%.bin}.ptxas.txt 2>&1; grep -E "entry|registers" ${f%.bin}.ptxas.txt
  cuobjdump -sass ${f%.bin}.cubin > ${f%.bin}.sass 2>/dev/null; rm -f ${f%.bin}.cubin; done
for r in 1 2 3; do for side in before after combo; do
  case $side in before) B=gpu/before/build/bin;; after) B=gpu/build/bin;; combo) B=gpu/combo/build/bin;; esac
  for g in FLA NY; do
  $B/coop-bench sssp-bf --mode standalone --graph gpu/graphs/USA-road-$g.pace16.gr.xz --repeat 5 > $T/x/$g-$side-$r.txt 2>&1
  echo "$g $side r$r rc=$?: $(grep -E 'median' $T/x/$g-$side-$r.txt | head -1)"
  done
done; done
tar -cJf $OUT/run21.tar.xz -C $T x
