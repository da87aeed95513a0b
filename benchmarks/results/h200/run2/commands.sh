#!/bin/bash
# GPU run 2 of 2026-11-25: the vote's cost against its budget, merge-bench's barrier-heavy case,
# the published FSE'17 kernels. Run from the repository root.
. gpu/nvidia-opencl-env.sh
export COOP_PLATFORM=NVIDIA
B=gpu/build/bin
R=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/machine2.txt
echo "== barrier-bench: plain, vote (one voter at half), vote (all), plain + one atomic per group; alternating"
for r in 1 2; do
  for v in plain vote1 vote2 atomic; do
    case $v in
      plain) o="";; vote1) o="--vote";; vote2) o="--options -DCOOP_BARRIER_VOTE=2";; atomic) o="--options -DCOOP_BARRIER_EXTRA_ATOMIC=1";;
    esac
    echo "## run $r: barrier-bench $o"; $B/barrier-bench $o; echo "rc=$?"
  done
done > $R/barrier-bench-vote-budget.txt 2>&1
grep -v '^ratio' $R/barrier-bench-vote-budget.txt
echo "== merge-bench 5000 x 300"
for L in 128 256; do
  $B/merge-bench --repeat 11 --rounds 5000 --iters 300 --local-size $L --merged gpu/build/merge-bench/rounds.cl:rounds_coop_mega; echo "rc=$?"
done > $R/merge-bench-5000x300.txt 2>&1
cat $R/merge-bench-5000x300.txt
if [ -d gpu/ext ]; then
  echo "== FSE'17 kernels"
  timeout 300 bash gpu/ext/run-all.sh --merged gpu/ext/merged > $R/fse17.txt 2>&1; echo "rc=$?" >> $R/fse17.txt
  tail -n 40 $R/fse17.txt
fi
