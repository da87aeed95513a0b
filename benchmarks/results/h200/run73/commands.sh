#!/bin/bash
# GPU run 73: run 72's traced sssp-bf under chaos with a task timed out (120 s); the same on 889ddb4
# (gpu/m) and 0675f75 (gpu/h), traced and not, one run each, 150 s limit.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc73; mkdir -p $T/x
for v in m h; do for t in trace plain; do
  o=$([ $t = trace ] && echo "--trace $T/x/t-$v.json")
  s=$(date +%s)
  timeout 150 gpu/$v/bin/coop-bench sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos 1 --repeat 1 $o > $T/x/sssp-bf-$v-$t.txt 2>&1
  echo "$v $t rc=$? $(( $(date +%s) - s )) s: $(grep -E '^time median' $T/x/sssp-bf-$v-$t.txt | cut -c1-40) | $(grep -E '^kills' $T/x/sssp-bf-$v-$t.txt | cut -c1-50) | $(grep -E '^check' $T/x/sssp-bf-$v-$t.txt | cut -c1-60) $(grep -iE 'error|progress' $T/x/sssp-bf-$v-$t.txt | head -2 | cut -c1-200)"
done; done
rm -f $T/x/*.json
cd $T && tar -cf $OUT/run73.tar x
