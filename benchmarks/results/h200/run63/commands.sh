#!/bin/bash
# GPU run 63 (issue 18): the resizing barrier with its slow paths in one out-of-line call (gpu/c: the
# working tree, coop_resize_slow: member 0 deciding, or a flagged barrier) against 889ddb4 as built
# (gpu/q, res), the plain barrier and the barrier without slow paths (gpu/q switches, measuring
# only). Registers; every app under chaos with a task (results checked); medians of 10, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc63; mkdir -p $T/x; date -u > $T/x/machine63.txt; nvidia-smi -L >> $T/x/machine63.txt 2>&1
bin() { case $1 in new) echo gpu/c/bin;; *) echo gpu/q/bin;; esac; }
opt() { case $1 in plain) echo -DCOOP_EXP_PLAIN;; nocold) echo -DCOOP_EXP_NOCOLD;; *) echo "";; esac; }
src() { if [ ${1#grid} != $1 ]; then echo "--gen $1"; else echo "--graph gpu/graphs/$1"; fi; }
for app in bfs sssp sssp-bf color mis; do for v in res new; do d=$T/x/dump-$app-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d $(bin $v)/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v: $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-100)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for app in bfs sssp sssp-bf color mis; do for in in grid:200:200 rmat:14:8; do f=$T/x/chaos-$app-$in.txt
  timeout 120 gpu/c/bin/coop-bench $app --gen $in --task light --period-ms 1 --steal one --chaos 1 --repeat 2 > $f 2>&1
  echo "chaos $app $in rc=$?: $(grep -E '^kills' $f | cut -c1-50) | $(grep -E '^check' $f | cut -c1-50)"
done; done
timeout 300 gpu/c/bin/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
for r in 1 2; do
  for spec in "bfs USA-road-NY.pace16.gr.xz 132" "bfs USA-road-FLA.pace16.gr.xz 132" "bfs grid:1000:1000 132" "sssp USA-road-NY.pace16.gr.xz 264" "sssp-bf USA-road-NY.pace16.gr.xz 528" "sssp-bf USA-road-FLA.pace16.gr.xz all" "color USA-road-FLA.pace16.gr.xz all"; do
    set -- $spec; app=$1 in=$2 g=$3; ga=$([ $g = all ] || echo "--groups $g")
    for v in standalone res new nocold; do
      mode=$([ $v = standalone ] && echo standalone || echo cooperative)
      f=$T/x/$app-${in%%.*}-$g-$v-$r.txt
      COOP_BUILD_OPTIONS="$(opt $v)" timeout 60 $(bin $v)/coop-bench $app --mode $mode $(src $in) $ga --repeat 10 > $f 2>&1
      echo "$app ${in%%.*} $g $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-24) $(grep -E '^groups' $f | cut -c8-30)"
    done
  done
done
cd $T && tar -cf $OUT/run63.tar x && ls -la $OUT
