#!/bin/sh
# run_graph.sh BUILD_DIR [bench_graph options...]
#
# Graph per-node overhead (bench/graph.c; results in docs/benchmarks.md): a
# captured chain of 1,000 1x1x1 SGEMMs launched as a graph ten times, then one
# synchronize, over the local transport and over gRPC on TCP loopback, against
# the same SGEMMs launched one by one and called in process.
#
# Placement (2-vCPU machine): trnscid under `taskset -c $DAEMON_CPU` with
# `--cores 1` (every daemon thread on DAEMON_CPU, default 1); bench_graph
# under `taskset -c $BENCH_CPU` (default 0). DAEMON_CPU = BENCH_CPU puts both
# on one CPU. Prints one JSON object per transport, one per line group, on
# stdout; exits non-zero if anything fails, including a trnscid not exiting 0
# on SIGTERM (bench/daemon.sh).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_graph "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-graph
PORT=$(( 20000 + $$ % 20000 ))
daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
    --listen "unix:$BENCH_TMP/bench.sock" --listen "127.0.0.1:$PORT" --allow-unauthenticated-tcp \
    --log-level warn
daemon_wait trnscid "unix:$BENCH_TMP/bench.sock" "127.0.0.1:$PORT"

taskset -c "$BENCH_CPU" "$BENCH" --addr "unix:$BENCH_TMP/bench.sock" --label local "$@"
bench_run taskset -c "$BENCH_CPU" "$BENCH" --addr "127.0.0.1:$PORT" --label grpc-tcp "$@"
