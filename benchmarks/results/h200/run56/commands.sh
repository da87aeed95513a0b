#!/bin/bash
# GPU run 56 (issues 18 and 21): sssp.cl and sssp_searches.cl ask shared_num_groups() for M
# instead of get_num_groups(0) (gpu/s2) against 0e4cb4a (gpu/x2 built without its switch).
# Registers; chaos with a task and searches under chaos; standalone and cooperative at 264 groups
# and on every co-resident group, alternating, medians of 10; then the overhead script on s2.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc56; mkdir -p $T/x; date -u > $T/x/machine56.txt; nvidia-smi -L >> $T/x/machine56.txt 2>&1
for v in x2 s2; do d=$T/x/dump-$v; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/$v/bin/coop-bench sssp --mode cooperative --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $f.ptx; echo "  sssp $v $(basename $f): $(ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -E 'registers' | head -1 | sed 's/ptxas info *: //g' | cut -c1-120)"; done
  rm -rf $d
done > $T/x/registers.txt 2>&1
cat $T/x/registers.txt
for seed in 1 2; do f=$T/x/chaos-$seed.txt
  timeout 60 gpu/s2/bin/coop-bench sssp --gen grid:200:200 --task light --period-ms 1 --steal one --chaos $seed --repeat 2 > $f 2>&1
  echo "chaos sssp $seed rc=$?: $(grep -E '^kills' $f | cut -c1-40) | $(grep -E '^check' $f | cut -c1-60)"
done
f=$T/x/searches.txt; timeout 60 gpu/s2/bin/coop-bench sssp --graph gpu/graphs/USA-road-NY.pace16.gr.xz --searches 4 --chaos 5 > $f 2>&1
echo "sssp searches chaos rc=$?: $(grep -E '^check' $f | cut -c1-60)"
for r in 1 2; do
  for in in USA-road-NY.pace16.gr.xz USA-road-FLA.pace16.gr.xz grid:1000:1000 rmat:16:16 email-Enron.txt.gz; do
    if [ ${in#*:} != $in ]; then src="--gen $in"; else src="--graph gpu/graphs/$in"; fi
    for g in 264 all; do for mode in standalone cooperative; do for v in x2 s2; do
      [ $mode = standalone ] && [ $v = s2 ] && continue
      gg=$([ $g = 264 ] && echo "--groups 264")
      f=$T/x/sssp-${in%%.*}-$g-$mode-$v-$r.txt
      timeout 60 gpu/$v/bin/coop-bench sssp --mode $mode $src $gg --repeat 10 > $f 2>&1
      echo "sssp ${in%%.*} $g $mode $v r$r rc=$?: $(grep -E '^time median' $f | cut -c13-30) $(grep -E '^groups' $f | cut -c1-40)"
    done; done; done
  done
done
t0=$(date +%s)
timeout 170 /usr/bin/python3 scripts/overhead --bench gpu/s2/bin/coop-bench --graphs gpu/graphs --repeat 3 --out $T/x/overhead > $T/x/overhead.log 2>&1
echo "overhead rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/overhead.log
tar -cf $OUT/run56.tar -C $T x
