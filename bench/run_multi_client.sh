#!/bin/sh
# run_multi_client.sh BUILD_DIR [bench_multi_client options...]
#
# Several client processes streaming SGEMM through one trnscid against as many
# processes calling OpenBLAS directly, alternating phases in one run
# (bench/multi_client.c): aggregate GFLOP/s, the ratio trnsci / OpenBLAS and
# Jain's fairness index over the clients.
#
# Placement:
#   trnscid             started without taskset, with `--cores $(nproc)`: one
#                       worker per CPU, each pinned by the daemon to its CPU;
#                       every 1024^3 GEMM is sharded over all of them. Its
#                       other threads (local transport loop, gRPC) are unpinned.
#   bench_multi_client  unpinned, and so are the client processes it forks and
#                       execs (trnsci clients, and OpenBLAS clients with
#                       OpenBLAS's default threading: OPENBLAS_NUM_THREADS and
#                       friends are unset here so that each process starts one
#                       thread per CPU).
# The JSON's placement section records the CPUs each side actually used.
# Environment: CORES (default $(nproc)) overrides the daemon's --cores.
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM. Starting, waiting for and
# stopping the daemon: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_multi_client "$@"
shift
CORES=${CORES:-$(nproc)}

# OpenBLAS's default threading, whatever the caller's environment says.
unset OPENBLAS_NUM_THREADS GOTO_NUM_THREADS OMP_NUM_THREADS

bench_tmpdir trnsci-multi
SOCK="$BENCH_TMP/bench.sock"
daemon_start trnscid "$DAEMON" --cores "$CORES" --listen "unix:$SOCK" --log-level warn
daemon_wait trnscid "unix:$SOCK"

bench_run "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" "$@"
