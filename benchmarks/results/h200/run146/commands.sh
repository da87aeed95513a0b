#!/bin/bash
# GPU run 146: the tree with the resizing barrier of runs 144-145 committed (member 0 decides
# before its group barrier, coop_resize_decision inline, the linear id in inline PTX), gpu/r146:
# registers and warp aggregation of every megakernel; chaos (every app with a quarter-taking
# task, seeds 1-4; components, seeds 1-4; coop-chaos); sched-bench's gather against gpu/r138
# (the tree before), two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc146; mkdir -p $T/x; date -u > $T/x/machine146.txt; nvidia-smi -L >> $T/x/machine146.txt 2>&1; B=gpu/r146
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_DUMP=$d $B/coop-bench $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $d/k.sass
  echo "$(grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE '[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' ') voteu $(grep -c VOTEU $d/k.sass)"; }
for app in bfs sssp color mis sssp-bf; do echo "$app: $(regs $app)"; done | tee $T/x/registers.txt
for app in bfs sssp color mis sssp-bf; do for s in 1 2 3 4; do f=$T/x/chaos-$app-$s.txt
  timeout 40 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  echo "chaos $app $s rc=$?: $(grep -E '^check' $f | cut -c1-50)$(grep -E 'differ|progress|rror' $f | head -1 | cut -c1-100)"; done; done
for sd in 1 2 3 4; do timeout 60 $B/components --nodes 200000 --edges 150000 --seed $sd --chaos $sd > $T/x/components-$sd.txt 2>&1
  echo "components seed $sd rc=$?: $(tail -1 $T/x/components-$sd.txt | cut -c1-140)"; done
timeout 120 $B/coop-chaos --seeds 10 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos rc=$?: $(tail -1 $T/x/coop-chaos.txt | cut -c1-160)"
for r in 1 2; do for v in r138 r146; do f=$T/x/sched-$v-$r.txt; timeout 60 gpu/$v/sched-bench --tasks 300 --repeat 1 > $f 2>&1
  echo "sched $v $r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"; done; done
tar -cf $OUT/run146.tar -C $T x
