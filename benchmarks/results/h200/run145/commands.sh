#!/bin/bash
# GPU run 145: run 144's barrier (gpu/r144) with slow paths inlined by its switches
# (-DCOOP_COLD_<name>=inline): every megakernel's registers; then, for a shape that gives sssp-bf
# 40, times against the committed tree (gpu/r138), two alternations.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc145; mkdir -p $T/x; G=gpu/graphs
regs() { local d=$T/d; rm -rf $d; mkdir -p $d
  COOP_BUILD_OPTIONS="$3" COOP_BUILD_DUMP=$d gpu/$1/coop-bench $2 --mode cooperative --gen grid:30:30 > $d/out.txt 2>&1
  for f in $d/*.bin; do tr -d '\000' < $f > $d/k.ptx; done
  ptxas -arch=sm_90 -v $d/k.ptx -o $d/k.cubin > $d/v.txt 2>&1; cuobjdump -sass $d/k.cubin > $d/k.sass
  echo "$(grep -A2 'Function properties for .*_mega$' $d/v.txt | grep -oE 'Used [0-9]+ registers' | tr '\n' ' ') voteu $(grep -c VOTEU $d/k.sass)"; }
best=""
for combo in "" "grow" "resize_decision" "grow resize_decision" "take_tokens" "grow take_tokens" "resize_commit" "publish_fork" "grow resize_decision take_tokens"; do
  o=""; for f in $combo; do o="$o -DCOOP_COLD_coop_$f=inline"; done
  line="[$combo]"; ok=1
  for app in sssp-bf bfs mis sssp color; do r=$(regs r144 $app "$o"); line="$line $app: $r;"; done
  echo "$line" | tee -a $T/x/registers.txt
  if [ -z "$best" ] && echo "$line" | grep -q "sssp-bf: Used 40"; then best="$o"; fi
done
echo "chosen: [$best]" | tee -a $T/x/registers.txt
if [ -n "$best" ]; then
run() { local v=$1 f=$T/x/$2.txt; shift 2; local b=gpu/r138/coop-bench o=""; [ $v = new ] && b=gpu/r144/coop-bench && o="$best"
  COOP_BUILD_OPTIONS="$o" timeout 120 $b "$@" > $f 2>&1; echo "$(basename $f .txt): rc=$? $(grep -E '^time median' $f | cut -c1-60)"; }
for r in 1 2; do
 for c in "sssp-bf|--graph $G/USA-road-FLA.pace16.gr.xz|5|792" "sssp-bf|--gen grid:1000:1000|5|792" "bfs|--graph $G/USA-road-NY.pace16.gr.xz|30|132" "mis|--gen grid:1000:1000|300|660" "sssp|--graph $G/USA-road-FLA.pace16.gr.xz|8|396" "sssp|--graph $G/email-Enron.txt.gz|200|660"; do
  IFS="|" read -r app in rep g <<< "$c"; tag=$app-$(echo $in | sed -E 's#.*/##; s#--gen ##; s#[.:].*##')
  for v in old new; do run $v $tag-$v-$r $app $in --mode cooperative --groups $g --repeat $rep; done
 done
done
fi
tar -cf $OUT/run145.tar -C $T x
