#!/bin/sh
# run_small_op_latency.sh BUILD_DIR [bench_small_op_latency options...]
#
# A small op's latency (a 32^3 SGEMM + Synchronize on its own stream) while
# another client process keeps the daemon busy with 2048^3 SGEMMs that it
# shards over every core, beside the same op on an idle daemon and the run
# time of one shard of the big GEMM, in one run (bench/small_op_latency.c).
#
# Placement:
#   trnscid                 started without taskset, with `--cores $(nproc)`:
#                           one worker per CPU, each pinned by the daemon to
#                           its CPU, so every big GEMM is split into one shard
#                           per core. Its other threads (local transport loop,
#                           gRPC) are unpinned.
#   bench_small_op_latency  unpinned: the probe (this process) and the load
#                           client it forks and execs. The shard time is
#                           measured in the probe process, single-threaded,
#                           while the daemon is idle.
# The JSON's placement section records the CPUs each side actually used.
# Environment: CORES (default $(nproc)) overrides the daemon's --cores.
# Prints the bench's JSON on stdout; exits non-zero if anything fails,
# including trnscid not exiting 0 on SIGTERM. Starting, waiting for and
# stopping the daemon: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_small_op_latency "$@"
shift
CORES=${CORES:-$(nproc)}

bench_tmpdir trnsci-smallop
SOCK="$BENCH_TMP/bench.sock"
daemon_start trnscid "$DAEMON" --cores "$CORES" --listen "unix:$SOCK" --log-level warn
daemon_wait trnscid "unix:$SOCK"

bench_run "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" "$@"
