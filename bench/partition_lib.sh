# bench/partition_lib.sh — what bench/partition_speed.sh and
# bench/partition_model.sh share (sourced, not run): the scratch folder,
# the mpirun check, an experiment file for one traffic run, the figures
# of a run's summary line on stderr, and a median.
#
# partition_setup NAME: DFSIM defaulted, TMP made (removed at exit),
# mpirun allowed as root; exits 0 with "NAME: no mpirun: skipped" without
# it.
partition_setup() {
    DFSIM=${DFSIM:-build/dfsim}
    TMP=$(mktemp -d "/tmp/dfsim-$1-XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    if ! command -v mpirun >/dev/null 2>&1; then
        echo "$1: no mpirun: skipped"
        exit 0
    fi
}

cfg() { # NAME SYSTEM ROUTING LOAD WARM MEASURE: $TMP/NAME.cfg
    cat >"$TMP/$1.cfg" <<CFG
experiment = { name = "$1"; seed = 1; };
system = { name = "$2"; };
network = { routing = "$3"; };
probe = { pairs = 1; };
traffic = { pattern = "uniform"; loads = [$4]; warmup_us = $5;
            measure_us = $6; drain_us = 50.0; };
CFG
}

# The summary line of a one-point sweep's stderr in FILE, as "wall
# windows crossed compute_mean compute_max exchange" (the run's own wall
# seconds; "-" for what a classic run does not say).
summary() { # FILE
    grep '^traffic 1/1' "$1" | sed 's/.*: offered//' | awk '{
        w = "-"; x = "-"; cm = "-"; cx = "-"; ex = "-"; wall = "-"
        for (i = 1; i <= NF; i++) {
            if ($(i+1) ~ /^windows,/) w = $i
            if ($(i+1) == "packets" && $(i+2) ~ /^crossed/) x = $i
            if ($i == "windows" && $(i+1) ~ /^[0-9.]+$/) cm = $(i+1)
            if ($i == "(busiest") { cx = $(i+1); sub(/\),?/, "", cx) }
            if ($i == "exchange") ex = $(i+1)
            if ($i ~ /^\(/ && $(i+1) == "s,") { wall = $i; sub(/\(/, "", wall) }
        }
        print wall, w, x, cm, cx, ex }'
}

# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ROUNDS interleaved rounds of the caller's `one ARG KIND` for KIND in
# classic, p1 and mpi2: $TMP/KIND.w the first field (the wall seconds)
# of each, $TMP/KIND.last the last one's line.
interleave() { # ARG
    : >"$TMP/classic.w"; : >"$TMP/p1.w"; : >"$TMP/mpi2.w"
    for r in $(seq "$ROUNDS"); do
        for k in classic p1 mpi2; do
            one "$1" $k >"$TMP/$k.last"
            cut -d' ' -f1 "$TMP/$k.last" >>"$TMP/$k.w"
        done
    done
}
