#!/bin/bash
# GPU run 70 (issue 18): the resizing barrier with one arrival in the kernel and two out-of-line
# calls around it (gpu/j: member 0's decision before, coop_resize_flagged after) against 0675f75
# (gpu/h: one place calling both, the decision arriving itself). Registers; chaos with a task
# (results checked); medians of 10, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc70; mkdir -p $T/x; date -u > $T/x/machine70.txt; nvidia-smi -L >> $T/x/machine70.txt 2>&1
src() { if [ ${1#grid} != $1 ]; then echo "--gen $1"; else echo "--graph gpu/graphs/$1"; fi; }
for app in bfs sssp sssp-bf color mis; do for v in h j; do d=$T/d-$app-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"; done
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for app in bfs sssp sssp-bf color mis; do for in in grid:200:200 rmat:14:8; do f=$T/x/chaos-$app-$in.txt
  timeout 120 gpu/j/bin/coop-bench $app --gen $in --task light --period-ms 1 --steal one --chaos 1 --repeat 2 > $f 2>&1
  echo "chaos $app $in rc=$?: $(grep -E '^kills' $f | cut -c1-50) | $(grep -E '^check' $f | cut -c1-50)"
done; done
timeout 300 gpu/j/bin/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -2 $T/x/coop-chaos.txt | tr '\n' ' ' | cut -c1-200)"
for r in 1 2; do
  for spec in "bfs USA-road-NY.pace16.gr.xz 132" "bfs grid:1000:1000 132" "sssp-bf USA-road-NY.pace16.gr.xz 528" "sssp-bf USA-road-FLA.pace16.gr.xz all" "sssp-bf grid:1000:1000 all" "mis soc-Slashdot0902.txt.gz all" "mis USA-road-FLA.pace16.gr.xz all" "color soc-Slashdot0902.txt.gz all"; do
    set -- $spec; app=$1 in=$2 g=$3; ga=$([ $g = all ] || echo "--groups $g")
    for v in standalone h j; do
      mode=$([ $v = standalone ] && echo standalone || echo cooperative); b=$([ $v = standalone ] && echo j || echo $v)
      f=$T/x/$app-${in%%.*}-$g-$v-$r.txt
      timeout 60 gpu/$b/bin/coop-bench $app --mode $mode $(src $in) $ga --repeat 10 > $f 2>&1
      echo "$app ${in%%.*} $g $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-24) $(grep -E '^groups' $f | cut -c8-30)"
    done
  done
done
cd $T && tar -cf $OUT/run70.tar x
