#!/bin/bash
# GPU run 48 (issue 18): where the cooperative round's extra time goes. Experiment switches in
# gpu/exp (HEAD 2cdad1d plus two -D switches, not committed): COOP_EXP_M_PRIVATE (M kept per
# work-item, no workgroup barrier for shared_num_groups), COOP_EXP_NO_DECIDE (group 0 reads no
# kill/idle counts before arriving: no resizes). Registers, alternating timings (medians of 10),
# and traced bfs runs through scripts/round-cost.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc48; mkdir -p $T/x; date -u > $T/x/machine48.txt; nvidia-smi -L >> $T/x/machine48.txt 2>&1
B=gpu/exp/bin
opt() { case $1 in base) echo "";; mp) echo -DCOOP_EXP_M_PRIVATE;; nd) echo -DCOOP_EXP_NO_DECIDE;; both) echo "-DCOOP_EXP_M_PRIVATE -DCOOP_EXP_NO_DECIDE";; esac; }
for app in bfs sssp-bf color; do for v in base mp nd both; do d=$T/x/dump-$app-$v; mkdir -p $d
  COOP_BUILD_OPTIONS="$(opt $v)" COOP_BUILD_DUMP=$d $B/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  [ $v = base ] && COOP_BUILD_DUMP=$d $B/coop-bench $app --mode standalone --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
run() { # app input groups mode variant rep
  local src g f
  if [ ${2#grid} != $2 ]; then src="--gen $2"; else src="--graph gpu/graphs/$2"; fi
  g=$([ $3 = 132 ] && echo "--groups 132")
  f=$T/x/$1-${2%%.*}-$3-$4-$5-$6.txt
  COOP_BUILD_OPTIONS="$(opt $5)" timeout 60 $B/coop-bench $1 --mode $4 $src $g --repeat 10 > $f 2>&1
  echo "$1 ${2%%.*} $3 $4 $5 r$6 rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-40)"
}
for r in 1 2 3; do
  for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000; do
    run bfs $in 132 standalone base $r
    for v in base mp nd both; do run bfs $in 132 cooperative $v $r; done
  done
  for in in USA-road-NY.pace16.gr.xz grid:1000:1000; do
    run sssp-bf $in all standalone base $r
    for v in base mp nd both; do run sssp-bf $in all cooperative $v $r; done
  done
done
for v in base both; do for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz; do
  COOP_BUILD_OPTIONS="$(opt $v)" timeout 60 $B/coop-bench bfs --mode cooperative --graph gpu/graphs/$in --groups 132 --repeat 3 --trace $T/x/trace-bfs-${in%%.*}-$v.json > $T/x/trace-bfs-${in%%.*}-$v.txt 2>&1
  echo "trace $v $in rc=$?: $(grep -E '^time median' $T/x/trace-bfs-${in%%.*}-$v.txt | cut -c13-30)"
  /usr/bin/python3 scripts/round-cost $T/x/trace-bfs-${in%%.*}-$v.json --skip 5 --csv $T/x/rounds-bfs-${in%%.*}-$v.csv > $T/x/round-cost-bfs-${in%%.*}-$v.txt 2>&1
  cat $T/x/round-cost-bfs-${in%%.*}-$v.txt
  xz -9 $T/x/trace-bfs-${in%%.*}-$v.json
done; done
tar -cf $OUT/run48.tar -C $T x
