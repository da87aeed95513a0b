#!/bin/bash
# GPU run 88 (issue 21): mis's decided[] carries in_set's bit (one read per neighbour; gpu/t88)
# against run 87's batched walks (gpu/t87); colour's batch at 4 (as built), 2 and 3 arcs
# (COOP_BUILD_OPTIONS=-DEXPAND_BATCH=N) on t88. Co-resident groups tell the registers. Medians of
# 10, two alternations; chaos with a quarter-taking task for t88's mis.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc88; mkdir -p $T/x; date -u > $T/x/machine88.txt; nvidia-smi -L >> $T/x/machine88.txt 2>&1
for g in grid:200:200 rmat:14:16; do for seed in 1 2 3; do f=$T/x/chaos-mis-$g-$seed.txt
  timeout 60 gpu/t88/bin/coop-bench mis --gen $g --task light --period-ms 1 --chaos $seed --repeat 1 > $f 2>&1; rc=$?
  echo "chaos mis $g $seed rc=$rc: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-40)$(grep -E 'differ|progress' $f | head -1)"
done; done
G=gpu/graphs
one() { # file-name binary options app spec mode
  local f=$T/x/$1.txt
  COOP_BUILD_OPTIONS="$3" timeout 60 gpu/$2/bin/coop-bench $4 $5 --mode $6 --repeat 10 > $f 2>&1; local rc=$?
  echo "$1 rc=$rc: $(grep -E '^time median' $f | cut -c13-24) $(grep -oE 'groups [0-9]+ co-resident' $f)"
}
for r in 1 2; do
  for g in "--graph $G/USA-road-NY.pace16.gr.xz:NY" "--graph $G/USA-road-FLA.pace16.gr.xz:FLA" "--gen grid:1000:1000:grid" "--graph $G/soc-Slashdot0902.txt.gz:slashdot" "--gen rmat:16:16:rmat"; do
    spec=${g%:*}; name=${g##*:}
    for mode in standalone cooperative; do for b in 4 2 3; do
      one color-$name-$mode-b$b-$r t88 "-DEXPAND_BATCH=$b" color "$spec" $mode
    done; done
    for mode in standalone cooperative multikernel; do for v in t87 t88; do
      one mis-$name-$mode-$v-$r $v "" mis "$spec" $mode
    done; done
  done
done
tar -cf $OUT/run88.tar -C $T x
