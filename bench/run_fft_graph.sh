#!/bin/sh
# run_fft_graph.sh BUILD_DIR [bench_fft_graph options...]
#
# Many small FFTs (bench/fft_graph.c; results in docs/benchmarks.md): single
# complex-float C2C transforms, one plan of batch 1, executed on distinct
# buffers: launched one by one then one synchronize, and as one captured graph
# launched then synchronized, against FFTW in this process (FFTW_MEASURE, as
# the daemon plans, and the daemon's own plan from its wisdom). Cases
# (CASES, default "1024x10000 65536x200": N x COUNT), each over the local
# transport and over gRPC on TCP loopback: one JSON object per case and
# transport on stdout.
#
# Placement (2-vCPU machine): trnscid under `taskset -c $DAEMON_CPU` with
# `--cores 1` (every daemon thread on DAEMON_CPU, default 1) and a private
# --cache-dir (so the bench can load its FFTW wisdom); bench_fft_graph under
# `taskset -c $BENCH_CPU` (default 0), its in-process FFTW pinned to
# DAEMON_CPU for its samples (--inproc-cpu), so both sides compute on the same
# CPU. DAEMON_CPU = BENCH_CPU puts everything on one CPU. Extra arguments go to
# every run (e.g. --rounds 11). Exits non-zero if anything fails (status 3: a
# result disagrees with FFTW), including a trnscid not exiting 0 on SIGTERM
# (bench/daemon.sh).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_fft_graph "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
CASES=${CASES:-1024x10000 65536x200}
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-fft-graph
PORT=$((20000 + $$ % 20000))
mkdir "$BENCH_TMP/cache"
daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --cache-dir "$BENCH_TMP/cache" \
    --listen "unix:$BENCH_TMP/bench.sock" --listen "127.0.0.1:$PORT" --allow-unauthenticated-tcp \
    --log-level warn
daemon_wait trnscid "unix:$BENCH_TMP/bench.sock" "127.0.0.1:$PORT"

_rc=0
for c in $CASES; do
    n=${c%x*}
    count=${c#*x}
    for t in local grpc-tcp; do
        if [ "$t" = local ]; then addr="unix:$BENCH_TMP/bench.sock"; else addr="127.0.0.1:$PORT"; fi
        taskset -c "$BENCH_CPU" "$BENCH" --addr "$addr" --label "$t" --n "$n" --count "$count" \
            --inproc-cpu "$DAEMON_CPU" --daemon-pid "$DAEMON_PID" \
            --daemon-cache-dir "$BENCH_TMP/cache" "$@" || _rc=$?
        if [ "$_rc" -ne 0 ]; then
            bench_finish "$_rc"
        fi
    done
done
bench_finish 0
