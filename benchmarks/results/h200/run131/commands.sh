#!/bin/bash
# GPU run 131: member ids by discovery ticket, three ways, in both forms (COOP_BUILD_OPTIONS reaches
# the standalone kernel too): the default (against arrival order: member 0 the last to arrive),
# forward (-DCOOP_EXP_IDS_FORWARD: in arrival order) and zero-first (-DCOOP_EXP_IDS_ZERO_FIRST:
# member 0 the first to arrive after the agent, the rest against arrival order); every run's time
# (--json), two alternations; then sched-bench's gather, default against zero-first.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc131; mkdir -p $T/x; date -u > $T/x/machine131.txt; nvidia-smi -L >> $T/x/machine131.txt 2>&1
B=gpu/r131/coop-bench-exp; G=gpu/graphs
q() { python3 -c "
import json,statistics; j=json.load(open('$1')); t=sorted(x['time_ms'] for x in j['runs'] if not x.get('warmup')); n=len(t)
print('n %d min %.4f p25 %.4f median %.4f p75 %.4f max %.4f' % (n, t[0], t[n//4], statistics.median(t), t[3*n//4], t[-1]))"; }
for r in 1 2; do
 for c in "bfs|NY|--graph $G/USA-road-NY.pace16.gr.xz|132|30" "bfs|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|132|10" \
          "bfs|grid|--gen grid:1000:1000|264|20" "sssp|FLA|--graph $G/USA-road-FLA.pace16.gr.xz|396|10" \
          "mis|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400" "color|NY|--graph $G/USA-road-NY.pace16.gr.xz|528|400"; do
  IFS="|" read -r app tag in g rep <<< "$c"
  for v in default forward zero; do o=""; [ $v = forward ] && o=-DCOOP_EXP_IDS_FORWARD=1; [ $v = zero ] && o=-DCOOP_EXP_IDS_ZERO_FIRST=1
   for m in standalone cooperative; do f=$T/x/$app-$tag-$m-$v-$r
    COOP_BUILD_OPTIONS="$o" timeout 120 $B $app $in --mode $m --groups $g --repeat $rep --json $f.json > $f.txt 2>&1
    echo "$app $tag $m $v r$r rc=$?: $(q $f.json)"
  done; done; done; done
for r in 1 2 3; do for v in default zero; do f=$T/x/sched-$v-$r.txt; o=""; [ $v = zero ] && o="-DCOOP_EXP_IDS_ZERO_FIRST=1"
  timeout 60 gpu/r131/sched-bench-exp --tasks 300 --repeat 1 --options "$o" > $f 2>&1
  echo "sched $v r$r rc=$?: $(grep -E 'gather +median' $f | head -1 | sed 's/  */ /g') | $(grep -E 'exec +median' $f | head -1 | sed 's/  */ /g' | cut -c1-40)"
done; done
cd $T/x && gzip *.json && cd - > /dev/null
tar -cf $OUT/run131.tar -C $T x
