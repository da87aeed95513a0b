#!/bin/bash
# GPU run 53 (issues 18 and 21): sssp's megakernel (48 registers, 659 members) against its
# standalone kernel (40, 792 groups) on the rows that miss: built as it is and capped at 40
# registers (COOP_BUILD_OPTIONS=-cl-nv-maxrregcount=40), and sssp-bf's capped at 32; 801beee
# (gpu/ab), two alternations, medians of 10, every co-resident group.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc53; mkdir -p $T/x; date -u > $T/x/machine53.txt; nvidia-smi -L >> $T/x/machine53.txt 2>&1
B=gpu/ab/bin
for r in 1 2; do
  for app in sssp sssp-bf; do
    cap=$([ $app = sssp ] && echo 40 || echo 32)
    for in in rmat:16:16 USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000 email-Enron.txt.gz; do
      if [ ${in#*:} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
      for v in standalone cooperative capped; do
        mode=$([ $v = standalone ] && echo standalone || echo cooperative)
        o=$([ $v = capped ] && echo -cl-nv-maxrregcount=$cap)
        f=$T/x/$app-${in%%.*}-$v-$r.txt
        COOP_BUILD_OPTIONS="$o" timeout 60 $B/coop-bench $app --mode $mode $src --repeat 10 > $f 2>&1
        echo "$app ${in%%.*} $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-40)"
      done
    done
  done
done
tar -cf $OUT/run53.tar -C $T x
