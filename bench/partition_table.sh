#!/bin/bash
# bench/partition_table.sh — the lookahead and the largest number of
# processes of every built-in system, as `dfsim topo NAME --partitions P
# --json` gives them (net/partition.c; issue 54): a Markdown table row per
# system, the table of docs/performance.md's last section. Needs jq.
#
#   bench/partition_table.sh [DFSIM]     (default build/dfsim)
set -eu
BIN=${1:-build/dfsim}
cd "$(dirname "$0")/.."
echo "| system | family | P at most | L at P = 2 (ns) | L at the most P (ns) | set by (at the most P) | least arrival across (ns) | imbalance at the most P |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for s in $("$BIN" list system | awk 'NR > 1 { print $1 }'); do
    m=$("$BIN" topo "$s" --partitions 1 --json | jq .max_partitions)
    two=$("$BIN" topo "$s" --partitions $((m >= 2 ? 2 : 1)) --json)
    "$BIN" topo "$s" --partitions "$m" --json |
        jq -r --argjson two "$two" '
        "| \(.system) | \(.family) | \(.max_partitions) \(.unit)" +
        (if .max_partitions > 1 then "s" else "" end) +
        (if .dimension then " (" + .dimension + ")" else "" end) +
        " | \($two.lookahead_ns // "none") | \(.lookahead_ns // "none") | " +
        (if .lookahead_link then .lookahead_event + " over " +
            .lookahead_link.kind + ", " + .lookahead_link.medium
         else "nothing cut" end) +
        " | \(.arrive_min_ns // "—") | \(.imbalance) |"'
done
