#!/bin/bash
# GPU run 89 (issue 21): with the standalone wait polled without a pause (as the megakernel's
# host), 9dc16d8 + that fix (gpu/t86p) against the working tree (gpu/t89: colour's and mis's
# batched walks, counts once per sweep, mis's decided[] with in_set's bit), and t89 with colour's
# batch at 3 arcs (COOP_BUILD_OPTIONS=-DEXPAND_BATCH=3). Every mode, medians of 10; road graphs
# and the grid twice, alternating.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc89; mkdir -p $T/x; date -u > $T/x/machine89.txt; nvidia-smi -L >> $T/x/machine89.txt 2>&1
G=gpu/graphs
one() { # file-name binary options app spec mode
  local f=$T/x/$1.txt
  COOP_BUILD_OPTIONS="$3" timeout 60 gpu/$2/bin/coop-bench $4 $5 --mode $6 --repeat 10 > $f 2>&1; local rc=$?
  echo "$1 rc=$rc: $(grep -E '^time median' $f | cut -c13-60) $(grep -oE 'groups [0-9]+ co-resident' $f)"
}
ROAD="--graph $G/USA-road-NY.pace16.gr.xz:NY|--graph $G/USA-road-FLA.pace16.gr.xz:FLA|--gen grid:1000:1000:grid"
PL="--graph $G/email-Enron.txt.gz:enron|--graph $G/soc-Slashdot0902.txt.gz:slashdot|--gen rmat:16:16:rmat"
for r in 1 2; do
  list="$ROAD"; [ $r = 1 ] && list="$ROAD|$PL"
  IFS='|' read -ra inputs <<< "$list"
  for g in "${inputs[@]}"; do spec=${g%:*}; name=${g##*:}
    for mode in standalone cooperative multikernel; do
      one color-$name-$mode-t86p-$r t86p "" color "$spec" $mode
      one color-$name-$mode-t89-$r t89 "" color "$spec" $mode
      one color-$name-$mode-t89b3-$r t89 "-DEXPAND_BATCH=3" color "$spec" $mode
      one mis-$name-$mode-t86p-$r t86p "" mis "$spec" $mode
      one mis-$name-$mode-t89-$r t89 "" mis "$spec" $mode
    done
  done
done
tar -cf $OUT/run89.tar -C $T x
