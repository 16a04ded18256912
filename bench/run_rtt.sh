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
# including a trnscid not exiting 0 on SIGTERM. Starting, waiting for and
# stopping the daemons: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_rtt "$@"
shift
CLIENT_CPU=${CLIENT_CPU:-0}
SAME_CPU=${SAME_CPU:-$CLIENT_CPU}
DIFF_CPU=${DIFF_CPU:-1}

bench_require_cpus "CLIENT_CPU / SAME_CPU / DIFF_CPU" "$CLIENT_CPU" "$SAME_CPU" "$DIFF_CPU"

bench_tmpdir trnsci-rtt
TMP=$BENCH_TMP
daemon_start same taskset -c "$SAME_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/same.sock" \
    --listen "grpc+unix:$TMP/same-grpc.sock" --log-level warn
PID_SAME=$DAEMON_PID
daemon_start diff taskset -c "$DIFF_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/diff.sock" \
    --listen "grpc+unix:$TMP/diff-grpc.sock" --log-level warn
PID_DIFF=$DAEMON_PID
daemon_wait same "unix:$TMP/same.sock" "grpc+unix:$TMP/same-grpc.sock"
daemon_wait diff "unix:$TMP/diff.sock" "grpc+unix:$TMP/diff-grpc.sock"

bench_run "$BENCH" --local-same "unix:$TMP/same.sock" --grpc-same "grpc+unix:$TMP/same-grpc.sock" \
    --local-diff "unix:$TMP/diff.sock" --grpc-diff "grpc+unix:$TMP/diff-grpc.sock" \
    --pid-same "$PID_SAME" --pid-diff "$PID_DIFF" --client-cpu "$CLIENT_CPU" \
    --same-cpu "$SAME_CPU" --diff-cpu "$DIFF_CPU" --tmpdir "$TMP" "$@"
