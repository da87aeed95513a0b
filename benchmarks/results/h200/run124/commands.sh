#!/bin/bash
# GPU run 124: the megakernels of sssp, color and mis take 48 registers (5 groups per SM); with
# -cl-nv-maxrregcount=40 (COOP_BUILD_OPTIONS; the standalone kernels use 40 or fewer, unchanged)
# they fit 6. Registers and spills of each, then cooperative times at 792 (capped) against the
# default build at 660 and 528, standalone at 792 and 528 for reference, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc124; mkdir -p $T/x; date -u > $T/x/machine124.txt; nvidia-smi -L >> $T/x/machine124.txt 2>&1
G=gpu/graphs; B=gpu/r124/coop-bench
for app in sssp color mis; do d=$T/dump-$app; mkdir -p $d
  COOP_BUILD_DUMP=$d $B $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx
    for cap in none 40; do o=""; [ $cap = 40 ] && o="--maxrregcount 40"
      ptxas -arch=sm_90 -v $o $d/k.ptx -o $d/k.cubin 2>&1 | grep -E "Used|spill" | grep -B1 -A0 "mega" | head -4 > $d/v.txt
      echo "$app cap $cap: $(ptxas -arch=sm_90 -v $o $d/k.ptx -o $d/k.cubin 2>&1 | grep -A2 'Function properties for .*_mega$' | tr '\n' ' ' | sed 's/  */ /g' | cut -c1-200) | $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function .*_mega:' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"
    done; done; done
run() { # name, env options, args
  local f=$T/x/$1.txt; shift; local opt=$1; shift
  COOP_BUILD_OPTIONS="$opt" timeout 120 $B "$@" > $f 2>&1
  echo "$(basename $f .txt): rc=$? $(grep -E '^time median' $f | cut -c1-60)"
}
for r in 1 2; do
 for c in "sssp|--gen rmat:16:16|200" "sssp|--graph $G/email-Enron.txt.gz|200" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|10" \
          "color|--graph $G/USA-road-NY.pace16.gr.xz|400" "color|--gen rmat:16:16|5" "mis|--graph $G/USA-road-NY.pace16.gr.xz|400" \
          "mis|--gen grid:1000:1000|400" "mis|--gen rmat:16:16|200"; do
  IFS="|" read -r app in rep <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')
  run $tag-s792-$r "" $app $in --mode standalone --groups 792 --repeat $rep
  run $tag-s528-$r "" $app $in --mode standalone --groups 528 --repeat $rep
  run $tag-c660-$r "" $app $in --mode cooperative --groups 660 --repeat $rep
  run $tag-c528-$r "" $app $in --mode cooperative --groups 528 --repeat $rep
  run $tag-x792-$r "-cl-nv-maxrregcount=40" $app $in --mode cooperative --groups 792 --repeat $rep
  run $tag-x660-$r "-cl-nv-maxrregcount=40" $app $in --mode cooperative --groups 660 --repeat $rep
 done
done
tar -cf $OUT/run124.tar -C $T x
