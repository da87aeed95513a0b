#!/bin/bash
# GPU run 152: how often each shape is wrong under chaos with a quarter-taking task: the committed
# resizing barrier (c, fork record published after the forking group's last workgroup barrier)
# against run 151's hand-over (h, -DCOOP_EXP_HANDOVER=1: published by local id 0 before it), the
# same 20 seeds of sssp and sssp-bf on grid:200:200, alternating; coop-chaos 20 seeds committed.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc152; mkdir -p $T/x; date -u > $T/x/machine152.txt; nvidia-smi -L >> $T/x/machine152.txt 2>&1
B=gpu/r151
for s in $(seq 1 20); do for app in sssp sssp-bf; do for v in c h; do o=""; [ $v = h ] && o="-DCOOP_EXP_HANDOVER=1"; f=$T/x/chaos-$app-$v-$s.txt
  COOP_BUILD_OPTIONS="$o" timeout 30 $B/coop-bench $app --gen grid:200:200 --task light --period-ms 1 --chaos $s --repeat 1 > $f 2>&1
  rc=$?; echo "$app $v $s rc=$rc $(grep -cE '^check: every run' $f) $(grep -oE 'kills [0-9]+, forks [0-9]+' $f) $(grep -oE '[0-9]+ of [0-9]+ nodes differ|no progress' $f | head -1)"; done; done; done > $T/x/summary.txt
cat $T/x/summary.txt
for v in c h; do for app in sssp sssp-bf; do echo "$app $v: right $(grep -E "^$app $v .* rc=0 1" $T/x/summary.txt | wc -l) of 20"; done; done
timeout 150 $B/coop-chaos --seeds 20 > $T/x/coop-chaos.txt 2>&1; echo "coop-chaos c rc=$?: $(tail -1 $T/x/coop-chaos.txt | cut -c1-120)"
tar -cf $OUT/run152.tar -C $T x
