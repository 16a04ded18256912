#!/bin/sh
# run_rtt.sh BUILD_DIR [bench_rtt options...]
#
# Round-trip latency of trnsci's transports beside raw IPC floors measured in
# the same run, and host-to-device copy throughput (bench/rtt.c; results in
# docs/benchmarks.md).
#
# Placement (2-vCPU machine). Two daemons, each serving both transports:
#   "same"  trnscid under `taskset -c $SAME_CPU --cores 1`: every daemon thread
#           (local transport loop, gRPC, worker) on SAME_CPU (default 0), the
#           CPU the client runs on
#   "diff"  trnscid under `taskset -c $DIFF_CPU --cores 1` (default CPU 1)
#   `--cores 1` is a count (the first CPU the process may use), so under
#   taskset the single worker is pinned to that CPU.
#   bench_rtt pins itself (all its threads, libtrnsci's and gRPC's included) to
#   CLIENT_CPU (default 0), and its raw peers (forked processes, gRPC echo
#   servers) to SAME_CPU or DIFF_CPU.
# Each daemon listens on unix:$TMP/P.sock (the local transport) and
# grpc+unix:$TMP/P-grpc.sock (gRPC on a unix socket).
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including a trnscid not exiting 0 on SIGTERM.
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD_DIR [bench_rtt options...]" >&2
    exit 2
fi
mkdir -p "$1"
BUILD=$(cd "$1" && pwd)
shift
SRC=$(cd "$(dirname "$0")/.." && pwd)
CLIENT_CPU=${CLIENT_CPU:-0}
SAME_CPU=${SAME_CPU:-$CLIENT_CPU}
DIFF_CPU=${DIFF_CPU:-1}

DAEMON="$BUILD/trnscid"
CLI="$BUILD/trnsci"
BENCH="$BUILD/bench/bench_rtt"

if [ ! -x "$BENCH" ] || [ ! -x "$DAEMON" ] || [ ! -x "$CLI" ]; then
    echo "run_rtt.sh: bench_rtt/trnscid/trnsci not built in $BUILD; building them" \
        "(-DTRNSCI_BUILD_BENCH=ON)" >&2
    cmake -S "$SRC" -B "$BUILD" -DTRNSCI_BUILD_BENCH=ON >/dev/null
    cmake --build "$BUILD" --target bench_rtt trnscid trnsci_cli -j"$(nproc)" >&2
fi

for cpu in "$CLIENT_CPU" "$SAME_CPU" "$DIFF_CPU"; do
    if ! taskset -c "$cpu" true 2>/dev/null; then
        echo "run_rtt.sh: CPU $cpu is not available (set CLIENT_CPU / SAME_CPU / DIFF_CPU)" >&2
        exit 2
    fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/trnsci-rtt.XXXXXX")
PID_SAME=""
PID_DIFF=""
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
    for p in $PID_SAME $PID_DIFF; do
        if kill -0 "$p" 2>/dev/null; then
            kill -TERM "$p" 2>/dev/null || true
            wait "$p" 2>/dev/null || true
        fi
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

taskset -c "$SAME_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/same.sock" \
    --listen "grpc+unix:$TMP/same-grpc.sock" --log-level warn 2>"$TMP/same.log" &
PID_SAME=$!
taskset -c "$DIFF_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/diff.sock" \
    --listen "grpc+unix:$TMP/diff-grpc.sock" --log-level warn 2>"$TMP/diff.log" &
PID_DIFF=$!

# Wait (at most 10 s) until both daemons answer on both transports.
for spec in "same:$PID_SAME" "diff:$PID_DIFF"; do
    name=${spec%%:*}
    pid=${spec#*:}
    for addr in "unix:$TMP/$name.sock" "grpc+unix:$TMP/$name-grpc.sock"; do
        i=0
        until "$CLI" --addr "$addr" status >/dev/null 2>&1; do
            i=$((i + 1))
            if [ "$i" -ge 100 ] || ! kill -0 "$pid" 2>/dev/null; then
                echo "run_rtt.sh: trnscid ($name) did not come up on $addr; its log:" >&2
                cat "$TMP/$name.log" >&2
                exit 1
            fi
            sleep 0.1
        done
    done
done

rc=0
"$BENCH" --local-same "unix:$TMP/same.sock" --grpc-same "grpc+unix:$TMP/same-grpc.sock" \
    --local-diff "unix:$TMP/diff.sock" --grpc-diff "grpc+unix:$TMP/diff-grpc.sock" \
    --pid-same "$PID_SAME" --pid-diff "$PID_DIFF" --client-cpu "$CLIENT_CPU" \
    --same-cpu "$SAME_CPU" --diff-cpu "$DIFF_CPU" --tmpdir "$TMP" "$@" || rc=$?

# SIGTERM must stop each daemon with status 0; give each 10 s.
running() { # alive and not yet a zombie
    [ -r "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat")" != Z ]
}
for spec in "same:$PID_SAME" "diff:$PID_DIFF"; do
    name=${spec%%:*}
    pid=${spec#*:}
    kill -TERM "$pid"
    i=0
    while running "$pid" && [ "$i" -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if running "$pid"; then
        echo "run_rtt.sh: trnscid ($name) did not exit within 10 s of SIGTERM; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    drc=0
    wait "$pid" || drc=$?
    if [ "$drc" -ne 0 ]; then
        echo "run_rtt.sh: trnscid ($name) exited with status $drc after SIGTERM; its log:" >&2
        cat "$TMP/$name.log" >&2
        [ "$rc" -ne 0 ] || rc=1
    fi
done
PID_SAME=""
PID_DIFF=""
if [ "$rc" -ne 0 ]; then
    echo "run_rtt.sh: bench_rtt failed (status $rc)" >&2
fi
exit "$rc"
