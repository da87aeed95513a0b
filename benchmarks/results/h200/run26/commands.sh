#!/bin/bash
# GPU run 26 (issue 21): why road graphs are slower with lib/expand.h: variants by build option.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc26; mkdir -p $T/x; date -u > $T/x/machine26.txt
V0=""; V1="-DEXPAND_ALONE=0xffffffffu"; V2="-DEXPAND_ALONE=0xffffffffu -DEXPAND_NO_SYNC"; V3="-DEXPAND_FIXED_CHUNK"
for r in 1 2; do for app in bfs sssp; do for g in NY FLA; do for v in base 0 1 2 3; do
  if [ $v = base ]; then B=gpu/base/build/bin; opt=""; else B=gpu/build/bin; eval opt=\$V$v; fi
  COOP_BUILD_OPTIONS="$opt" $B/coop-bench $app --mode standalone --graph gpu/graphs/USA-road-$g.pace16.gr.xz --repeat 5 > $T/x/$app-$g-$v-$r.txt 2>&1
  echo "$app $g v$v r$r rc=$?: $(grep -E 'median' $T/x/$app-$g-$v-$r.txt | cut -c1-40) $(grep -E '^groups' $T/x/$app-$g-$v-$r.txt | cut -c1-40)"
done; done; done; done
tar -cf $OUT/run26.tar -C $T x
