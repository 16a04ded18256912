#!/bin/sh
# run_lu_batched.sh BUILD_DIR [bench_lu_batched options...]
#
# Batched LU (trnblasDgetrfBatched) through trnscid against a loop of
# in-process LAPACK dgetrf calls (bench/lu_batched.c; docs/benchmarks.md).
#
# MODE=one-core (default): one daemon worker on DAEMON_CPU against
#   single-threaded OpenBLAS/LAPACK pinned to the same CPU.
# MODE=all-cores: the daemon on every CPU (the batch split over them) against
#   OpenBLAS on $(nproc) threads. Placement details: bench_run_placed in
#   daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_lu_batched "$@"
shift
bench_tmpdir trnsci-lu-batched
ALL_CORES_ARGS="--openblas-threads $(nproc)"
bench_run_placed "$@"
