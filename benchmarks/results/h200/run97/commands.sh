#!/bin/bash
# GPU run 97 (issue 18): the SASS of 0675f75's sssp_bf_matmult_mega as built (failing), with run
# 93's EXP_LATE (failing) and with run 94's EXP_EARLY added (right), to compare around the final
# workgroup barrier and the count's load. gpu/b95/coop-bench-late = 0675f75 + run95's patch.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc97; mkdir -p $T/x
for v in plain late early; do d=$T/d-$v; mkdir -p $d
  o=""; [ $v = late ] && o="-DEXP_LATE"; [ $v = early ] && o="-DEXP_LATE -DEXP_EARLY"
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d timeout 60 gpu/b95/coop-bench-late sssp-bf --gen grid:30:30 --task light --period-ms 5 > $T/x/run-$v.txt 2>&1
  ls $d >> $T/x/run-$v.txt
  for f in $d/*.bin; do n=$(basename $f .bin); tr -d '\000' < $f > $d/$n.ptx
    if grep -q ".entry sssp_bf_mega" $d/$n.ptx; then ptxas -arch=sm_90 $d/$n.ptx -o $d/$n.cubin && cuobjdump -sass $d/$n.cubin | gzip > $T/x/$v-sssp_bf_matmult_mega.sass.gz; gzip -c $d/$n.ptx > $T/x/$v-sssp_bf_matmult_mega.ptx.gz; cuobjdump -res-usage $d/$n.cubin | grep -A1 Function >> $T/x/registers.txt; fi
  done
done
ls -la $T/x
cd $T && tar -cf $OUT/run97.tar x
