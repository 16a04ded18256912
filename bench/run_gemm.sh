#!/bin/sh
# run_gemm.sh BUILD_DIR [bench_gemm options...]
#
# SGEMM (DGEMM with --precision d) through trnscid versus in-process OpenBLAS
# on the same core, or with MODE=all-cores on every core on both sides
# (`make bench` runs `./bench/run_gemm.sh build`; see docs/benchmarks.md).
#
# OpenBLAS kernel sets: OPENBLAS_CORETYPE in the environment applies to both
# sides (the bench's OpenBLAS reads it, and trnscid keeps it under its default
# --blas-coretype auto). Without it the two may differ: where OpenBLAS does not
# know the CPU, the bench falls back to the generic Prescott kernels while
# trnscid restarts itself with the best set the CPU runs, and the ratio then
# compares kernels too. The JSON reports both ("openblas" and
# "daemon_openblas").
#
# Placement, one-core comparison (2-vCPU machine):
#   trnscid      started under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#                daemon thread may run only on DAEMON_CPU, and `--cores 1` (a
#                count: the first CPU the process may use) pins its single
#                worker there. (`--cores 1` without taskset would pick CPU 0;
#                a bare "1" is a count, not a CPU list.)
#   bench_gemm   started under `taskset -c $BENCH_CPU`, so the client side of
#                the trnsci phase does not compete with the worker; its
#                in-process OpenBLAS phase pins itself to DAEMON_CPU
#                (sched_setaffinity), so both GEMMs run on the same core.
#                Timed repetitions alternate trnsci / OpenBLAS (bench/gemm.c).
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), DAEMON_PIN:
#   taskset (default)  as above
#   cores              no taskset; `--cores $DAEMON_CPU-$DAEMON_CPU` (a one-CPU
#                      list) makes the daemon pin its worker itself, while its
#                      gRPC threads may run on any CPU
#   none               no pinning at all (daemon on all cores, bench unpinned,
#                      OpenBLAS side on the CPU the compute thread last ran on)
# MODE:
#   one-core (default) the comparison above: one daemon worker against
#                      single-threaded OpenBLAS on the same CPU
#   all-cores          every CPU on both sides: trnscid runs with
#                      `--cores $(nproc)` (no taskset; one pinned worker per
#                      CPU, and each big GEMM sharded over all of them),
#                      bench_gemm runs unpinned with `--openblas-threads
#                      $(nproc)` (in-process OpenBLAS with its own threading).
#                      DAEMON_CPU, BENCH_CPU and DAEMON_PIN are ignored.
# DAEMON_ARGS (default empty): more trnscid options, split at spaces and put
#   after the ones above in every placement, e.g.
#   DAEMON_ARGS="--blas-coretype default" (the daemon keeps OpenBLAS's own
#   choice, as the bench does).
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM. Starting, waiting for and
# stopping the daemon: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_gemm "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
DAEMON_PIN=${DAEMON_PIN:-taskset}
MODE=${MODE:-one-core}
case "$MODE" in
one-core | all-cores) ;;
*)
    echo "run_gemm.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac
NCPU=$(nproc)
DAEMON_ARGS=${DAEMON_ARGS:-}

if [ "$MODE" = one-core ]; then
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
fi

bench_tmpdir trnsci-bench
SOCK="$BENCH_TMP/bench.sock"
if [ "$MODE" = all-cores ]; then
    # shellcheck disable=SC2086 # DAEMON_ARGS is a list of words
    daemon_start trnscid "$DAEMON" --cores "$NCPU" --listen "unix:$SOCK" --log-level warn \
        $DAEMON_ARGS
else
    case "$DAEMON_PIN" in
    taskset)
        # shellcheck disable=SC2086
        daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
            --log-level warn $DAEMON_ARGS
        ;;
    cores)
        # shellcheck disable=SC2086
        daemon_start trnscid "$DAEMON" --cores "$DAEMON_CPU-$DAEMON_CPU" --listen "unix:$SOCK" \
            --log-level warn $DAEMON_ARGS
        ;;
    none)
        # shellcheck disable=SC2086
        daemon_start trnscid "$DAEMON" --listen "unix:$SOCK" --log-level warn $DAEMON_ARGS
        ;;
    *)
        echo "run_gemm.sh: DAEMON_PIN must be taskset, cores or none" >&2
        exit 2
        ;;
    esac
fi
daemon_wait trnscid "unix:$SOCK"

if [ "$MODE" = all-cores ]; then
    bench_run "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" --openblas-threads "$NCPU" "$@"
elif [ "$DAEMON_PIN" = none ]; then
    bench_run "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" "$@"
else
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --openblas-cpu "$DAEMON_CPU" \
        --daemon-pid "$DAEMON_PID" "$@"
fi
