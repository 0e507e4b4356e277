#!/bin/sh
# bench/partition_model.sh — a model of a split traffic run's speed at P
# processes (issue 54), from figures measured here, and a check of its
# communication counts on oversubscribed runs.
#
# Measured per system (one round; other work on the machine shows in the
# figures): the classic run (T_c, the run's own wall seconds, the
# network's set-up included), the windowed run in one process (the same,
# T_1, and its windows N_w), and mpirun -np 2 (rank 0's wall seconds, to
# set beside the model's T_2; the busiest process's seconds in windows,
# the exchange's, the packets crossed).
# The model of one run at P processes:
#
#   T_P = S + (T_1 - S) * I_P / P           the work, split, beside the
#                                           serial part S (what every
#                                           process builds whole, the
#                                           exchange's waits), S taken
#                                           from the two-rank run: the
#                                           model meets it at P = 2 by
#                                           construction
#       + N_w * alpha * (3 log2 P + 2 (P - 1))  per window two allreduces
#                                           and the counts' alltoall
#                                           (log2 P steps each), and the
#                                           two alltoallv's, P - 1 peers
#                                           each (every part neighbours
#                                           every other on a dragonfly)
#       + X_P * b / (P * beta)              the records crossing (packets
#                                           and as many credit returns),
#                                           b bytes each, at beta a process
#
# with I_P the partition's imbalance (most NICs over the mean: dfsim topo
# NAME --partitions P --json), X_P the records crossing: the measured
# packets crossed at P = 2 times 2 (their credit returns), scaled by
# f(P) / f(2), f(P) = 1 - sum_k (NICs_k / NICs)^2 (uniform traffic: a
# global hop crosses when its two groups are in different parts).
# Assumptions (a cluster's MPI, not this machine's shared memory): alpha =
# 2 us a step (small-message MPI latency of an InfiniBand or Slingshot
# cluster, order of magnitude), beta = 10 GB/s, b = 176 bytes a packet
# record (struct xp_pkt), 24 a return (struct xp_cr) — 100 on average.
# Efficiency = T_c / (P T_P), against the classic run as issue 54 asks.
# For slingshot-max the model is also given for the run 10 times longer
# in simulated time (the issue's 100 us case is ~10 times this run's):
# the split work and the crossings grow with it, S does not.
#
# The counts check: df1056 at P = 4 and 8 (mpirun --oversubscribe) gives
# the packets crossed, beside f(P) / f(2) times P = 2's.
#
# Usage: bench/partition_model.sh   (PARTITION_FULL=1 adds slingshot-max,
#   minutes and ~1.3 GB; cori is always in)   DFSIM=path/to/dfsim
. "$(dirname "$0")/partition_lib.sh"
partition_setup partition_model
ALPHA_US=${ALPHA_US:-2}
BETA_GBS=${BETA_GBS:-10}

# run NAME P MODE (classic | local | mpi): the summary line's figures
# "wall windows crossed compute_mean compute_max exchange"
run() {
    case $3 in
    classic) set -- "$1" "$DFSIM" run "$TMP/$1.cfg" ;;
    local) set -- "$1" "$DFSIM" run "$TMP/$1.cfg" --partitions "$2" ;;
    mpi) set -- "$1" mpirun --oversubscribe -np "$2" "$DFSIM" run \
        "$TMP/$1.cfg" --partitions "$2" ;;
    esac
    name=$1
    shift
    "$@" -o "$TMP/$name-out" --force >"$TMP/out" 2>"$TMP/err" ||
        { echo "$name: dfsim failed" >&2; cat "$TMP/err" >&2; exit 1; }
    summary "$TMP/err"
}

# f(P) and the imbalance of NAME's system at P
split() { # SYSTEM P
    "$DFSIM" topo "$1" --partitions "$2" --json | tr '{' '\n' |
        awk -v P="$2" '
        /"imbalance"/ { match($0, /"imbalance": [0-9.]+/);
                        imb = substr($0, RSTART + 13, RLENGTH - 13) }
        /"part": / { match($0, /"nics": [0-9]+/);
                     n[++k] = substr($0, RSTART + 8, RLENGTH - 8) }
        END { for (i = 1; i <= k; i++) s += n[i]
              for (i = 1; i <= k; i++) f += (n[i] / s) ^ 2
              printf "%s %.6f\n", (imb == "" ? 1 : imb), 1 - f }'
}

