#!/bin/sh
# bench/production_speed.sh — what a production fill costs (exp/production.h):
# simulated microseconds per second of CPU time at a few scales, the table
# of docs/experiment-files.md ("What a fill costs").
#
# Each case is examples/production.cfg's mix (its compute gap changed) on a
# system, with one measured job that only waits (a 2-node barrier after
# SPAN us of compute) so that every case simulates the same span from time
# 0, the fill's start-up included. It prints the offered load the run
# measured (load.csv) and the rate. Run it alone: the machine's other work
# slows it.
#
# Usage: bench/production_speed.sh [CASE...]   (default: all; cases below)
#   xc85      xc-12cab, fill 0.85, 15 us gaps, 300 us      (~3.5 min)
#   xc85low   xc-12cab, fill 0.85, 200 us gaps, 800 us     (~4 min)
#   xc50      xc-12cab, fill 0.50, 15 us gaps, 300 us      (~1.5 min)
#   xc3g      3-group XC, fill 0.85, 15 us gaps, 300 us    (~1 min)
#   xc2g      2-group XC, fill 0.85, 15 us gaps, 300 us    (~25 s)
set -e
DFSIM=${DFSIM:-build/dfsim}
TMP=$(mktemp -d /tmp/dfsim-prod-speed-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

gen() { # SYSTEM FILL GAP SPAN
    cat <<EOT
experiment = { seed = 1; };
system = { $1 };
jobs = ( { name = "clock"; workload = "barrier"; nodes = 2;
           allocation = "random"; compute_us = $4; iterations = 1; } );
production = {
  fill = $2;
  stagger_us = 50.0;
  mix = (
    { workload = "halo3d"; weight = 3.0; routing = "default";
      nx = 32; ny = 32; nz = 32; fields = 8; compute_us = $3; },
    { workload = "alltoall"; weight = 2.0; routing = "default";
      bytes = 8192; compute_us = $3; },
    { workload = "allreduce"; weight = 2.0; routing = "default";
      bytes = 65536; compute_us = $3; },
    { workload = "incast"; weight = 1.0; routing = "default";
      sizes = [8, 16, 32]; bytes = 65536; compute_us = 50.0; },
    { workload = "gpcnet-rma-incast"; weight = 0.5; routing = "default";
      sizes = [8, 16]; }
  );
};
EOT
}

one() { # NAME SYSTEM FILL GAP SPAN
    gen "$2" "$3" "$4" "$5" > "$TMP/$1.cfg"
    t0=$(date +%s.%N)
    /usr/bin/env time -f "%U" -o "$TMP/$1.cpu" \
        "$DFSIM" run "$TMP/$1.cfg" -o "$TMP/$1" > /dev/null 2>&1
    cpu=$(cat "$TMP/$1.cpu")
    end=$(tail -1 "$TMP/$1/runs.csv" | cut -d, -f3)
    awk -F, -v n="$1" -v cpu="$cpu" -v end="$end" '$2 == "fill" {
        printf "%-8s fill %4d jobs %5d nodes  offered %5.1f %% injection %6.1f %% global  %7.1f us in %6.1f s CPU: %5.2f us/s\n",
               n, $3, $4, 100 * $10, 100 * $11, end, cpu, end / cpu }' \
        "$TMP/$1/load.csv"
}

cases=${*:-xc85 xc85low xc50 xc3g xc2g}
for c in $cases; do
    case $c in
    xc85)    one xc85 'name = "xc-12cab";' 0.85 15.0 300.0 ;;
    xc85low) one xc85low 'name = "xc-12cab";' 0.85 200.0 800.0 ;;
    xc50)    one xc50 'name = "xc-12cab";' 0.50 15.0 300.0 ;;
    xc3g)    one xc3g 'topology = "aries"; groups = 3;' 0.85 15.0 300.0 ;;
    xc2g)    one xc2g 'topology = "aries"; groups = 2;' 0.85 15.0 300.0 ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
    esac
done
