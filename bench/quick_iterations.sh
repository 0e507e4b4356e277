#!/bin/bash
# bench/quick_iterations.sh — what `dfsim run --quick` exercises, example
# by example: each examples/*.cfg run with --quick into a fresh folder,
# a line each with its exit status, its wall time, how many of its
# measured jobs (not the fill's, not background) counted no iteration,
# how many iterations were counted, and an impact study's rows; then the
# totals. Issue 57 (item 4) measured --quick with it.
#
#   bench/quick_iterations.sh [DFSIM]     (default build/dfsim)
set -u
BIN=${1:-build/dfsim}
cd "$(dirname "$0")/.."
OUT=$(mktemp -d /tmp/dfsim-quick-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
none=0; some=0; jz=0; jn=0; total=0
for f in examples/*.cfg; do
  n=$(basename "$f" .cfg); d=$OUT/$n
  s=$(date +%s.%N)
  "$BIN" run "$f" --quick -o "$d" > "$d.out" 2> "$d.err"
  rc=$?
  e=$(date +%s.%N)
  secs=$(echo "$e - $s" | bc)
  total=$(echo "$total + $secs" | bc)
  line=$(printf "%-28s rc=%d %6.1fs" "$n" "$rc" "$secs")
  if [ -f "$d/jobs.csv" ]; then
    read z k < <(awk -F, 'NR>1 && $9==0 && $3 !~ /^bg-/ {n++; if ($14==0) z++} END {print z+0, n+0}' "$d/jobs.csv")
    c=$(awk -F, 'NR>1 && $6==1' "$d/iterations.csv" | wc -l)
    line="$line jobs_without_iteration=$z/$k counted=$c"
    jz=$((jz + z)); jn=$((jn + k))
    [ "$z" -gt 0 ] && some=$((some + 1))
    [ "$c" -eq 0 ] && none=$((none + 1))
  fi
  [ -f "$d/impact.csv" ] && line="$line impact_rows=$(($(wc -l < "$d/impact.csv") - 1))"
  echo "$line"
done
echo "examples counting no iteration at all: $none; with a job that counts none: $some; jobs without an iteration: $jz of $jn; all runs: $total s"
