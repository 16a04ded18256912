#!/bin/sh
# run_executors.sh BUILD_DIR on|off rtt|gemm|fft [bench options...]
#
# The cost of running kernels in executor processes: one existing benchmark
# against a daemon started with `--executors on` or `--executors off`, with
# the placement of that benchmark's own runner:
#   rtt   as bench/run_rtt.sh: two daemons, "same" under
#         `taskset -c $SAME_CPU --cores 1` (default CPU 0, the client's) and
#         "diff" under `taskset -c $DIFF_CPU --cores 1` (default CPU 1), each
#         on unix: and grpc+unix:; bench_rtt pinned to CLIENT_CPU (default 0).
#   gemm  as bench/run_gemm.sh (one-core, DAEMON_PIN=taskset): trnscid under
#         `taskset -c $DAEMON_CPU --cores 1` (default 1), bench_gemm under
#         `taskset -c $BENCH_CPU` (default 0) with --openblas-cpu $DAEMON_CPU.
#   fft   as the one-core part of bench/run_fft.sh (DAEMON_PIN=taskset):
#         trnscid under `taskset -c $DAEMON_CPU --cores 1` with a --cache-dir,
#         bench_fft under `taskset -c $BENCH_CPU` with --inproc-cpu.
# An executor is forked from the daemon and pinned to its worker's CPU, so it
# inherits the same placement. Interleave on and off runs to compare them.
# Prints the bench's JSON on stdout. Starting, waiting for and stopping the
# daemons: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

if [ $# -lt 3 ]; then
    echo "usage: $0 BUILD_DIR on|off rtt|gemm|fft [bench options...]" >&2
    exit 2
fi
_build=$1
EXECUTORS=$2
WHICH=$3
shift 3
case "$EXECUTORS" in
on | off) ;;
*)
    echo "run_executors.sh: the second argument must be on or off" >&2
    exit 2
    ;;
esac

case "$WHICH" in
rtt)
    bench_init bench_rtt "$_build"
    CLIENT_CPU=${CLIENT_CPU:-0}
    SAME_CPU=${SAME_CPU:-$CLIENT_CPU}
    DIFF_CPU=${DIFF_CPU:-1}
    bench_require_cpus "CLIENT_CPU / SAME_CPU / DIFF_CPU" "$CLIENT_CPU" "$SAME_CPU" "$DIFF_CPU"
    bench_tmpdir trnsci-exec-rtt
    TMP=$BENCH_TMP
    daemon_start same taskset -c "$SAME_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/same.sock" \
        --listen "grpc+unix:$TMP/same-grpc.sock" --log-level warn --executors "$EXECUTORS"
    PID_SAME=$DAEMON_PID
    daemon_start diff taskset -c "$DIFF_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/diff.sock" \
        --listen "grpc+unix:$TMP/diff-grpc.sock" --log-level warn --executors "$EXECUTORS"
    PID_DIFF=$DAEMON_PID
    daemon_wait same "unix:$TMP/same.sock" "grpc+unix:$TMP/same-grpc.sock"
    daemon_wait diff "unix:$TMP/diff.sock" "grpc+unix:$TMP/diff-grpc.sock"
    bench_run "$BENCH" --local-same "unix:$TMP/same.sock" --grpc-same "grpc+unix:$TMP/same-grpc.sock" \
        --local-diff "unix:$TMP/diff.sock" --grpc-diff "grpc+unix:$TMP/diff-grpc.sock" \
        --pid-same "$PID_SAME" --pid-diff "$PID_DIFF" --client-cpu "$CLIENT_CPU" \
        --same-cpu "$SAME_CPU" --diff-cpu "$DIFF_CPU" --tmpdir "$TMP" "$@"
    ;;
gemm)
    bench_init bench_gemm "$_build"
    DAEMON_CPU=${DAEMON_CPU:-1}
    BENCH_CPU=${BENCH_CPU:-0}
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
    bench_tmpdir trnsci-exec-gemm
    SOCK="$BENCH_TMP/bench.sock"
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn --executors "$EXECUTORS"
    daemon_wait trnscid "unix:$SOCK"
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --openblas-cpu "$DAEMON_CPU" \
        --daemon-pid "$DAEMON_PID" "$@"
    ;;
fft)
    bench_init bench_fft "$_build"
    DAEMON_CPU=${DAEMON_CPU:-1}
    BENCH_CPU=${BENCH_CPU:-0}
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
    bench_tmpdir trnsci-exec-fft
    SOCK="$BENCH_TMP/one.sock"
    mkdir "$BENCH_TMP/cache-one"
    daemon_start trnscid-1core taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
        --cache-dir "$BENCH_TMP/cache-one" --listen "unix:$SOCK" --log-level warn \
        --executors "$EXECUTORS"
    daemon_wait trnscid-1core "unix:$SOCK"
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --inproc-cpu "$DAEMON_CPU" \
        --daemon-pid "$DAEMON_PID" --daemon-cache-dir "$BENCH_TMP/cache-one" \
        --label "one-core-taskset-executors-$EXECUTORS" "$@"
    ;;
*)
    echo "run_executors.sh: the third argument must be rtt, gemm or fft" >&2
    exit 2
    ;;
esac
