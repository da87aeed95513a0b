#!/bin/bash
# GPU run 42 (issue 21): colour's shared pass out of line on NVIDIA (EXPAND_COLD, gpu/cold) against
# inlined as in b510617 (the same build with -DEXPAND_NV_INLINE), and 0617bdd (gpu/base): registers
# (ptxas -v), then colour standalone and cooperative on USA-road-NY, email-Enron and rmat:16:16,
# alternating three times, medians of 10.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc42; mkdir -p $T/x; date -u > $T/x/machine42.txt; nvidia-smi -L >> $T/x/machine42.txt 2>&1
for v in cold inline; do d=$T/x/dump-$v; mkdir -p $d
  opt=$([ $v = inline ] && echo -DEXPAND_NV_INLINE)
  COOP_BUILD_OPTIONS="$opt" COOP_BUILD_DUMP=$d gpu/cold/bin/coop-bench color --mode standalone --gen rmat:12:8 > /dev/null 2>&1
  COOP_BUILD_OPTIONS="$opt" COOP_BUILD_DUMP=$d gpu/cold/bin/coop-bench color --mode cooperative --gen rmat:12:8 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers|spill' | tr '\n' ' ' | sed 's/ptxas info *: //g' | cut -c1-400)"; done
  rm -rf $d
done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for r in 1 2 3; do
for in in USA-road-NY.pace16.gr.xz email-Enron.txt.gz rmat:16:16; do
  if [ ${in#rmat} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for mode in standalone cooperative; do for v in base inline cold; do
    if [ $v = base ]; then B=gpu/base/build/bin; else B=gpu/cold/bin; fi
    f=$T/x/color-${in%%.*}-$mode-$v-$r.txt
    COOP_BUILD_OPTIONS="$([ $v = inline ] && echo -DEXPAND_NV_INLINE)" timeout 60 $B/coop-bench color --mode $mode $src --repeat 10 > $f 2>&1
    echo "color ${in%%.*} $mode $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-34)"
  done; done
done; done
tar -cf $OUT/run42.tar -C $T x
