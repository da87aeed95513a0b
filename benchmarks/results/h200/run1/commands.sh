#!/bin/bash
# GPU run 1 of 2026-11-25: issue 16's device checks. Run from the repository root.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
B=gpu/build/bin
R=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } > $R/machine.txt
$B/coop-info > $R/coop-info.txt 2>&1
echo "== merge-bench" 
for L in 128 256; do
  $B/merge-bench --repeat 11 --local-size $L --merged gpu/build/merge-bench/rounds.cl:rounds_coop_mega > $R/merge-bench-$L.txt 2>&1; echo "merge-bench $L rc=$?" >> $R/merge-bench-$L.txt
done
tail -n 4 $R/merge-bench-*.txt
echo "== barrier-bench plain / vote, alternating"
for r in 1 2; do
  $B/barrier-bench > $R/barrier-plain-$r.txt 2>&1; echo "rc=$?" >> $R/barrier-plain-$r.txt
  $B/barrier-bench --vote > $R/barrier-vote-$r.txt 2>&1; echo "rc=$?" >> $R/barrier-vote-$r.txt
done
cat $R/barrier-plain-*.txt $R/barrier-vote-*.txt > $R/barrier-bench-vote.txt; rm $R/barrier-plain-* $R/barrier-vote-*
cat $R/barrier-bench-vote.txt
echo "== compile-bench (programs merged on the development machine)"
$B/compile-bench --merged gpu/cbm > $R/compile-bench.txt 2>&1; echo "rc=$?" >> $R/compile-bench.txt
tail -n 3 $R/compile-bench.txt
echo "== components"
{ $B/components; echo "plain rc=$?"
  for s in $(seq 1 20); do $B/components --chaos $s > /tmp/c.txt 2>&1; rc=$?; echo "seed $s rc=$rc: $(tail -n 1 /tmp/c.txt)"; done; } > $R/components.txt 2>&1
tail -n 22 $R/components.txt
echo "== coop-chaos"
$B/coop-chaos --seeds 20 > $R/coop-chaos.txt 2>&1; echo "rc=$?" >> $R/coop-chaos.txt
tail -n 3 $R/coop-chaos.txt
