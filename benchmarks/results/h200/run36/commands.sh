#!/bin/bash
# GPU run 36 (issue 21): expand.h with slots (gpu/cand2: the tree of run 34 plus two switches for
# this experiment only: EXPAND_TRY_FULL, chunks of a whole group as before expand.h; EXPAND_TRY_NOPASS,
# no barrier and no sharing at all) at thresholds EXPAND_ALONE 32 (default), 16 and 8, against
# 0617bdd (gpu/base); standalone, medians of 5. Registers of colour's kernels (ptxas -v).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc36; mkdir -p $T/x; date -u > $T/x/machine36.txt
opt() { case $1 in base|v32) echo "";; v16) echo -DEXPAND_ALONE=16;; v8) echo -DEXPAND_ALONE=8;; full) echo -DEXPAND_TRY_FULL;;
  nopass) echo "-DEXPAND_TRY_NOPASS -DEXPAND_ALONE=0xffffffffu";; fullnopass) echo "-DEXPAND_TRY_FULL -DEXPAND_TRY_NOPASS -DEXPAND_ALONE=0xffffffffu";; esac; }
for r in 1 2; do
for job in "bfs USA-road-NY.pace16.gr.xz base v32 full nopass fullnopass" "bfs USA-road-FLA.pace16.gr.xz base v32 full nopass fullnopass" \
  "color USA-road-NY.pace16.gr.xz base v32 full" "mis email-Enron.txt.gz base v32 v16 v8" "color email-Enron.txt.gz base v32 v16 v8" \
  "mis soc-Slashdot0902.txt.gz base v32 v16 v8" "bfs email-Enron.txt.gz base v32 v16 v8" "sssp email-Enron.txt.gz base v32 v16 v8" \
  "sssp-bf rmat:16:16 base v32 v16 v8" "color rmat:16:16 base v32 v16 v8" "sssp USA-road-FLA.pace16.gr.xz base v32 v16 v8"; do
  set -- $job; app=$1; in=$2; shift 2
  if [ ${in#rmat} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for v in "$@"; do
    if [ $v = base ]; then B=gpu/base/build/bin; else B=gpu/cand2/bin; fi
    f=$T/x/$app-${in%%.*}-$v-$r.txt
    COOP_BUILD_OPTIONS="$(opt $v)" timeout 60 $B/coop-bench $app --mode standalone $src --repeat 5 > $f 2>&1
    echo "$app ${in%%.*} $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-20) $(grep -c 'equals\|proper\|maximal' $f)"
  done
done; done
for app in color mis bfs; do d=$T/x/dump-$app; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/cand2/bin/coop-bench $app --mode standalone --gen rmat:12:8 > /dev/null 2>&1
  COOP_BUILD_DUMP=$d gpu/cand2/bin/coop-bench $app --mode cooperative --gen rmat:12:8 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers|spill' | tr '\n' ' ' | sed 's/ptxas info *: //g' | cut -c1-200)"; done
  rm -f $d/*.ptx
done
tar -cf $OUT/run36.tar -C $T x
