#!/bin/sh
# bench/partition_jobs.sh — a run of jobs over two processes (issue 54):
# an experiment with jobs run classic (one process, no windows:
# --partitions 0, whatever experiment.windowed says), in
# windows in one process (--partitions 1: the reference every P
# reproduces) and over two MPI ranks (mpirun -np 2 --partitions 2),
# interleaved ROUNDS times; per run the wall seconds of the whole
# command (set-up, probe and report included: what a user waits for)
# and the peak resident memory of a process (two ranks: the larger).
# Speed-up and efficiency are against the classic run of the same
# binary, medians over the rounds; the two-rank run's result files must
# equal the one-process windowed run's, byte for byte ("same"), and the
# windowed run's iterations.csv is compared with the classic run's
# ("as classic": the windowed rules change the stop and the ties of
# credit returns between groups, docs/performance.md).
#
# Usage: bench/partition_jobs.sh [FILE...]   (default: examples/default.cfg,
#   make run's experiment)   DFSIM=path/to/dfsim   ROUNDS=n (1)
ROUNDS=${ROUNDS:-1}
. "$(dirname "$0")/partition_lib.sh"
partition_setup partition_jobs
[ $# -gt 0 ] || set -- examples/default.cfg

# one run: FILE KIND (classic, p1, mpi2); prints "wall rss"
one() {
    f=$1 kind=$2
    case $kind in
    classic) set -- "$DFSIM" run --partitions 0 ;;
    p1) set -- "$DFSIM" run --partitions 1 ;;
    mpi2) set -- mpirun -np 2 "$DFSIM" run --partitions 2 ;;
    esac
    /usr/bin/time -f "%e %M" -o "$TMP/time" "$@" "$f" -o "$TMP/$kind" \
        --force >"$TMP/out" 2>"$TMP/err" ||
        { echo "$f $kind: dfsim failed" >&2; tail "$TMP/err" >&2; exit 1; }
    cat "$TMP/time"
}

echo "medians of $ROUNDS interleaved round(s); wall: the whole command's seconds; MiB: peak resident (two ranks: the larger)"
printf "%-28s %8s %8s %8s %8s %6s %8s %8s %8s %5s %10s\n" run classic "P=1" \
    "2 ranks" speedup eff "MiB cl" "MiB P1" "MiB 2r" same "as classic"
for f in "$@"; do
    interleave "$f"
    same=yes
    for x in "$TMP"/p1/*.csv; do
        cmp -s "$x" "$TMP/mpi2/$(basename "$x")" || same=NO
    done
    cmp -s "$TMP/p1/iterations.csv" "$TMP/classic/iterations.csv" &&
        asc=yes || asc=no
    c=$(median <"$TMP/classic.w"); p=$(median <"$TMP/p1.w")
    m=$(median <"$TMP/mpi2.w")
    read -r _ rc <"$TMP/classic.last"
    read -r _ rp <"$TMP/p1.last"
    read -r _ rm <"$TMP/mpi2.last"
    awk -v n="$(basename "$f" .cfg)" -v c="$c" -v p="$p" -v m="$m" \
        -v rc="$rc" -v rp="$rp" -v rm="$rm" -v s="$same" -v a="$asc" 'BEGIN {
        printf "%-28s %8.2f %8.2f %8.2f %8.2f %6.2f %8.1f %8.1f %8.1f %5s %10s\n",
          n, c, p, m, c / m, c / m / 2, rc / 1024, rp / 1024, rm / 1024, s, a }'
done
