#!/bin/bash
# GPU run 95 (issue 18): 0675f75's out-of-line barrier with every work-item acquiring the completed
# barrier after the final workgroup barrier (COOP_EXP_ACQUIRE_ALL=1; gpu/b95/coop-bench-late =
# 0675f75 + gpu/exp95.patch, which also carries run 93's checks, on with -DEXP_LATE). Chaos:
# with the acquire seeds 1-20, without it seeds 1-8 (control). Registers; times against 0675f75
# (gpu/b95/coop-bench-h) and the tree as it stands (gpu/t92, 04fc022: 889ddb4's barrier), medians
# of 10, two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc95; mkdir -p $T/x
A="-DCOOP_EXP_ACQUIRE_ALL=1"
chaos() { # name options seed
  local f=$T/x/$1-$3.txt s=$(date +%s)
  COOP_BUILD_OPTIONS="$2 -DEXP_LATE" timeout 20 gpu/b95/coop-bench-late sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $3 --repeat 1 > $f 2>&1; local rc=$?
  echo "$1 seed $3 rc=$rc $(( $(date +%s) - s )) s: $(grep -E '^check' $f | cut -c1-20)$(grep -E 'nodes differ' $f | head -1 | cut -c1-60) | $(grep EXP $f | tail -1)"
}
for seed in $(seq 1 20); do chaos acq "$A" $seed; done
for seed in $(seq 1 8); do chaos plain "" $seed; done
for app in bfs sssp-bf mis; do for v in h acq; do d=$T/d-$app-$v; mkdir -p $d
  o=""; [ $v = acq ] && o="$A"
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d gpu/b95/coop-bench-late $app --gen grid:30:30 > /dev/null 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; ptxas -arch=sm_90 $d/k.ptx -o $d/k.cubin
    echo "$app $v: $(cuobjdump -res-usage $d/k.cubin | grep -A1 'Function' | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"; done
done; done | tee $T/x/registers.txt
G=gpu/graphs
for r in 1 2; do
  for c in "bfs --graph $G/USA-road-NY.pace16.gr.xz --groups 132:bfs-NY" "bfs --gen grid:1000:1000 --groups 132:bfs-grid" "sssp --graph $G/USA-road-FLA.pace16.gr.xz --groups 396:sssp-FLA" "sssp-bf --graph $G/USA-road-NY.pace16.gr.xz --groups 528:ssspbf-NY" "sssp-bf --graph $G/USA-road-FLA.pace16.gr.xz --groups 792:ssspbf-FLA"; do
    cmd=${c%:*}; name=${c##*:}
    for v in head h acq; do
      b=gpu/b95/coop-bench-late; o="$A"; [ $v = h ] && { b=gpu/b95/coop-bench-h; o=""; }; [ $v = head ] && { b=gpu/t92/bin/coop-bench; o=""; }
      f=$T/x/$name-$v-$r.txt; COOP_BUILD_OPTIONS="$o" timeout 60 $b $cmd --repeat 10 > $f 2>&1
      echo "$name $v r$r: $(grep -E '^time median' $f | cut -c13-60) $(grep -oE 'groups [0-9]+ co-resident' $f)"
    done
  done
done
cd $T && tar -cf $OUT/run95.tar x
