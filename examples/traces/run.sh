#!/bin/sh
# examples/traces/run.sh — `make traces`: trace the example programs of
# this folder, LAMMPS and HPCC with dfsim's PMPI tracer (docs/tracer.md)
# into OUT/NAME/traces.otf2, then list each trace: ranks, events, size.
#
#   sh examples/traces/run.sh TRACER OUT
#
# TRACER is build/libdfsim-trace.so; the Makefile has installed mpicc,
# mpirun, otf2-print, lmp and hpcc. Runs with --oversubscribe (a 2-core
# machine runs 16 ranks) and, as root, with Open MPI's consent variables.
set -e
TRACER=$(realpath "$1")
OUT=$(realpath -m "$2")
SRC=$(cd "$(dirname "$0")" && pwd)
BIN="$OUT/.bin"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT" "$BIN"

# trace NAME NP WORKDIR PROGRAM ARGS...: run it traced into OUT/NAME
trace() {
    name=$1 np=$2 dir=$3
    shift 3
    rm -rf "$OUT/$name"
    echo "== $name: mpirun -np $np $*" >&2
    (cd "$dir" && mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$TRACER" \
        -x DFSIM_TRACE_DIR="$OUT/$name" "$@") > "$OUT/$name.log" 2>&1 || {
        echo "make traces: $name failed; its output is in $OUT/$name.log" >&2
        exit 1
    }
}

for p in pingpong allreduce halo anyreq vcoll nbc rma; do
    mpicc -O2 -o "$BIN/$p" "$SRC/$p.c"
done
trace pingpong 2 "$BIN" ./pingpong 20
trace allreduce 8 "$BIN" ./allreduce 50 4096
trace halo 16 "$BIN" ./halo 20 1024
trace anyreq 8 "$BIN" ./anyreq 20 8192
trace vcoll 8 "$BIN" ./vcoll 10 256
trace nbc 8 "$BIN" ./nbc 50 4096
trace rma 8 "$BIN" ./rma 50 4096

# LAMMPS: the Lennard-Jones melt, 300 steps on 16 ranks
mkdir -p "$OUT/.lammps"
cp "$SRC/in.lj" "$OUT/.lammps/in.lj"
trace lammps-lj 16 "$OUT/.lammps" lmp -in in.lj -log none

# HPCC reads hpccinf.txt in its working folder and runs all its tests
# (none can be left out at run time): the whole small run is traced
mkdir -p "$OUT/.hpcc"
cp "$SRC/hpccinf.txt" "$OUT/.hpcc/hpccinf.txt"
rm -f "$OUT/.hpcc/hpccoutf.txt" # (HPCC appends to it)
trace hpcc 4 "$OUT/.hpcc" hpcc

printf '\n%-10s %5s %12s %8s  %s\n' trace ranks events size archive
for d in pingpong allreduce halo anyreq vcoll nbc rma lammps-lj hpcc; do
    a="$OUT/$d/traces.otf2"
    defs=$(otf2-print -G "$a" 2>/dev/null | grep '^LOCATION ')
    ranks=$(printf '%s\n' "$defs" | grep -c .)
    events=$(printf '%s\n' "$defs" | sed 's/.*# Events: \([0-9]*\).*/\1/' |
             awk '{ s += $1 } END { print s }')
    size=$(du -sh "$OUT/$d" | cut -f1)
    printf '%-10s %5s %12s %8s  %s\n' "$d" "$ranks" "$events" "$size" "$a"
done
