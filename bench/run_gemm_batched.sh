#!/bin/sh
# run_gemm_batched.sh BUILD_DIR [bench_gemm_batched options...]
#
# Batched SGEMM (strided and pointer-array) through trnscid against a loop of
# in-process OpenBLAS SGEMMs (bench/gemm_batched.c; docs/benchmarks.md).
#
# MODE=one-core (default): trnscid under `taskset -c $DAEMON_CPU --cores 1`,
#   the bench under `taskset -c $BENCH_CPU`, its OpenBLAS loop single-threaded
#   and pinned to DAEMON_CPU: both sides on the same core.
# MODE=all-cores: trnscid with `--cores $(nproc)` (the batch split over the
#   cores), the bench unpinned with OpenBLAS on $(nproc) threads.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_gemm_batched "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
MODE=${MODE:-one-core}
bench_tmpdir trnsci-gemm-batched
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
    bench_run "$BENCH" "unix:$SOCK" --openblas-threads "$(nproc)" "$@"
    ;;
*)
    echo "run_gemm_batched.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac
