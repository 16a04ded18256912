#!/bin/sh
# run_memcpy_models.sh BUILD_DIR [bench_memcpy_models options...]
#
# Host<->device copy throughput under the local transport's two memory
# models (bench/memcpy_models.c; results in docs/benchmarks.md): one daemon
# with --device-pointers mapped, one with --device-pointers opaque, each
# `--cores 1` under `taskset -c $DAEMON_CPU` (default 1); the bench runs
# under `taskset -c $CLIENT_CPU` (default 0).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_memcpy_models "$@"
shift
CLIENT_CPU=${CLIENT_CPU:-0}
DAEMON_CPU=${DAEMON_CPU:-1}
bench_require_cpus "CLIENT_CPU / DAEMON_CPU" "$CLIENT_CPU" "$DAEMON_CPU"

bench_tmpdir trnsci-memcpy-models
daemon_start mapped taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --device-pointers mapped \
    --listen "unix:$BENCH_TMP/mapped.sock" --log-level warn
daemon_start opaque taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --device-pointers opaque \
    --listen "unix:$BENCH_TMP/opaque.sock" --log-level warn
daemon_wait mapped "unix:$BENCH_TMP/mapped.sock"
daemon_wait opaque "unix:$BENCH_TMP/opaque.sock"

bench_run taskset -c "$CLIENT_CPU" "$BENCH" --mapped "unix:$BENCH_TMP/mapped.sock" \
    --opaque "unix:$BENCH_TMP/opaque.sock" "$@"
