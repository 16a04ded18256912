#!/bin/sh
# run_solver.sh BUILD_DIR [bench_solver options...]
#
# trnsolver (dpotrf, dgetrf, dsyevd, dgesvd) through trnscid versus LAPACK
# in this process on the same core, and syevj against syevd (see
# docs/benchmarks.md).
#
# Placement (2-vCPU machine), as bench/run_gemm.sh's one-core comparison:
#   trnscid       under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#                 daemon thread, the single worker included, on DAEMON_CPU.
#   bench_solver  under `taskset -c $BENCH_CPU`: the client side of the
#                 trnsci repetitions does not compete with the worker; its
#                 in-process LAPACK calls pin their thread to DAEMON_CPU
#                 (--lapack-cpu), so both sides factor on the same core.
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), DAEMON_PIN:
#   taskset (default)  as above
#   cores              no taskset; `--cores $DAEMON_CPU-$DAEMON_CPU` pins only the
#                      worker, the daemon's other threads (the local-transport
#                      loop) may run on any CPU
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_solver "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
DAEMON_PIN=${DAEMON_PIN:-taskset}
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-bench-solver
SOCK="$BENCH_TMP/bench.sock"
case "$DAEMON_PIN" in
taskset)
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn
    ;;
cores)
    daemon_start trnscid "$DAEMON" --cores "$DAEMON_CPU-$DAEMON_CPU" --listen "unix:$SOCK" \
        --log-level warn
    ;;
*)
    echo "run_solver.sh: DAEMON_PIN must be taskset or cores" >&2
    exit 2
    ;;
esac
daemon_wait trnscid "unix:$SOCK"
bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --lapack-cpu "$DAEMON_CPU" "$@"
