#!/bin/sh
# run_gemm_modes.sh BUILD_DIR [bench_gemm_modes options...]
#
# The GEMM precision modes through trnscid: speed against FP32 GEMM, emulated
# FP64 against a naive long-double GEMM and in-process DGEMM, and accuracy
# against long-double references (bench/gemm_modes.c; docs/benchmarks.md and
# docs/numerics.md keep the results).
#
# MODE=one-core (default): trnscid under `taskset -c $DAEMON_CPU --cores 1`,
#   the bench under `taskset -c $BENCH_CPU`, its in-process OpenBLAS and
#   long-double loops pinned to DAEMON_CPU: every GEMM on the same core.
# MODE=all-cores: trnscid on every CPU (`--cores $(nproc)`), the bench
#   unpinned (for the accuracy tables, which do not time anything).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_gemm_modes "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
MODE=${MODE:-one-core}
bench_tmpdir trnsci-gemm-modes
SOCK="$BENCH_TMP/bench.sock"
case "$MODE" in
one-core)
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn
    daemon_wait trnscid "unix:$SOCK"
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --openblas-cpu "$DAEMON_CPU" "$@"
    ;;
all-cores)
    daemon_start trnscid "$DAEMON" --cores "$(nproc)" --listen "unix:$SOCK" --log-level warn
    daemon_wait trnscid "unix:$SOCK"
    bench_run "$BENCH" "unix:$SOCK" "$@"
    ;;
*)
    echo "run_gemm_modes.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac
