#!/bin/sh
# run_tensor_convert.sh BUILD_DIR [bench_tensor_convert options...]
#
# An FP64 tensor converted to FP32 on the device (trntensorPermute, typeA
# R_64F, typeB R_32F, identity permutation) through trnscid versus an
# in-process conversion loop on as many threads as the daemon has cores, in
# the same run (see docs/benchmarks.md).
#
# Placement, by $MODE (2-vCPU machine):
#   one-core (default)  trnscid under `taskset -c $DAEMON_CPU` with `--cores 1`
#                       (its worker and every other daemon thread on
#                       DAEMON_CPU); bench_tensor_convert under
#                       `taskset -c $BENCH_CPU`, its one in-process thread
#                       pinned to DAEMON_CPU: both sides convert on one CPU.
#   all-cores           trnscid with `--cores $(nproc)` (one pinned worker per
#                       CPU); the bench unpinned, its $(nproc) in-process
#                       threads pinned one per CPU, 0 .. nproc-1.
# Environment: MODE, DAEMON_CPU (default 1), BENCH_CPU (default 0). Prints the
# bench's JSON on stdout.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_tensor_convert "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
bench_tmpdir trnsci-tensor-convert
SOCK="$BENCH_TMP/bench.sock"
case "${MODE:-one-core}" in
one-core)
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn
    daemon_wait trnscid "unix:$SOCK"
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" \
        --threads 1 --inproc-cpus "$DAEMON_CPU" "$@"
    ;;
all-cores)
    NCPU=$(nproc)
    daemon_start trnscid "$DAEMON" --cores "$NCPU" --listen "unix:$SOCK" --log-level warn
    daemon_wait trnscid "unix:$SOCK"
    bench_run "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" --threads "$NCPU" \
        --inproc-cpus "$(seq -s, 0 $((NCPU - 1)))" "$@"
    ;;
*)
    echo "run_tensor_convert.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac
