#!/bin/sh
# bench/tracer_overhead.sh — the PMPI tracer's cost per MPI call
# (docs/tracer.md), two ways, each run R times plain and R times under
# LD_PRELOAD=libdfsim-trace.so (alternating), medians printed:
#  - one rank, N MPI_Sendrecv of 8 bytes to itself (an Enter, MpiSend,
#    MpiRecv and Leave per call): the tracer's own cost per call, with no
#    partner to wait for (the figure least disturbed by a loaded machine);
#  - two ranks, a ping-pong of N 8-byte round trips (MPI_Send + MPI_Recv
#    on each rank: the four calls of a round trip follow one another, so
#    each adds its cost to the round trip's time).
# Timed by rank 0 with MPI_Wtime after a warm-up pass; the trace, written
# as its 1 MiB buffers fill, is inside the timing.
#
#   sh bench/tracer_overhead.sh [TRACER (build/libdfsim-trace.so)] [N (200000)] [R (5)]
set -e
TRACER=$(realpath "${1:-build/libdfsim-trace.so}")
N=${2:-200000}
R=${3:-5}
TMP=$(mktemp -d /tmp/dfsim-tracer-bench-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cat > "$TMP/pp.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n = atoi(argv[1]);
    char buf[8] = { 0 };
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int pass = 0; pass < 2; pass++) { /* a warm-up pass, then timed */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) {
            if (size == 1) {
                char in[8];
                MPI_Sendrecv(buf, 8, MPI_BYTE, 0, 0, in, 8, MPI_BYTE, 0, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 0) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (pass == 1 && rank == 0)
            printf("%.1f\n", (MPI_Wtime() - t0) * 1e9 / n);
    }
    MPI_Finalize();
    return 0;
}
C
mpicc -O2 -o "$TMP/pp" "$TMP/pp.c"
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# measure NP: medians of R plain and R traced runs into $plain, $traced
measure() {
    : > "$TMP/plain"
    : > "$TMP/traced"
    for i in $(seq "$R"); do
        mpirun --oversubscribe -np "$1" "$TMP/pp" "$N" >> "$TMP/plain"
        rm -rf "$TMP/trace"
        mpirun --oversubscribe -np "$1" -x LD_PRELOAD="$TRACER" \
            -x DFSIM_TRACE_DIR="$TMP/trace" "$TMP/pp" "$N" >> "$TMP/traced"
    done
    plain=$(median "$TMP/plain")
    traced=$(median "$TMP/traced")
}
measure 1
echo "one rank, $N MPI_Sendrecv of 8 B to itself, median of $R runs:"
echo "  plain  $plain ns per call"
echo "  traced $traced ns per call (trace: $(du -sh "$TMP/trace" | cut -f1))"
awk -v p="$plain" -v t="$traced" \
    'BEGIN { printf "  tracer overhead %.0f ns per MPI call\n", t - p }'
measure 2
echo "two ranks, ping-pong of $N 8-byte round trips, median of $R runs:"
echo "  plain  $plain ns per round trip"
echo "  traced $traced ns per round trip (trace: $(du -sh "$TMP/trace" | cut -f1))"
awk -v p="$plain" -v t="$traced" \
    'BEGIN { printf "  tracer overhead %.0f ns per MPI call (4 calls in a row per round trip)\n", (t - p) / 4 }'