model() { # NAME SYSTEM ROUTING LOAD WARM MEASURE PS...
    name=$1 sys=$2
    cfg "$@"
    shift 6
    set -- $(run "$name" 1 classic) x $(run "$name" 1 local) x \
        $(run "$name" 2 mpi) x "$@"
    tc=$1; shift 7
    t1=$1 nw=$2; shift 7
    w2=$1 x2=$3 c2max=$5 ex2=$6; shift 7
    read -r imb2 f2 <<EOF2
$(split "$sys" 2)
EOF2
    printf "%s: classic %.1f s; windowed, one process: %.1f s, %d windows; two ranks here: %.1f s (windows: busiest %.1f s; exchange %.1f s), %d packets crossed\n" \
        "$name" "$tc" "$t1" "$nw" "$w2" "$c2max" "$ex2" "$x2"
    # the serial part S: what the two-rank run took beyond the split work
    # (set-up of what every process builds whole, the exchange's waits)
    S=$(awk -v t1="$t1" -v w2="$w2" -v i2="$imb2" 'BEGIN {
        s = (w2 - t1 * i2 / 2) / (1 - i2 / 2); print (s > 0 ? s : 0) }')
    for K in 1 $LONGER; do
    [ "$K" = 1 ] || printf "  the same run %d times longer in simulated time (the work per simulated us as measured; S unchanged):\n" "$K"
    printf "  serial part S = %.2f s (from the two-rank run)\n" "$S"
    printf "  %6s %9s %9s %12s %10s %9s %10s\n" P imbalance "f(P)" "crossed(P)" \
        "T_P (s)" speedup efficiency
    for P in "$@"; do
        read -r imb f <<EOF2
$(split "$sys" "$P")
EOF2
        awk -v P="$P" -v tc="$tc" -v t1="$t1" -v nw="$nw" -v imb="$imb" \
            -v f="$f" -v f2="$f2" -v x2="$x2" -v a="$ALPHA_US" \
            -v b="$BETA_GBS" -v S="$S" -v k="$K" '
        function lg(v) { return log(v) / log(2) }
        BEGIN {
            x = 2 * x2 * f / f2 * k
            sync = nw * k * a * 1e-6 * (3 * lg(P) + 2 * (P - 1))
            w = (t1 - S) * k
            t = S + w * imb / P + sync + x * 100 / (P * b * 1e9)
            c = S + (tc - S) * k
            printf "  %6d %9.4f %9.4f %12.0f %10.3f %9.2f %10.2f\n",
                P, imb, f, x / 2, t, c / t, c / t / P }'
    done
    done
}

echo "model inputs measured here; alpha $ALPHA_US us a step, beta $BETA_GBS GB/s (a cluster's MPI, assumed)"
model df1056-ugal-0.3 df1056 UGAL 0.3 2.0 80.0 2 4 8 16 33
echo
echo "the counts check: packets crossed, measured (mpirun --oversubscribe) against f(P) / f(2) times P = 2's"
cfg df1056-count df1056 UGAL 0.3 1.0 4.0
set -- $(run df1056-count 2 mpi)
x2=$3
read -r _ f2 <<EOF2
$(split df1056 2)
EOF2
for P in 4 8; do
    set -- $(run df1056-count "$P" mpi)
    read -r _ f <<EOF2
$(split df1056 "$P")
EOF2
    awk -v P="$P" -v x="$3" -v x2="$x2" -v f="$f" -v f2="$f2" 'BEGIN {
        p = x2 * f / f2
        printf "  P = %d: crossed %d, predicted %.0f (%+.1f %%)\n", P, x, p,
            100 * (x - p) / p }'
done
echo
model cori-adaptive0-0.5 cori ADAPTIVE_0 0.5 0.3 0.5 2 8 16 34
if [ -n "$PARTITION_FULL" ]; then
    echo
    LONGER=10
    model slingshot-max-0.3 slingshot-max SS_ADAPTIVE 0.3 0.2 0.2 2 8 64 512
fi
