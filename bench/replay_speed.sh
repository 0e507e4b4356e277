#!/bin/sh
# bench/replay_speed.sh — the otf2 workload's speed and memory (issue 56):
# the LAMMPS trace `make traces` writes (16 ranks, 300 LJ steps), replayed
# on xc-12cab, beside the lammps proxy of the same size (4,000 atoms on
# 16 ranks: atoms_per_rank 250, 300 steps, re-neighbouring every 20,
# thermo every 50; docs/workloads/otf2.md, "LAMMPS: trace and proxy");
# and the largest trace `make traces` writes (HPCC, 4 ranks), for the
# peak memory of a streamed replay. Per run: wall seconds, peak resident
# memory, simulated ms, messages and bytes the job moved (jobs.csv), and
# for a replay the trace's records per wall second.
#
# Usage: bench/replay_speed.sh   (after make traces; skipped without it)
#   DFSIM=path/to/dfsim   TRACES=folder of the traces (traces)
DFSIM=${DFSIM:-build/dfsim}
TRACES=${TRACES:-traces}
TMP=$(mktemp -d /tmp/dfsim-replay-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ABS=$(cd "$(dirname "$TRACES")" && pwd)/$(basename "$TRACES")
if [ ! -f "$TRACES/lammps-lj/traces.otf2" ]; then
    echo "replay_speed: no $TRACES/lammps-lj/traces.otf2 (make traces writes it): skipped"
    exit 0
fi

job() { # NAME WORKLOAD-KEYS NODES
    cat >"$TMP/$1.cfg" <<CFG
experiment = { name = "$1"; seed = 1; };
system = { name = "xc-12cab"; };
jobs = ( { name = "$1"; nodes = $3; $2 } );
CFG
}
records() { "$DFSIM" trace "$1" | awk '/^records/ { print $2 }'; }
run() { # NAME [RECORDS]
    /usr/bin/time -f "%e %M" -o "$TMP/$1.time" \
        "$DFSIM" run "$TMP/$1.cfg" -o "$TMP/$1" --force >/dev/null 2>&1 ||
        { echo "$1: dfsim failed" >&2; exit 1; }
    read -r wall rss <"$TMP/$1.time"
    tail -1 "$TMP/$1/jobs.csv" | awk -F, -v n="$1" -v w="$wall" -v m="$rss" \
        -v rec="${2:-0}" '{ printf "%-22s %8.2f %10.1f %12.3f %9d %14.0f %12s\n",
          n, w, m / 1024, $12 / 1000, $15, $16,
          (rec > 0 ? sprintf("%.0f", rec / w) : "-") }'
}

printf "%-22s %8s %10s %12s %9s %14s %12s\n" run "wall s" "peak MiB" \
    "simulated ms" messages bytes "records/s"
L=$ABS/lammps-lj/traces.otf2
job lammps-replay "workload = \"otf2\"; trace = \"$L\";" 16
run lammps-replay "$(records "$L")"
job lammps-replay-nocomp "workload = \"otf2\"; trace = \"$L\"; compute_scale = 0.0;" 16
run lammps-replay-nocomp "$(records "$L")"
job lammps-proxy "workload = \"lammps\"; atoms_per_rank = 250; iterations = 300; reneighbor_every = 20; thermo_every = 50;" 16
run lammps-proxy
echo
echo "what each asks of the network (bench/workload_mix.c):"
"$(dirname "$DFSIM")/bench/workload_mix" examples/traces/lammps-mix.cfg ||
    echo "(build/bench/workload_mix: make bench builds it)"
echo
H=$ABS/hpcc/traces.otf2
if [ -f "$H" ]; then
    job hpcc-replay "workload = \"otf2\"; trace = \"$H\";" 4
    run hpcc-replay "$(records "$H")"
    echo "hpcc trace: $(du -sh "$ABS/hpcc" | cut -f1) on disk"
fi
