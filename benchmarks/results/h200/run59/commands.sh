#!/bin/bash
# GPU run 59 (issue 18): where the resizing barrier's 0.2-0.3 us a round goes. gpu/p: 889ddb4 plus
# the experiment switch COOP_EXP_PLAIN (gpu/exp-plain.patch: the generated resizing barrier becomes
# the plain global barrier; measuring only). Traces of both (device clock) for round-cost, timings
# of standalone / resizing / plain alternating (medians of 10), sssp-bf's SASS.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc59; mkdir -p $T/x; date -u > $T/x/machine59.txt; nvidia-smi -L >> $T/x/machine59.txt 2>&1
B=gpu/p/bin
src() { if [ ${1#grid} != $1 ]; then echo "--gen $1"; else echo "--graph gpu/graphs/$1"; fi; }
for app in bfs sssp-bf; do for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz; do
  g=$([ $app = bfs ] && echo 132 || echo 528)
  for v in res plain; do o=$([ $v = plain ] && echo -DCOOP_EXP_PLAIN); n=$app-${in%%.*}-$v
    COOP_BUILD_OPTIONS="$o" timeout 60 $B/coop-bench $app --mode cooperative $(src $in) --groups $g --repeat 3 --trace $T/x/trace-$n.json > $T/x/trace-$n.txt 2>&1
    echo "trace $n rc=$?: $(grep -E '^time median' $T/x/trace-$n.txt | cut -c13-30)"
    /usr/bin/python3 scripts/round-cost $T/x/trace-$n.json --skip 5 > $T/x/round-cost-$n.txt 2>&1; cat $T/x/round-cost-$n.txt
    gzip -9 $T/x/trace-$n.json
  done
done; done
for r in 1 2; do for app in bfs sssp-bf; do for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz; do
  g=$([ $app = bfs ] && echo 132 || echo 528)
  for v in standalone res plain; do
    mode=$([ $v = standalone ] && echo standalone || echo cooperative); o=$([ $v = plain ] && echo -DCOOP_EXP_PLAIN)
    f=$T/x/$app-${in%%.*}-$g-$v-$r.txt
    COOP_BUILD_OPTIONS="$o" timeout 60 $B/coop-bench $app --mode $mode $(src $in) --groups $g --repeat 10 > $f 2>&1
    echo "$app ${in%%.*} $g $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30)"
  done
done; done; done
for v in standalone res plain; do d=$T/x/dump-$v; mkdir -p $d
  mode=$([ $v = standalone ] && echo standalone || echo cooperative); o=$([ $v = plain ] && echo -DCOOP_EXP_PLAIN)
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d $B/coop-bench sssp-bf --mode $mode --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $T/x/sssp-bf-$v.ptx; ptxas -arch=sm_90 -v $T/x/sssp-bf-$v.ptx -o $T/x/sssp-bf-$v.cubin > $T/x/sssp-bf-$v.ptxas.txt 2>&1
    cuobjdump -sass $T/x/sssp-bf-$v.cubin > $T/x/sssp-bf-$v.sass 2>&1; rm -f $T/x/sssp-bf-$v.cubin
    echo "sssp-bf $v: $(grep registers $T/x/sssp-bf-$v.ptxas.txt | head -1 | cut -c1-100)"; done
  rm -rf $d
done
tar -cf $OUT/run59.tar -C $T x
