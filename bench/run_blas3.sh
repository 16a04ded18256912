#!/bin/sh
# run_blas3.sh BUILD_DIR [bench_blas3 options...]
#
# trnblas Level 3 beyond GEMM through trnscid versus the same operations with
# in-process OpenBLAS (bench/blas3.c), on the same core, or with
# MODE=all-cores on every core on both sides (see docs/benchmarks.md).
#
# Placement, one-core comparison (the default; as bench/run_gemm.sh):
#   trnscid      under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#                daemon thread runs on DAEMON_CPU, its one worker pinned there;
#   bench_blas3  under `taskset -c $BENCH_CPU`; its OpenBLAS phase pins itself
#                to DAEMON_CPU (--openblas-cpu), so both sides compute on the
#                same core, and the client side of the trnsci phase does not
#                compete with the worker.
# MODE=all-cores: trnscid with `--cores $(nproc)` (one pinned worker per CPU,
# big ops sharded over them), bench_blas3 unpinned with `--openblas-threads
# $(nproc)` (OpenBLAS's own threading). DAEMON_CPU and BENCH_CPU are ignored.
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), MODE.
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM (bench/daemon.sh).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_blas3 "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
MODE=${MODE:-one-core}
NCPU=$(nproc)
case "$MODE" in
one-core) bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU" ;;
all-cores) ;;
*)
    echo "run_blas3.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac

bench_tmpdir trnsci-blas3
SOCK="$BENCH_TMP/bench.sock"
if [ "$MODE" = all-cores ]; then
    daemon_start trnscid "$DAEMON" --cores "$NCPU" --listen "unix:$SOCK" --log-level warn
else
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn
fi
daemon_wait trnscid "unix:$SOCK"

if [ "$MODE" = all-cores ]; then
    bench_run "$BENCH" "unix:$SOCK" --openblas-threads "$NCPU" "$@"
else
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --openblas-cpu "$DAEMON_CPU" "$@"
fi
