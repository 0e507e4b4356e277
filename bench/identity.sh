#!/bin/sh
# bench/identity.sh — the fingerprint of dfsim's results, for a change that
# must keep every result byte-identical (a redesign, a speed-up): each
# result file of a fixed set of experiments, and every bench_net hash,
# as one "sha256  experiment/file" line each. Run it before and after the
# change and diff the two outputs; nothing may differ.
#
# The set (issue 53's evidence): make run's experiment (examples/
# default.cfg, full length), every example under --quick (which covers
# sc20-impact-malbec, ics21-fig5 and latency-load), and bench_net --quick
# 1..8 (its hashes); about two minutes on a 2-core machine. With
# IDENTITY_FULL=1 also four examples at full length (sc20-tc, cug-fig6,
# ics21-table1, sc20-impact-malbec: Slingshot's traffic classes and CC,
# Gemini's counters, the four ICS'21 controllers; about 4 minutes more).
#
# Usage: bench/identity.sh [OUT]   (OUT: a scratch folder, default a new
#        one under /tmp, removed at the end)
#   DFSIM=path/to/dfsim  BENCH=path/to/bench_net   to choose the binaries
#   IDENTITY_FAST=1      leave make run's full-length experiment out
set -e
DFSIM=${DFSIM:-build/dfsim}
BENCH=${BENCH:-build/bench/bench_net}
TMP=${1:-$(mktemp -d /tmp/dfsim-identity-XXXXXX)}
[ -n "$1" ] || trap 'rm -rf "$TMP"' EXIT

run() { # NAME FILE ARGS...
    name=$1; file=$2; shift 2
    "$DFSIM" run "$file" -o "$TMP/$name" --force "$@" >"$TMP/$name.console" 2>&1 ||
        { echo "$name: dfsim failed" >&2; cat "$TMP/$name.console" >&2; exit 1; }
    (cd "$TMP" && find "$name" -type f | LC_ALL=C sort | xargs sha256sum)
}

[ -n "$IDENTITY_FAST" ] || run default examples/default.cfg
for f in examples/*.cfg; do
    run "quick-$(basename "$f" .cfg)" "$f" --quick
done
if [ -n "$IDENTITY_FULL" ]; then
    for f in sc20-tc cug-fig6 ics21-table1 sc20-impact-malbec; do
        run "$f" "examples/$f.cfg"
    done
fi
"$BENCH" --quick 1 2 3 4 5 6 7 8 | awk '$NF == "yes" || $NF == "CHANGED" {
    print "bench_net", $1, $2, $3, $(NF - 3), $(NF - 2), $NF }'
