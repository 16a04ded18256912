#!/bin/sh
# run_gemm_modes.sh BUILD_DIR [bench_gemm_modes options...]
#
# The GEMM precision modes through trnscid: speed against FP32 GEMM, emulated
# FP64 against a naive long-double GEMM and in-process DGEMM, and accuracy
# against __float128 references (bench/gemm_modes.c; docs/benchmarks.md and
# docs/numerics.md keep the results).
#
# MODE=one-core (default): one daemon worker on DAEMON_CPU, the bench's
#   in-process OpenBLAS and long-double loops pinned to the same CPU.
# MODE=all-cores: the daemon on every CPU (for the accuracy tables, which do
#   not time anything). Placement details: bench_run_placed in daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_gemm_modes "$@"
shift
bench_tmpdir trnsci-gemm-modes
bench_run_placed "$@"
