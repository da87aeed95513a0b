#!/bin/bash
# GPU run 18 (issue 17): sched-bench's unit loops as each tree builds them (PTX, registers, SASS).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
export PATH="$PATH:/usr/local/cuda/bin"
T=/tmp/tc18; mkdir -p $T/x
for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  mkdir -p $T/x/$side
  COOP_BUILD_DUMP=$T/x/$side $B/sched-bench --quick --repeat 1 > $T/x/$side.txt 2>&1
  grep -E "^units|^rounds" $T/x/$side.txt
  for f in $T/x/$side/*.bin; do
    p=${f%.bin}.ptx; tr -d '\000' < $f > $p; rm -f $f
    ptxas -v -arch=sm_90 $p -o ${f%.bin}.cubin > ${f%.bin}.ptxas.txt 2>&1
    grep -E "entry|registers" ${f%.bin}.ptxas.txt | sed "s|^|$side $(basename $f): |"
    cuobjdump -sass ${f%.bin}.cubin > ${f%.bin}.sass 2>/dev/null; rm -f ${f%.bin}.cubin
  done
done
tar -cJf $OUT/run18.tar.xz -C $T x
