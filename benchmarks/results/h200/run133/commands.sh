#!/bin/bash
# GPU run 133: the first K groups to arrive after the agent (those nearest the device area's words:
# run 121) take ids 0 .. K-1, the rest ids against arrival order as now (experiment.patch,
# -DCOOP_EXP_IDS_HEAD=K), K = 8 and 32, against the default, both forms; then sched-bench's gather
# and bfs beside a task. Two alternations (the gathers four).
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc133; mkdir -p $T/x; date -u > $T/x/machine133.txt; nvidia-smi -L >> $T/x/machine133.txt 2>&1
B=gpu/r133/coop-bench-exp; G=gpu/graphs
opt() { case $1 in forward) echo -DCOOP_EXP_IDS_FORWARD=1;; head8) echo -DCOOP_EXP_IDS_HEAD=8;; head32) echo -DCOOP_EXP_IDS_HEAD=32;; *) echo "";; esac; }
q() { python3 -c "
import json,statistics; j=json.load(open('$1')); t=sorted(x['time_ms'] for x in j['runs'] if not x.get('warmup')); n=len(t)
print('n %d min %.4f p25 %.4f median %.4f p75 %.4f max %.4f' % (n, t[0], t[n//4], statistics.median(t), t[3*n//4], t[-1]))"; }
for r in 1 2; do
 for c in "bfs|NY|--graph $G/USA-road-NY.pace16.gr.xz|132|30" "bfs|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|132|10" \
          "bfs|grid|--gen grid:1000:1000|264|20" "sssp|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|396|10" \
          "mis|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400" "color|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400"; do
  IFS="|" read -r app tag in g rep <<< "$c"
  for v in default head8 head32; do
   for m in standalone cooperative; do f=$T/x/$app-$tag-$m-$v-$r
    COOP_BUILD_OPTIONS="$(opt $v)" timeout 120 $B $app $in --mode $m --groups $g --repeat $rep --json $f.json > $f.txt 2>&1
    echo "$app $tag $m $v r$r rc=$?: $(q $f.json)"
  done; done; done; done
for r in 1 2 3 4; do for v in default head8 head32; do f=$T/x/sched-$v-$r.txt
  timeout 60 gpu/r133/sched-bench-exp --tasks 300 --repeat 1 --options "$(opt $v)" > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
for r in 1 2; do for v in default head32; do f=$T/x/sched-half-$v-$r.txt
  timeout 60 gpu/r133/sched-bench-exp --tasks 300 --repeat 1 --take half --options "$(opt $v)" > $f 2>&1
  echo "sched half $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g')"
  f=$T/x/bfs-task-$v-$r.txt
  COOP_BUILD_OPTIONS="$(opt $v)" timeout 90 $B bfs --graph $G/USA-road-FLA.pace16.gr.xz --task light --steal half --searches 180 --repeat 1 > $f 2>&1
  echo "bfs light half $v r$r rc=$?: $(grep -E '^tasks' $f | sed -E 's/.*: response/response/' | cut -c1-150)"
done; done
cd $T/x && gzip *.json && cd - > /dev/null
tar -cf $OUT/run133.tar -C $T x
