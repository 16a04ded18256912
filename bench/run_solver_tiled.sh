#!/bin/sh
# run_solver_tiled.sh BUILD_DIR [bench_solver_tiled options...]
#
# One big dpotrf, dgetrf and dgeqrf (and dsyevd, dgesvd with --routines) on
# every core (bench/solver_tiled.c;
# docs/benchmarks.md):
# a 1-core trnscid (`--cores 1`) and an all-cores one (`--cores $(nproc)`),
# both started here and idle but for the bench's requests, against
# OpenBLAS's dpotrf / dgetrf / dgeqrf in the bench process on 1 and on $(nproc) threads.
# Nothing is pinned by taskset: the daemons pin their own workers (one per
# core, CPU i for core i), OpenBLAS's threaded run uses every CPU.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_solver_tiled "$@"
shift
bench_tmpdir trnsci-solver-tiled
ONE="$BENCH_TMP/one.sock"
ALL="$BENCH_TMP/all.sock"
daemon_start trnscid-1core "$DAEMON" --cores 1 --listen "unix:$ONE" --log-level warn
daemon_wait trnscid-1core "unix:$ONE"
daemon_start trnscid-all "$DAEMON" --cores "$(nproc)" --listen "unix:$ALL" --log-level warn
daemon_wait trnscid-all "unix:$ALL"
bench_run "$BENCH" "unix:$ONE" "unix:$ALL" "$@"
