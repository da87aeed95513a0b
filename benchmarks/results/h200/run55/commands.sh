#!/bin/bash
# GPU run 55 (issue 18): where sssp's and sssp-bf's megakernels lose 0.4-0.7 us per round against
# their standalone kernels at equal group counts. gpu/x2: 0e4cb4a plus an experiment switch,
# COOP_EXP_PLAIN: the generated resizing barrier becomes the plain global barrier (no kills or
# forks: measuring only, no task). Standalone, cooperative and cooperative-plain, alternating,
# medians of 10; registers.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc55; mkdir -p $T/x; date -u > $T/x/machine55.txt; nvidia-smi -L >> $T/x/machine55.txt 2>&1
B=gpu/x2/bin
for app in sssp sssp-bf bfs; do d=$T/x/dump-$app; mkdir -p $d
  COOP_BUILD_OPTIONS=-DCOOP_EXP_PLAIN COOP_BUILD_DUMP=$d $B/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app plain $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for r in 1 2; do
  for app in sssp sssp-bf bfs; do
    g=$([ $app = bfs ] && echo 132 || echo 264)
    for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000; do
      if [ ${in#*:} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
      for v in standalone cooperative plain; do
        mode=$([ $v = standalone ] && echo standalone || echo cooperative)
        o=$([ $v = plain ] && echo -DCOOP_EXP_PLAIN)
        f=$T/x/$app-${in%%.*}-$g-$v-$r.txt
        COOP_BUILD_OPTIONS="$o" timeout 60 $B/coop-bench $app --mode $mode $src --groups $g --repeat 10 > $f 2>&1
        echo "$app ${in%%.*} $g $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) rounds $(grep -oE 'rounds [0-9]+' $f | head -1)"
      done
    done
  done
done
tar -cf $OUT/run55.tar -C $T x
