#!/bin/sh
# bench/partition_speed.sh — one simulation over two processes (issue 54):
# a synthetic-traffic run classic (one process, no windows), in windows
# in one process (--partitions 1: the reference every P reproduces) and
# over two MPI ranks (mpirun -np 2 --partitions 2), interleaved ROUNDS
# times; per run the wall seconds of the run itself (dfsim's own summary
# line, without the set-up and the probe), the peak resident memory of a
# process, and the windows and packets that crossed. Speed-up and
# efficiency are against the classic run of the same binary (and against
# --partitions 1), medians over the rounds; the two-rank run's
# traffic.csv must equal the one-process windowed run's.
#
# Usage: bench/partition_speed.sh   (df1056 UGAL uniform at 0.3 and 0.9)
#   PARTITION_FULL=1 adds slingshot-max at 0.3 (minutes, ~GBs)
#   PARTITION_ONLY=NAME runs that row alone (df1056-ugal-0.3,
#   df1056-ugal-0.9, slingshot-max-0.3; the last with its rounds, not 1)
#   DFSIM=path/to/dfsim   ROUNDS=n (3)
ROUNDS=${ROUNDS:-3}
. "$(dirname "$0")/partition_lib.sh"
partition_setup partition_speed

# one run: KIND (classic, p1, mpi2) of NAME; prints "wall rss windows
# crossed"
one() {
    case $2 in
    classic) set -- "$1" "$2" "$DFSIM" run ;;
    p1) set -- "$1" "$2" "$DFSIM" run --partitions 1 ;;
    mpi2) set -- "$1" "$2" mpirun -np 2 "$DFSIM" run --partitions 2 ;;
    esac
    name=$1 kind=$2
    shift 2
    /usr/bin/time -f "%M" -o "$TMP/rss" "$@" "$TMP/$name.cfg" \
        -o "$TMP/$name-$kind" --force >"$TMP/out" 2>"$TMP/err" ||
        { echo "$name $kind: dfsim failed" >&2; cat "$TMP/err" >&2; exit 1; }
    # GNU time's figure for mpirun is the largest of its children's peaks
    # (the ranks'); the wall seconds are dfsim's own summary's
    set -- $(summary "$TMP/err")
    echo "$1 $(cat "$TMP/rss") $2 $3"
}

bench() { # NAME
    interleave "$1"
    cmp -s "$TMP/$1-p1/traffic.csv" "$TMP/$1-mpi2/traffic.csv" &&
        same=yes || same=NO
    c=$(median <"$TMP/classic.w"); p=$(median <"$TMP/p1.w")
    m=$(median <"$TMP/mpi2.w")
    read -r _ rc _ _ <"$TMP/classic.last"
    read -r _ rp _ _ <"$TMP/p1.last"
    read -r _ rm win crossed <"$TMP/mpi2.last"
    awk -v n="$1" -v c="$c" -v p="$p" -v m="$m" -v rc="$rc" -v rp="$rp" \
        -v rm="$rm" -v w="$win" -v x="$crossed" -v s="$same" 'BEGIN {
        printf "%-26s %8.2f %8.2f %8.2f %8.2f %6.2f %8.2f %8.1f %8.1f %8.1f %9s %10s %5s\n",
          n, c, p, m, c / m, c / m / 2, p / m, rc / 1024, rp / 1024, rm / 1024, w, x, s }'
}

echo "medians of $ROUNDS interleaved rounds; wall: the run's own seconds; MiB: peak resident (two ranks: the larger)"
printf "%-26s %8s %8s %8s %8s %6s %8s %8s %8s %8s %9s %10s %5s\n" run classic \
    "P=1" "2 ranks" speedup eff "vs P=1" "MiB cl" "MiB P1" "MiB 2r" \
    windows crossed same
row() { # NAME: whether to run it (PARTITION_ONLY)
    [ -z "$PARTITION_ONLY" ] || [ "$PARTITION_ONLY" = "$1" ]
}
if row df1056-ugal-0.3; then
    cfg df1056-ugal-0.3 df1056 UGAL 0.3 5.0 80.0
    bench df1056-ugal-0.3
fi
if row df1056-ugal-0.9; then
    cfg df1056-ugal-0.9 df1056 UGAL 0.9 5.0 20.0
    bench df1056-ugal-0.9
fi
if [ "$PARTITION_ONLY" = slingshot-max-0.3 ]; then
    cfg slingshot-max-0.3 slingshot-max SS_ADAPTIVE 0.3 1.0 2.0
    bench slingshot-max-0.3
elif [ -n "$PARTITION_FULL" ] && row slingshot-max-0.3; then
    cfg slingshot-max-0.3 slingshot-max SS_ADAPTIVE 0.3 1.0 2.0
    ROUNDS=1 bench slingshot-max-0.3
fi
