#!/bin/bash
# GPU run 54 (issues 18 and 21): the resizing barrier's slow paths inlined alone
# (COOP_BUILD_OPTIONS=-DCOOP_NV_INLINE_RESIZE=1; gpu/ri: 680c722 plus the switch) against the
# tree as it is (the same build without the option). Registers; chaos with a task; the overhead
# script on each side.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc54; mkdir -p $T/x; date -u > $T/x/machine54.txt; nvidia-smi -L >> $T/x/machine54.txt 2>&1
B=gpu/ri/bin
for app in bfs sssp sssp-bf color mis; do for v in cold resize-inline; do d=$T/x/dump-$app-$v; mkdir -p $d
  o=$([ $v = resize-inline ] && echo -DCOOP_NV_INLINE_RESIZE=1)
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d $B/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for app in bfs sssp sssp-bf color mis; do f=$T/x/chaos-$app.txt
  COOP_BUILD_OPTIONS=-DCOOP_NV_INLINE_RESIZE=1 timeout 60 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --steal one --chaos 1 --repeat 2 > $f 2>&1
  echo "chaos $app rc=$?: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-50)"
done
for side in resize-inline cold; do
  o=$([ $side = resize-inline ] && echo -DCOOP_NV_INLINE_RESIZE=1)
  t0=$(date +%s)
  COOP_BUILD_OPTIONS="$o" timeout 170 /usr/bin/python3 scripts/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run54.tar -C $T x
