#!/bin/bash
# GPU run 9 (issue 22): registers and PTX (trace-cost step 1, ptxas) at the final tree, and
# traced runs again.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
export PATH="$PATH:/usr/local/cuda/bin"
T=/tmp/tc9; mkdir -p $T/x
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $T/x/machine9.txt
B=gpu/build/bin
run() { local name=$1; shift; timeout 120 "$@" > $T/x/$name.txt 2>&1; echo "$name rc=$? $(grep -iE 'trace' $T/x/$name.txt | head -1)"; }
run bfs-grid $B/coop-bench bfs --gen grid:100:100 --task light --period-ms 2 --trace $T/bfs-grid.json --trace-events 65536
for s in 11 12 13; do
  run sssp-chaos$s $B/coop-bench sssp --gen grid:100:100 --task light --period-ms 2 --chaos $s --trace $T/sssp-chaos$s.json --trace-events 65536
  run color-chaos$s $B/coop-bench color --gen rmat:12:8 --task light --period-ms 1 --steal half --chaos $s --trace $T/color-chaos$s.json --trace-events 65536
done
for f in $T/*.json; do xz -T0 -3 -c $f > $T/x/$(basename $f).xz; done
timeout 200 python3 scripts/trace-cost --before gpu/trace-before --after gpu --steps registers --timeout 150 --out $T/cost > $T/x/trace-cost-registers.log 2>&1
echo "registers rc=$?"; cat $T/cost/trace-cost-registers.md
cp $T/cost/trace-cost-registers.md $T/cost/trace-cost-log.txt $T/x/
tar -cf $OUT/run9.tar -C $T x
