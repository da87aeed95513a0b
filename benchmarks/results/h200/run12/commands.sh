#!/bin/bash
# GPU run 12 (issue 18): why color's megakernel is slower per round on power-law graphs: the PTX,
# registers, spills and SASS of color's standalone kernel and megakernel (as coop-bench builds
# them), and both timed at 396 groups.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
export PATH="$PATH:/usr/local/cuda/bin"
T=/tmp/tc12; mkdir -p $T/x
B=gpu/build/bin; G=gpu/graphs/email-Enron.txt.gz
for mode in standalone cooperative; do
  mkdir -p $T/x/$mode
  COOP_BUILD_DUMP=$T/x/$mode $B/coop-bench color --graph $G --mode $mode --groups 396 --repeat 5 > $T/x/$mode.txt 2>&1
  echo "$mode rc=$? $(grep -E 'median' $T/x/$mode.txt | cut -d';' -f1)"
  for f in $T/x/$mode/*.bin; do
    p=${f%.bin}.ptx; tr -d '\000' < $f > $p
    ptxas -v -arch=sm_90 $p -o ${f%.bin}.cubin > ${f%.bin}.ptxas.txt 2>&1
    grep -E "entry|registers|spill" ${f%.bin}.ptxas.txt | sed "s|^|$mode $(basename $f): |"
    cuobjdump -sass ${f%.bin}.cubin > ${f%.bin}.sass 2>/dev/null
    rm -f $f ${f%.bin}.cubin
  done
done
tar -cJf $OUT/run12.tar.xz -C $T x
