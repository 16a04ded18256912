#!/bin/sh
# run_blas3.sh BUILD_DIR [bench_blas3 options...]
#
# trnblas Level 3 beyond GEMM through trnscid versus the same operations with
# in-process OpenBLAS (bench/blas3.c; docs/benchmarks.md).
#
# MODE=one-core (default): one daemon worker on DAEMON_CPU (default 1), the
#   bench on BENCH_CPU (default 0) with its OpenBLAS phase pinned to
#   DAEMON_CPU, so both sides compute on the same core.
# MODE=all-cores: the daemon on every CPU (big ops sharded over them) against
#   OpenBLAS's own threading on $(nproc) threads.
# Placement details: bench_run_placed in daemon.sh. Prints the bench's JSON;
# exits non-zero if anything fails, including trnscid not exiting 0 on
# SIGTERM.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_blas3 "$@"
shift
bench_tmpdir trnsci-blas3
ALL_CORES_ARGS="--openblas-threads $(nproc)"
bench_run_placed "$@"
