#!/bin/sh
# run_krylov_parallel.sh BUILD_DIR [bench_krylov_parallel options...]
#
# One big CG on every core (bench/krylov_parallel.c; docs/benchmarks.md):
# trnsolverDcg on the 2D Poisson matrix (n = 10^6 by default) through a
# 1-core trnscid (`--cores 1`) and an all-cores one (`--cores $(nproc)`),
# both started here and idle but for the bench's requests, against
# scipy.sparse.linalg.cg in process (bench/krylov_parallel_scipy.py, one
# thread pinned to SCIPY_CPU), same tolerance, rounds alternating. Prints
# one JSON. The daemons pin their own workers (CPU i for core i).
# `--method bicgstab` (passed on to the bench): trnsolverDbicgstab against
# scipy.sparse.linalg.bicgstab on the nonsymmetric convection-diffusion
# variant of the same grid (bench/krylov_parallel.c); `--method gmres
# [--restart M]`: trnsolverDgmres against scipy.sparse.linalg.gmres there.
# Environment: SCIPY_CPU (default 0), PYTHON (default /usr/bin/python3),
# REPS (default 3).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_krylov_parallel "$@"
shift
SCIPY_CPU=${SCIPY_CPU:-0}
PYTHON=${PYTHON:-/usr/bin/python3}
REPS=${REPS:-3}
bench_require_cpus "SCIPY_CPU" "$SCIPY_CPU"
bench_tmpdir trnsci-krylov-parallel
ONE="$BENCH_TMP/one.sock"
ALL="$BENCH_TMP/all.sock"
daemon_start trnscid-1core "$DAEMON" --cores 1 --listen "unix:$ONE" --log-level warn
daemon_wait trnscid-1core "unix:$ONE"
daemon_start trnscid-all "$DAEMON" --cores "$(nproc)" --listen "unix:$ALL" --log-level warn
daemon_wait trnscid-all "unix:$ALL"
bench_run env OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$PYTHON" \
    "$SRC/bench/krylov_parallel_scipy.py" "$BENCH_TMP" --reps "$REPS" --cpu "$SCIPY_CPU" -- \
    "$BENCH" "unix:$ONE" "unix:$ALL" "$@"
