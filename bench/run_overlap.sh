#!/bin/sh
# run_overlap.sh BUILD_DIR [bench_overlap options...]
#
# Benchmark 3 of docs/benchmarks.md: upload → SGEMM → download over gRPC,
# pipelined on two streams versus serialised, with ONE compute core.
#
# Placement (2-vCPU machine):
#   trnscid        --cores $CORE_CPU-$CORE_CPU: its single compute worker is
#                  pinned to CORE_CPU (default 1); its copy engine
#                  (--copy-engines 1), gRPC and timer threads are not pinned.
#   bench_overlap  under `taskset -c $BENCH_CPU` (default 0), with the client
#                  library's fetch thread.
# The daemon listens on grpc+unix: only: the bench measures the remote path,
# where every byte crosses the wire.
# Prints the bench's JSON; exits non-zero if anything fails, including
# trnscid not exiting 0 on SIGTERM. Starting, waiting for and stopping the
# daemon: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_overlap "$@"
shift
CORE_CPU=${CORE_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}

bench_tmpdir trnsci-overlap
ADDR="grpc+unix:$BENCH_TMP/overlap.sock"
daemon_start trnscid "$DAEMON" --cores "$CORE_CPU-$CORE_CPU" --copy-engines 1 --listen "$ADDR" \
    --log-level warn
daemon_wait trnscid "$ADDR"

bench_run taskset -c "$BENCH_CPU" "$BENCH" "$ADDR" "$@"
