#!/bin/bash
# GPU run 130: member ids in discovery order (experiment.patch, -DCOOP_EXP_IDS_FORWARD through
# COOP_BUILD_OPTIONS: member 0 is the first group to arrive after the agent) against the default
# (ids against arrival order: member 0 is the last to arrive), and the standalone kernel; every
# run's time (--json), two alternations; then sched-bench's gather both ways.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc130; mkdir -p $T/x; date -u > $T/x/machine130.txt; nvidia-smi -L >> $T/x/machine130.txt 2>&1
B=gpu/r130/coop-bench-exp; G=gpu/graphs
q() { python3 -c "
import json,statistics; j=json.load(open('$1')); t=sorted(x['time_ms'] for x in j['runs'] if not x.get('warmup')); n=len(t)
print('   n %d min %.4f p25 %.4f median %.4f p75 %.4f max %.4f' % (n, t[0], t[n//4], statistics.median(t), t[3*n//4], t[-1]))"; }
for r in 1 2; do
 for c in "bfs|NY|--graph $G/USA-road-NY.pace16.gr.xz|132|30" "bfs|grid|--gen grid:1000:1000|264|20" \
          "bfs|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|132|10" "mis|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400" \
          "color|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400" "sssp-bf|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|20" \
          "mis|grid|--gen grid:1000:1000|660|400"; do
  IFS="|" read -r app tag in g rep <<< "$c"
  for m in standalone cooperative forward; do f=$T/x/$app-$tag-$m-$r
    if [ $m = forward ]; then COOP_BUILD_OPTIONS=-DCOOP_EXP_IDS_FORWARD=1 timeout 120 $B $app $in --mode cooperative --groups $g --repeat $rep --json $f.json > $f.txt 2>&1
    else timeout 120 $B $app $in --mode $m --groups $g --repeat $rep --json $f.json > $f.txt 2>&1; fi
    echo "$app $tag $m r$r rc=$?: $(q $f.json)"
  done; done; done
for r in 1 2 3; do for v in default forward; do f=$T/x/sched-$v-$r.txt; o=""; [ $v = forward ] && o="-DCOOP_EXP_IDS_FORWARD=1"
  timeout 60 gpu/r130/sched-bench-exp --tasks 300 --repeat 1 --options "$o" > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
cd $T/x && gzip *.json && cd - > /dev/null
tar -cf $OUT/run130.tar -C $T x
