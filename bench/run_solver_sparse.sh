#!/bin/sh
# run_solver_sparse.sh BUILD_DIR [bench_solver_sparse options...]
#
# trnsolver CG on a 2D Poisson CSR operator (n = 10^6 by default) through
# trnscid versus scipy.sparse.linalg.cg on the same matrix, in one run (see
# docs/benchmarks.md). Prints one JSON joining both.
#
# Placement (2-vCPU machine), one core each side, the same core:
#   trnscid              under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#                        daemon thread, the single worker included, on
#                        DAEMON_CPU (the Krylov op runs on one worker).
#   bench_solver_sparse  under `taskset -c $BENCH_CPU`: the client only waits.
#   scipy                bench/solver_sparse_scipy.py under Debian's python3,
#                        pinned to DAEMON_CPU, OPENBLAS_NUM_THREADS =
#                        OMP_NUM_THREADS = 1; it drives the rounds, each one
#                        bench_solver_sparse run then the same scipy solves.
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), PYTHON (default
# /usr/bin/python3), REPS (default 3). Exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_solver_sparse "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
PYTHON=${PYTHON:-/usr/bin/python3}
REPS=${REPS:-3}
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-bench-solver-sparse
SOCK="$BENCH_TMP/bench.sock"
daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
    --log-level warn
daemon_wait trnscid "unix:$SOCK"

# The helper alternates: one bench_solver_sparse run (client on BENCH_CPU),
# then scipy's solves (pinned to DAEMON_CPU), REPS times.
bench_run env OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$PYTHON" \
    "$SRC/bench/solver_sparse_scipy.py" "$BENCH_TMP" --reps "$REPS" --cpu "$DAEMON_CPU" -- \
    taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" "$@"
