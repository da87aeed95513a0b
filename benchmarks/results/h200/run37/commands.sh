#!/bin/bash
# GPU run 37 (issue 21): expand.h with slots and chunks of a whole group (gpu/cand3; switches for
# this experiment only: EXPAND_TRY_SHARE, run 34's chunks of an even share of the round rounded to
# 32; EXPAND_TRY_NOBEGIN, no barrier in expand_begin, right here only because no node is shared on
# the road graphs) at EXPAND_ALONE 32, 16, 8; against 0617bdd; standalone, medians of 5. Then the
# overhead script on cand3 with EXPAND_ALONE=8 and with the default 32.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc37; mkdir -p $T/x; date -u > $T/x/machine37.txt
opt() { case $1 in base|full) echo "";; share) echo -DEXPAND_TRY_SHARE;; nobegin) echo -DEXPAND_TRY_NOBEGIN;;
  a16) echo -DEXPAND_ALONE=16;; a8) echo -DEXPAND_ALONE=8;; share8) echo "-DEXPAND_TRY_SHARE -DEXPAND_ALONE=8";; esac; }
for r in 1 2; do
for job in "bfs USA-road-NY.pace16.gr.xz base full share nobegin a16 a8" "bfs USA-road-FLA.pace16.gr.xz base full share nobegin a8" \
  "bfs grid:1000:1000 base full share nobegin a8" "sssp USA-road-NY.pace16.gr.xz base full share a8" \
  "bfs email-Enron.txt.gz base full share a8 share8" "sssp soc-Slashdot0902.txt.gz base full share a8 share8" \
  "mis email-Enron.txt.gz base full share a8 share8" "color email-Enron.txt.gz base full share a8 share8"; do
  set -- $job; app=$1; in=$2; shift 2
  if [ ${in#rmat} != $in ] || [ ${in#grid} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
  for v in "$@"; do
    if [ $v = base ]; then B=gpu/base/build/bin; else B=gpu/cand3/bin; fi
    f=$T/x/$app-${in%%.*}-$v-$r.txt
    COOP_BUILD_OPTIONS="$(opt $v)" timeout 60 $B/coop-bench $app --mode standalone $src --repeat 5 > $f 2>&1
    echo "$app ${in%%.*} $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -c 'equals\|proper\|maximal' $f)"
  done
done; done
for v in a8 a32; do
  t0=$(date +%s)
  COOP_BUILD_OPTIONS=$([ $v = a8 ] && echo -DEXPAND_ALONE=8) timeout 170 /usr/bin/python3 scripts/overhead --bench gpu/cand3/bin/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$v > $T/x/overhead-$v.log 2>&1
  echo "overhead $v rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^all:" $T/x/overhead-$v.log
done
tar -cf $OUT/run37.tar -C $T x
