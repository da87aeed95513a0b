#!/bin/bash
# GPU run 49 (issues 18 and 21): M kept per work-item (COOP_PRIVATE_M, gpu/pm: the working tree
# after 2cdad1d) against 2cdad1d (gpu/exp built without its experiment switches), and the
# megakernels with libcoop's slow paths inlined (COOP_NV_INLINE=1). Registers; apps under chaos
# with a task (results checked); coop-chaos; the overhead script on each side.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc49; mkdir -p $T/x; date -u > $T/x/machine49.txt; nvidia-smi -L >> $T/x/machine49.txt 2>&1
for app in bfs sssp sssp-bf color mis; do for v in pm pm-inline head; do d=$T/x/dump-$app-$v; mkdir -p $d
  B=gpu/${v%-inline}/bin; [ $v = head ] && B=gpu/exp/bin
  o=$([ $v = pm-inline ] && echo -DCOOP_NV_INLINE=1)
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d $B/coop-bench $app --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  [ $v = pm ] && COOP_BUILD_DUMP=$d $B/coop-bench $app --mode standalone --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  $app $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done; done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for app in bfs sssp sssp-bf color mis; do for seed in 1 2 3; do
  f=$T/x/chaos-$app-$seed.txt
  timeout 60 gpu/pm/bin/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --steal one --chaos $seed --repeat 2 > $f 2>&1
  echo "chaos $app seed $seed rc=$?: $(grep -E '^kills' $f | cut -c1-60) | $(grep -E '^check' $f | cut -c1-50)"
done; done
t0=$(date +%s); timeout 60 gpu/pm/bin/coop-chaos --seeds 20 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$? $(( $(date +%s) - t0 )) s: $(tail -n 1 $T/x/coop-chaos.txt)"
for side in pm head pm-inline; do
  B=gpu/${side%-inline}/bin; [ $side = head ] && B=gpu/exp/bin
  o=$([ $side = pm-inline ] && echo -DCOOP_NV_INLINE=1)
  t0=$(date +%s)
  COOP_BUILD_OPTIONS="$o" timeout 170 /usr/bin/python3 scripts/overhead --bench $B/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead-$side > $T/x/overhead-$side.log 2>&1
  echo "overhead $side rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead-$side.log
done
tar -cf $OUT/run49.tar -C $T x
