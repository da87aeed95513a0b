#!/bin/bash
# GPU run 82: run 79/80's question again with the checks in the kernel that runs (--task light
# uses sssp_bf_matmult_mega.cl; runs 79-80's checks were in sssp_bf_mega.cl and never ran).
# x = 0675f75 + switches, y = c6a06be; both with EXP_INSTR (after each barrier: round against
# group 0's, M against the scheduler's state, id < M), EXP_COVER (every id 0..M-1 ran each sweep
# once: count and id sum per round), EXP_EXITCHECK (a work-item leaving the loop finds the
# count not zero in L2). Violations as bits in "rounds" / 1000000; EXP_PLANT2 plants bit 4096.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
T=/tmp/tc82; mkdir -p $T/x
one() { # name binary options seed
  local f=$T/x/$1-$4.txt s=$(date +%s)
  COOP_BUILD_OPTIONS="$3" timeout 15 gpu/bis/coop-bench-$2 sssp-bf --gen grid:200:200 --task light --period-ms 1 --chaos $4 --repeat 1 > $f 2>&1
  echo "$1 chaos $4 rc=$? $(( $(date +%s) - s )) s: $(grep -oE 'rounds [0-9]+' $f | head -1) $(grep -E '^check' $f | cut -c1-20)$(grep -E 'differs|progress' $f | head -1 | cut -c1-60) $(grep -E '^  node' $f | head -1)"
}
C="-DEXP_INSTR -DEXP_COVER -DEXP_EXITCHECK"
# EXP_EXITCHECK now also says which: 8192 group 0, 16384 local id 0, 32768 another work-item.
for seed in 1 2 3 4 5 6 7 8 9 10; do
  one hc x "$C" $seed
  one hv x "$C -DEXP_VOLATILE_COND" $seed
done
# the PTX of x's matmult megakernel as built (no switches) and with EXP_VOLATILE_COND
for o in "" "-DEXP_VOLATILE_COND"; do d=$T/x/ptx$(echo $o | tr -dc A-Z); mkdir -p $d
  COOP_BUILD_OPTIONS="$o" COOP_BUILD_DUMP=$d gpu/bis/coop-bench-x sssp-bf --gen grid:30:30 --task light --period-ms 1 --repeat 1 > /dev/null 2>&1; done
cd $T && tar -cf $OUT/run82.tar x
