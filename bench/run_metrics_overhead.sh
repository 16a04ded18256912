#!/bin/sh
# run_metrics_overhead.sh BUILD_DIR [bench_metrics_overhead options...]
#
# What --metrics-listen costs on the null-op path (trnsciStreamSynchronize on
# an idle session) and on a 1x1x1 SGEMM + sync, metrics on vs off in the same
# run (bench/metrics_overhead.c; results in docs/benchmarks.md).
#
# Placement (2-vCPU machine): both daemons under `taskset -c $DAEMON_CPU
# --cores 1` (every daemon thread, worker, transport loop and metrics thread
# on it), one of them with --metrics-listen 127.0.0.1:PORT; the bench and its
# scraper process under `taskset -c $CLIENT_CPU`. Default: all on CPU 0. On
# this VM waking a thread on the other vCPU costs ~20 us and is bimodal
# (docs/benchmarks.md), which would hide a 2 % difference; on one CPU the
# per-round medians agree to ~1 %. DAEMON_CPU=1 measures the split placement.
# Both daemons are on the local transport (unix socket + shared memory).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_metrics_overhead "$@"
shift
CLIENT_CPU=${CLIENT_CPU:-0}
DAEMON_CPU=${DAEMON_CPU:-$CLIENT_CPU}
bench_require_cpus "CLIENT_CPU / DAEMON_CPU" "$CLIENT_CPU" "$DAEMON_CPU"

bench_tmpdir trnsci-metrics
TMP=$BENCH_TMP
PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
daemon_start off taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/off.sock" \
    --log-level warn
daemon_start on taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$TMP/on.sock" \
    --log-level warn --metrics-listen "127.0.0.1:$PORT"
daemon_wait off "unix:$TMP/off.sock"
daemon_wait on "unix:$TMP/on.sock"

bench_run taskset -c "$CLIENT_CPU" "$BENCH" --off "unix:$TMP/off.sock" --on "unix:$TMP/on.sock" \
    --metrics-port "$PORT" "$@"
