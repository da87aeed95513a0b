#!/bin/bash
# GPU run 20 (issue 17): sssp-bf's standalone kernel as each tree builds it (PTX, registers, SASS),
# and its time on USA-road-FLA, both trees alternately.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
export PATH="$PATH:/usr/local/cuda/bin"
T=/tmp/tc20; mkdir -p $T/x
for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  mkdir -p $T/x/$side
  COOP_BUILD_DUMP=$T/x/$side $B/coop-bench sssp-bf --mode standalone --gen grid:20:20 > $T/x/$side-dump.txt 2>&1
  for f in $T/x/$side/*.bin; do
    p=${f%.bin}.ptx; tr -d '\000' < $f > $p; rm -f $f
    ptxas -v -arch=sm_90 $p -o ${f%.bin}.cubin > ${f%.bin}.ptxas.txt 2>&1
    grep -E "entry|registers" ${f%.bin}.ptxas.txt | sed "s|^|$side $(basename $f): |"
    cuobjdump -sass ${f%.bin}.cubin > ${f%.bin}.sass 2>/dev/null; rm -f ${f%.bin}.cubin
  done
done
for r in 1 2 3; do for side in before after; do
  if [ $side = before ]; then B=gpu/before/build/bin; else B=gpu/build/bin; fi
  $B/coop-bench sssp-bf --mode standalone --graph gpu/graphs/USA-road-FLA.pace16.gr.xz --repeat 5 --json $T/x/fla-$side-$r.json > $T/x/fla-$side-$r.txt 2>&1
  echo "$side r$r rc=$?: $(grep -iE 'median|time' $T/x/fla-$side-$r.txt | head -2 | tr '\n' ' ')"
done; done
tar -cJf $OUT/run20.tar.xz -C $T x
