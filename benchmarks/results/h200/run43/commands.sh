#!/bin/bash
# GPU run 43 (issue 21's worst overheads, issue 18's question): the megakernels of colour and sssp-bf
# built for fewer registers (COOP_BUILD_OPTIONS=-cl-nv-maxrregcount=N: colour 40, sssp-bf 32) against
# the default build, b510617 (gpu/final); the standalone form as the reference; alternating three
# times, medians of 10.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc43; mkdir -p $T/x; date -u > $T/x/machine43.txt; nvidia-smi -L >> $T/x/machine43.txt 2>&1
B=gpu/final/bin
for r in 1 2 3; do
for job in "color USA-road-NY.pace16.gr.xz 40" "color rmat:16:16 40" "color email-Enron.txt.gz 40" "sssp-bf USA-road-NY.pace16.gr.xz 32" "sssp-bf USA-road-FLA.pace16.gr.xz 32"; do
  set -- $job; app=$1; in=$2; regs=$3
  if [ ${in#rmat} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for v in standalone cooperative capped; do
    mode=$([ $v = standalone ] && echo standalone || echo cooperative)
    opt=$([ $v = capped ] && echo -cl-nv-maxrregcount=$regs)
    f=$T/x/$app-${in%%.*}-$v-$r.txt
    COOP_BUILD_OPTIONS="$opt" timeout 60 $B/coop-bench $app --mode $mode $src --repeat 10 > $f 2>&1
    echo "$app ${in%%.*} $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-34)"
  done
done; done
tar -cf $OUT/run43.tar -C $T x
