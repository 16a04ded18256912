#!/bin/sh
# run_run_ahead.sh BUILD_DIR [bench_run_ahead options...]
#
# A conversion behind a GEMM on one stream with run-ahead and without
# (bench/run_ahead.c): two daemons of CORES core workers (default: every
# CPU), --run-ahead on and off, the bench alternating between them. With
# CORES below the CPUs the copy engine has a CPU of its own (--run-ahead
# auto's case for on). Prints JSON.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_run_ahead "$@"
shift
bench_tmpdir trnsci-run-ahead
CORES=${CORES:-$(nproc)}
daemon_start on "$DAEMON" --cores "$CORES" --run-ahead on --listen "unix:$BENCH_TMP/on.sock" \
    --log-level warn
daemon_start off "$DAEMON" --cores "$CORES" --run-ahead off \
    --listen "unix:$BENCH_TMP/off.sock" --log-level warn
daemon_wait on "unix:$BENCH_TMP/on.sock"
daemon_wait off "unix:$BENCH_TMP/off.sock"
bench_run "$BENCH" "unix:$BENCH_TMP/on.sock" --off "unix:$BENCH_TMP/off.sock" "$@"
