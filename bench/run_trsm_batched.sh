#!/bin/sh
# run_trsm_batched.sh BUILD_DIR [bench_trsm_batched options...]
#
# trnblasDtrsmBatched through trnscid against one trnblasDtrsm per matrix and
# a loop of in-process cblas_dtrsm calls (bench/trsm_batched.c; docs/benchmarks.md).
#
# MODE=one-core (default): one daemon worker on DAEMON_CPU against
#   single-threaded OpenBLAS pinned to the same CPU.
# MODE=all-cores: the daemon on every CPU (the batch split over them) against
#   OpenBLAS on $(nproc) threads. Placement details: bench_run_placed in
#   daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_trsm_batched "$@"
shift
bench_tmpdir trnsci-trsm-batched
ALL_CORES_ARGS="--openblas-threads $(nproc)"
bench_run_placed "$@"
