#!/bin/bash
# GPU run 87 (issue 21): colour's and mis's alone walks batched (heads, then state and color /
# in_set together; colour's free color gathered in the same walk) and their counts added once per
# sweep (gpu/t87, the working tree on 9dc16d8) against 9dc16d8 (gpu/t86). Registers; chaos with a
# quarter-taking task; every mode on the six inputs, medians of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc87; mkdir -p $T/x; date -u > $T/x/machine87.txt; nvidia-smi -L >> $T/x/machine87.txt 2>&1
for app in color mis; do for v in t86 t87; do for mode in cooperative standalone multikernel; do d=$T/d-$app-$v-$mode; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench $app --mode $mode --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v $mode: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"; done
done; done; done | tee $T/x/registers.txt
for app in color mis; do for g in grid:200:200 rmat:14:16; do for seed in 1 2 3; do f=$T/x/chaos-$app-$g-$seed.txt
  timeout 60 gpu/t87/bin/coop-bench $app --gen $g --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1
  echo "chaos $app $g $seed rc=$?: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done; done
G=gpu/graphs
ROAD='--graph $G/USA-road-NY.pace16.gr.xz:NY|--graph $G/USA-road-FLA.pace16.gr.xz:FLA|--gen grid:1000:1000:grid'
for r in 1 2; do for app in color mis; do
  list="$ROAD"; [ $r = 1 ] && list="$ROAD|--graph \$G/email-Enron.txt.gz:enron|--graph \$G/soc-Slashdot0902.txt.gz:slashdot|--gen rmat:16:16:rmat"
  IFS='|' read -ra inputs <<< "$list"
  for g in "${inputs[@]}"; do g=$(eval echo "$g")
    spec=${g%:*}; name=${g##*:}
    for mode in standalone multikernel cooperative; do for v in t86 t87; do
      f=$T/x/$app-$name-$mode-$v-$r.txt
      timeout 60 gpu/$v/bin/coop-bench $app $spec --mode $mode --repeat 10 > $f 2>&1; rc=$?
      echo "$(date +%s) $app $name $mode $v r$r rc=$rc: $(grep -E '^time median' $f | cut -c13-24) $(grep -oE 'rounds [0-9]+' $f | head -1)"
    done; done
  done
done; done
tar -cf $OUT/run87.tar -C $T x
