#!/bin/bash
# GPU run 139: combinations of inlined slow paths (experiment.patch's -DCOOP_COLD_<name>=inline),
# every app's megakernel registers.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc139; mkdir -p $T/x
B=gpu/r138/coop-bench
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$2" COOP_BUILD_DUMP=$d $B $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1
  grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE '[0-9]+ bytes stack frame|[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' '; }
for combo in "grow" "grow resize_decision" "grow take_tokens" "grow give_back_tokens" "grow resize_decision take_tokens" "grow resize_commit" "grow publish_fork" "grow offer_fork_slow" "grow sweep" "grow take_from" "resize_decision take_tokens" "grow resize_decision take_tokens give_back_tokens"; do
  o=""; for f in $combo; do o="$o -DCOOP_COLD_coop_$f=inline"; done
  for app in sssp color mis bfs sssp-bf; do echo "$combo | $app: $(regs $app "$o")"; done
done
