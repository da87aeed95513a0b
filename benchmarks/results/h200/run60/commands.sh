#!/bin/bash
# GPU run 60 (issue 18): which part of the resizing barrier costs the slowest group 0.2 us of work
# a round (run 59: the barrier itself, last arrival to first leave, is the same as the plain one's).
# gpu/q: 889ddb4 plus experiment switches (gpu/exp60.patch, measuring only, no task): PLAIN (the
# plain barrier), NOCOLD (the resizing barrier without its decision, commit and fork branches),
# NOCOLD+NOREADS (also without group 0's kill/idle reads), INLINE (COOP_NV_INLINE=1). Medians of 10,
# alternating; registers.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc60; mkdir -p $T/x; date -u > $T/x/machine60.txt; nvidia-smi -L >> $T/x/machine60.txt 2>&1
B=gpu/q/bin
opt() { case $1 in res|standalone) echo "";; plain) echo -DCOOP_EXP_PLAIN;; nocold) echo -DCOOP_EXP_NOCOLD;; noreads) echo "-DCOOP_EXP_NOCOLD -DCOOP_EXP_NOREADS";; inline) echo -DCOOP_NV_INLINE=1;; esac; }
src() { if [ ${1#grid} != $1 ]; then echo "--gen $1"; else echo "--graph gpu/graphs/$1"; fi; }
for app in bfs sssp-bf; do for v in res plain nocold noreads inline; do d=$T/x/dump-$app-$v; mkdir -p $d
  COOP_BUILD_OPTIONS="$(opt $v)" COOP_BUILD_DUMP=$d $B/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v: $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-100)"; done
  [ $app = bfs ] && cp $d/*.ptx $T/x/bfs-$v.ptx
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for r in 1 2; do
  for spec in "bfs USA-road-NY.pace16.gr.xz 132" "bfs USA-road-FLA.pace16.gr.xz 132" "bfs grid:1000:1000 132" "sssp-bf USA-road-NY.pace16.gr.xz 528" "sssp-bf USA-road-FLA.pace16.gr.xz 528" "sssp-bf USA-road-FLA.pace16.gr.xz all"; do
    set -- $spec; app=$1 in=$2 g=$3; ga=$([ $g = all ] || echo "--groups $g")
    for v in standalone res plain nocold noreads inline; do
      mode=$([ $v = standalone ] && echo standalone || echo cooperative)
      f=$T/x/$app-${in%%.*}-$g-$v-$r.txt
      COOP_BUILD_OPTIONS="$(opt $v)" timeout 60 $B/coop-bench $app --mode $mode $(src $in) $ga --repeat 10 > $f 2>&1
      echo "$app ${in%%.*} $g $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-24) $(grep -E '^groups' $f | cut -c1-30)"
    done
  done
done
cd $T && xz -9 x/*.ptx && tar -cf $OUT/run60.tar x && ls -la $OUT
