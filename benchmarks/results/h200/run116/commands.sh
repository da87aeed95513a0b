#!/bin/bash
# GPU run 116 (review): kernels/lib/hash.h's hash_fmix32 now serves priority.h and demo.cl: the
# PTX of colour's, mis's and the demo's programs before (o, dddf647's kernels) and after (n),
# compared, with their registers; the demo's checks against the CPU.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA PATH=$PATH:/usr/local/cuda/bin
T=/tmp/tc116; mkdir -p $T/x; date -u > $T/x/machine116.txt; nvidia-smi -L >> $T/x/machine116.txt 2>&1
for v in o n; do
  for app in color mis; do for m in cooperative standalone; do d=$T/d-$v-$app-$m; mkdir -p $d
    COOP_BUILD_DUMP=$d gpu/r116/coop-bench-$v $app --mode $m --gen grid:30:30 > $T/x/$v-$app-$m.txt 2>&1
  done; done
  d=$T/d-$v-demo; mkdir -p $d
  COOP_BUILD_DUMP=$d gpu/r116/coop-demo-$v --gen grid:64:64 --seconds 1 --out $T/demo-$v > $T/x/$v-demo.txt 2>&1; echo "demo $v rc=$?"
done
for d in $T/d-o-*; do n=${d/d-o-/d-n-}; for f in $d/*.bin; do g=$n/$(basename $f)
  tr -d '\000' < $f | grep -v '^//' > $T/a.ptx; tr -d '\000' < $g | grep -v '^//' > $T/b.ptx
  ptxas -arch=sm_90 $T/b.ptx -o $T/b.cubin
  echo "$(basename $d) $(basename $f): $(cmp -s $T/a.ptx $T/b.ptx && echo same PTX || echo PTX DIFFERS) | $(cuobjdump -res-usage $T/b.cubin | grep -A1 Function | paste - - | sed -E 's/ +/ /g' | cut -c1-60)"
done; done | tee $T/x/compare.txt
grep -h -E '^check|agree|equal' $T/x/*.txt | head -12
tar -cf $OUT/run116.tar -C $T x
