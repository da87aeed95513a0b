#!/bin/bash
# GPU run 57 (issue 18): scripts/overhead --sweep on 58c0fc4 (gpu/fin); SASS of bfs's megakernel
# as it is and with the plain barrier (gpu/x2, COOP_EXP_PLAIN) and of its standalone kernel, for
# finding the resizing barrier's 0.2-0.3 us a round (run 55).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc57; mkdir -p $T/x/sass; date -u > $T/x/machine57.txt; nvidia-smi -L >> $T/x/machine57.txt 2>&1
for v in mega plain standalone; do d=$T/x/dump-$v; mkdir -p $d
  o=$([ $v = plain ] && echo -DCOOP_EXP_PLAIN); m=$([ $v = standalone ] && echo standalone || echo cooperative)
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d gpu/x2/bin/coop-bench bfs --mode $m --gen grid:30:30 > /dev/null 2>&1
  f=$(ls $d/*.bin | head -1); tr -d '\000' < $f > $T/x/sass/bfs-$v.ptx
  ptxas -arch=sm_90 -v $T/x/sass/bfs-$v.ptx -o $T/x/sass/bfs-$v.cubin > $T/x/sass/bfs-$v.ptxas.txt 2>&1
  cuobjdump -sass $T/x/sass/bfs-$v.cubin > $T/x/sass/bfs-$v.sass 2>&1 || nvdisasm $T/x/sass/bfs-$v.cubin > $T/x/sass/bfs-$v.sass 2>&1
  echo "$v: $(grep -c . $T/x/sass/bfs-$v.sass) SASS lines, $(grep -cE 'LDL|STL' $T/x/sass/bfs-$v.sass) LDL/STL; $(grep registers $T/x/sass/bfs-$v.ptxas.txt | head -1 | cut -c1-90)"
  rm -f $T/x/sass/bfs-$v.cubin; rm -rf $d
done
xz -9 $T/x/sass/*.ptx
t0=$(date +%s)
timeout 240 /usr/bin/python3 scripts/overhead --bench gpu/fin/bin/coop-bench --graphs gpu/graphs --repeat 3 --sweep --out $T/x/sweep > $T/x/sweep.log 2>&1
echo "sweep rc=$? $(( $(date +%s) - t0 )) s"; grep -E "^[a-z-]+:" $T/x/sweep.log; grep -i "best against best" $T/x/sweep/overhead.md
tar -cf $OUT/run57.tar -C $T x
