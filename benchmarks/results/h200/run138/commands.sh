#!/bin/bash
# GPU run 138: which out-of-line slow path sets the megakernels' registers. Per-function resource
# usage (cuobjdump -res-usage) of every app's megakernel as built; then sssp's, colour's and
# mis's megakernel registers with each COOP_COLD function inlined in turn
# (-DCOOP_COLD_<name>=inline, the experiment switch of experiment.patch).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc138; mkdir -p $T/x; date -u > $T/x/machine138.txt; nvidia-smi -L >> $T/x/machine138.txt 2>&1
B=gpu/r138/coop-bench
regs() { # app, options -> one line
  local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$2" COOP_BUILD_DUMP=$d $B $1 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1
  echo "$(grep -A2 'Function properties for .*_mega$' $d/v.txt | tr '\n' ' ' | sed -E 's/ +/ /g; s/ptxas info *: //g' | cut -c1-220)"
}
for app in sssp color mis bfs sssp-bf; do
  echo "== $app as built: $(regs $app '')"
  cuobjdump -res-usage $T/d/k.cubin | paste - - | sed -E 's/ +/ /g' | awk '{print "   " $0}' | cut -c1-160
  cp $T/d/k.ptx $T/x/$app.ptx
done
F="coop_agent coop_await_parked coop_give_back_tokens coop_grow coop_idle_wait coop_join_killed coop_join_task coop_kill_self coop_leave_task coop_member_finished coop_next_role coop_offer_fork_slow coop_offer_kill_slow coop_park coop_park_wait coop_publish_fork coop_resize_commit coop_resize_decision coop_sweep coop_sweep_flat coop_take_from coop_take_tokens"
for app in sssp color; do for f in $F; do
  echo "$app $f inline: $(regs $app -DCOOP_COLD_$f=inline | grep -oE '[0-9]+ bytes stack frame|[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' ')"
done; done
gzip $T/x/*.ptx
tar -cf $OUT/run138.tar -C $T x
