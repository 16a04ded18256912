#!/bin/sh
# run_gemm.sh BUILD_DIR [bench_gemm options...]
#
# SGEMM through trnscid versus in-process OpenBLAS on the same core, or with
# MODE=all-cores on every core on both sides (`make bench` runs
# `./bench/run_gemm.sh build`; see docs/benchmarks.md).
#
# Placement, one-core comparison (2-vCPU machine):
#   trnscid      started under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#                daemon thread may run only on DAEMON_CPU, and `--cores 1` (a
#                count: the first CPU the process may use) pins its single
#                worker there. (`--cores 1` without taskset would pick CPU 0;
#                a bare "1" is a count, not a CPU list.)
#   bench_gemm   started under `taskset -c $BENCH_CPU`, so the client side of
#                the trnsci phase does not compete with the worker; its
#                in-process OpenBLAS phase pins itself to DAEMON_CPU
#                (sched_setaffinity), so both GEMMs run on the same core.
#                Timed repetitions alternate trnsci / OpenBLAS (bench/gemm.c).
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), DAEMON_PIN:
#   taskset (default)  as above
#   cores              no taskset; `--cores $DAEMON_CPU-$DAEMON_CPU` (a one-CPU
#                      list) makes the daemon pin its worker itself, while its
#                      gRPC threads may run on any CPU
#   none               no pinning at all (daemon on all cores, bench unpinned,
#                      OpenBLAS side on the CPU the compute thread last ran on)
# MODE:
#   one-core (default) the comparison above: one daemon worker against
#                      single-threaded OpenBLAS on the same CPU
#   all-cores          every CPU on both sides: trnscid runs with
#                      `--cores $(nproc)` (no taskset; one pinned worker per
#                      CPU, and each big GEMM sharded over all of them),
#                      bench_gemm runs unpinned with `--openblas-threads
#                      $(nproc)` (in-process OpenBLAS with its own threading).
#                      DAEMON_CPU, BENCH_CPU and DAEMON_PIN are ignored.
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM.
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD_DIR [bench_gemm options...]" >&2
    exit 2
fi
mkdir -p "$1"
BUILD=$(cd "$1" && pwd)
shift
SRC=$(cd "$(dirname "$0")/.." && pwd)
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
DAEMON_PIN=${DAEMON_PIN:-taskset}
MODE=${MODE:-one-core}
case "$MODE" in
one-core | all-cores) ;;
*)
    echo "run_gemm.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac
NCPU=$(nproc)

DAEMON="$BUILD/trnscid"
CLI="$BUILD/trnsci"
BENCH="$BUILD/bench/bench_gemm"

if [ ! -x "$BENCH" ] || [ ! -x "$DAEMON" ] || [ ! -x "$CLI" ]; then
    echo "run_gemm.sh: bench_gemm/trnscid/trnsci not built in $BUILD; building them" \
        "(-DTRNSCI_BUILD_BENCH=ON)" >&2
    cmake -S "$SRC" -B "$BUILD" -DTRNSCI_BUILD_BENCH=ON >/dev/null
    cmake --build "$BUILD" --target bench_gemm trnscid trnsci_cli -j"$(nproc)" >&2
fi

if [ "$MODE" = one-core ]; then
    for cpu in "$DAEMON_CPU" "$BENCH_CPU"; do
        if ! taskset -c "$cpu" true 2>/dev/null; then
            echo "run_gemm.sh: CPU $cpu is not available (set DAEMON_CPU / BENCH_CPU)" >&2
            exit 2
        fi
    done
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/trnsci-bench.XXXXXX")
SOCK="$TMP/bench.sock"
DPID=""
cleanup() {
    if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
        kill -TERM "$DPID" 2>/dev/null || true
        wait "$DPID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$MODE" = all-cores ]; then
    "$DAEMON" --cores "$NCPU" --listen "unix:$SOCK" --log-level warn 2>"$TMP/trnscid.log" &
else
    case "$DAEMON_PIN" in
    taskset)
        taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" --log-level warn \
            2>"$TMP/trnscid.log" &
        ;;
    cores)
        "$DAEMON" --cores "$DAEMON_CPU-$DAEMON_CPU" --listen "unix:$SOCK" --log-level warn \
            2>"$TMP/trnscid.log" &
        ;;
    none)
        "$DAEMON" --listen "unix:$SOCK" --log-level warn 2>"$TMP/trnscid.log" &
        ;;
    *)
        echo "run_gemm.sh: DAEMON_PIN must be taskset, cores or none" >&2
        exit 2
        ;;
    esac
fi
DPID=$!

# Wait (at most 10 s) until the daemon answers.
i=0
until "$CLI" --addr "unix:$SOCK" status >/dev/null 2>&1; do
    i=$((i + 1))
    if [ "$i" -ge 100 ] || ! kill -0 "$DPID" 2>/dev/null; then
        echo "run_gemm.sh: trnscid did not come up; its log:" >&2
        cat "$TMP/trnscid.log" >&2
        exit 1
    fi
    sleep 0.1
done

rc=0
if [ "$MODE" = all-cores ]; then
    "$BENCH" "unix:$SOCK" --daemon-pid "$DPID" --openblas-threads "$NCPU" "$@" || rc=$?
elif [ "$DAEMON_PIN" = none ]; then
    "$BENCH" "unix:$SOCK" --daemon-pid "$DPID" "$@" || rc=$?
else
    taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --openblas-cpu "$DAEMON_CPU" \
        --daemon-pid "$DPID" "$@" || rc=$?
fi

# SIGTERM must stop the daemon with status 0; give it 10 s.
running() { # alive and not yet a zombie
    [ -r "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat")" != Z ]
}
kill -TERM "$DPID"
i=0
while running "$DPID" && [ "$i" -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if running "$DPID"; then
    echo "run_gemm.sh: trnscid did not exit within 10 s of SIGTERM; killing it" >&2
    kill -KILL "$DPID" 2>/dev/null || true
fi
drc=0
wait "$DPID" || drc=$?
DPID=""
if [ "$drc" -ne 0 ]; then
    echo "run_gemm.sh: trnscid exited with status $drc after SIGTERM; its log:" >&2
    cat "$TMP/trnscid.log" >&2
    [ "$rc" -ne 0 ] || rc=1
fi
if [ "$rc" -ne 0 ]; then
    echo "run_gemm.sh: bench_gemm failed (status $rc)" >&2
fi
exit "$rc"
