#!/bin/bash
# The FSE'17 kernels (merged on the workstation) through fse17-run: plain and 20 chaos seeds each.
D=$(dirname "$0")
fail=0
for k in lonestar_bfs lonestar_sssp pannotia_mis pannotia_color graph_color pannotia_sssp pannotia_bc simple_barrier octree; do
  "$D/fse17-run" $k --merged "$D/merged/$k.cl" --chaos 0,1-20 --watchdog 60 --timeout 120 > "$OUT/fse17-$k.txt" 2>&1
  rc=$?
  [ $rc = 0 ] || fail=1
  echo "$k rc=$rc: $(grep -c 'status=equal' "$OUT/fse17-$k.txt") of $(grep -c RESULT "$OUT/fse17-$k.txt") equal; first: $(grep -m1 RESULT "$OUT/fse17-$k.txt" | grep -o 'groups=[0-9]*.*')"
  echo "   chaos totals: kills $(grep RESULT "$OUT/fse17-$k.txt" | grep -o 'kills=[0-9]*' | cut -d= -f2 | awk '{s+=$1} END {print s+0}'), forks $(grep RESULT "$OUT/fse17-$k.txt" | grep -o 'forks=[0-9]*' | cut -d= -f2 | awk '{s+=$1} END {print s+0}')"
done
exit $fail
