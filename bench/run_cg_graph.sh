#!/bin/sh
# run_cg_graph.sh BUILD_DIR [bench_cg_graph options...]
#
# Conjugate gradient with no synchronize in the loop (bench/cg_graph.c;
# results in docs/benchmarks.md): 1,000 iterations on the 2D Poisson matrix
# (m = 100, n = 10^4, CSR, float), SpMV + dots + axpys in device pointer mode
# with alpha and beta computed on the device, as a loop of launched calls and
# as one captured iteration launched 1,000 times, against the same kernels
# in process; over the local transport and over gRPC on TCP loopback. One
# JSON object per transport on stdout.
#
# Placement (2-vCPU machine): trnscid under `taskset -c $DAEMON_CPU` with
# `--cores 1` (every daemon thread on DAEMON_CPU, default 1); bench_cg_graph
# under `taskset -c $BENCH_CPU` (default 0), its in-process iterations pinned
# to DAEMON_CPU (--inproc-cpu), so both sides compute on the same CPU.
# DAEMON_CPU = BENCH_CPU puts everything on one CPU.
#
# Kernel sets: the bench's OpenBLAS gets the daemon's kernel set (the
# daemon's self-test reports it; OPENBLAS_CORETYPE for the bench only), so
# both sides run the same Level 1 kernels and the three variants must agree
# bitwise. BENCH_CORETYPE=default leaves the bench's environment alone (on
# this CPU OpenBLAS then runs its Prescott kernels in the bench: a different
# kernel set, and only convergence is checked). Extra arguments go to both
# runs (e.g. --rounds 11). Exits non-zero if anything fails (status 3: a
# check failed), including a trnscid not exiting 0 on SIGTERM
# (bench/daemon.sh).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_cg_graph "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
BENCH_CORETYPE=${BENCH_CORETYPE:-daemon}
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-cg-graph
PORT=$((20000 + $$ % 20000))
SOCK="unix:$BENCH_TMP/bench.sock"
daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
    --listen "$SOCK" --listen "127.0.0.1:$PORT" --allow-unauthenticated-tcp \
    --log-level warn
daemon_wait trnscid "$SOCK" "127.0.0.1:$PORT"

if [ "$BENCH_CORETYPE" = daemon ]; then
    _core=$("$CLI" --addr "$SOCK" selftest --latest --json |
        sed -n 's/.*"blas_core": "\([A-Za-z0-9_]*\)".*/\1/p' | head -n 1)
    if [ -z "$_core" ]; then
        echo "$BENCH_NAME: could not read the daemon's OpenBLAS kernel set" >&2
        bench_finish 1
    fi
    OPENBLAS_CORETYPE=$_core
    export OPENBLAS_CORETYPE
elif [ "$BENCH_CORETYPE" != default ]; then
    echo "$BENCH_NAME: BENCH_CORETYPE must be daemon or default" >&2
    bench_finish 2
fi

_rc=0
taskset -c "$BENCH_CPU" "$BENCH" --addr "$SOCK" --label local --inproc-cpu "$DAEMON_CPU" \
    --daemon-pid "$DAEMON_PID" "$@" || _rc=$?
if [ "$_rc" -ne 0 ]; then
    bench_finish "$_rc"
fi
bench_run taskset -c "$BENCH_CPU" "$BENCH" --addr "127.0.0.1:$PORT" --label grpc-tcp \
    --inproc-cpu "$DAEMON_CPU" --daemon-pid "$DAEMON_PID" "$@"
