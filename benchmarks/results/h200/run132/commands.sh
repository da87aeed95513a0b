#!/bin/bash
# GPU run 132: member ids interleaved by arrival (experiment.patch, -DCOOP_EXP_IDS_INTERLEAVED: the
# k-th group to arrive after the agent gets id k/2 when k is even, M-1-(k-1)/2 when odd, so that both
# the low ids and the largest ones go to the groups that reach the device area's words first) against
# the default and forward, both forms; then sched-bench's gather and bfs beside a task, default
# against interleaved. Two alternations (the gathers four).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc132; mkdir -p $T/x; date -u > $T/x/machine132.txt; nvidia-smi -L >> $T/x/machine132.txt 2>&1
B=gpu/r132/coop-bench-exp; G=gpu/graphs
opt() { case $1 in forward) echo -DCOOP_EXP_IDS_FORWARD=1;; inter) echo -DCOOP_EXP_IDS_INTERLEAVED=1;; *) echo "";; esac; }
q() { python3 -c "
import json,statistics; j=json.load(open('$1')); t=sorted(x['time_ms'] for x in j['runs'] if not x.get('warmup')); n=len(t)
print('n %d min %.4f p25 %.4f median %.4f p75 %.4f max %.4f' % (n, t[0], t[n//4], statistics.median(t), t[3*n//4], t[-1]))"; }
for r in 1 2; do
 for c in "bfs|NY|--graph $G/USA-road-NY.pace16.gr.xz|132|30" "bfs|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|132|10" \
          "bfs|grid|--gen grid:1000:1000|264|20" "sssp|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|396|10" \
          "sssp-bf|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|20" "mis|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400"; do
  IFS="|" read -r app tag in g rep <<< "$c"
  for v in default forward inter; do
   for m in standalone cooperative; do f=$T/x/$app-$tag-$m-$v-$r
    COOP_BUILD_OPTIONS="$(opt $v)" timeout 120 $B $app $in --mode $m --groups $g --repeat $rep --json $f.json > $f.txt 2>&1
    echo "$app $tag $m $v r$r rc=$?: $(q $f.json)"
  done; done; done; done
for r in 1 2 3 4; do for v in default inter; do f=$T/x/sched-$v-$r.txt
  timeout 60 gpu/r132/sched-bench-exp --tasks 300 --repeat 1 --options "$(opt $v)" > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
for r in 1 2; do for v in default inter; do f=$T/x/sched-half-$v-$r.txt
  timeout 60 gpu/r132/sched-bench-exp --tasks 300 --repeat 1 --take half --options "$(opt $v)" > $f 2>&1
  echo "sched half $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"
  f=$T/x/bfs-task-$v-$r.txt
  COOP_BUILD_OPTIONS="$(opt $v)" timeout 90 $B bfs --graph $G/USA-road-FLA.pace16.gr.xz --task light --steal half --searches 180 --repeat 1 > $f 2>&1
  echo "bfs light half $v r$r rc=$?: $(grep -E '^tasks' $f | sed -E 's/.*: response/response/' | cut -c1-150)"
done; done
cd $T/x && gzip *.json && cd - > /dev/null
tar -cf $OUT/run132.tar -C $T x
