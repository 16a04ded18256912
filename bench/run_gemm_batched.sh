#!/bin/sh
# run_gemm_batched.sh BUILD_DIR [bench_gemm_batched options...]
#
# Batched SGEMM (strided and pointer-array) through trnscid against a loop of
# in-process OpenBLAS SGEMMs (bench/gemm_batched.c; docs/benchmarks.md).
#
# MODE=one-core (default): one daemon worker on DAEMON_CPU against
#   single-threaded OpenBLAS pinned to the same CPU.
# MODE=all-cores: the daemon on every CPU (the batch split over them) against
#   OpenBLAS on $(nproc) threads. Placement details: bench_run_placed in
#   daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_gemm_batched "$@"
shift
bench_tmpdir trnsci-gemm-batched
ALL_CORES_ARGS="--openblas-threads $(nproc)"
bench_run_placed "$@"
