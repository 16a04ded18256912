#!/bin/sh
# run_sparse.sh BUILD_DIR [bench_sparse options...]
#
# trnsparse SpMV/SpMM through trnscid versus scipy.sparse in the same run,
# and BSR SpMM at block 128 versus dense GEMM (see docs/benchmarks.md).
#
# Placement, one-core comparison (MODE=one-core, the default, 2-vCPU machine):
#   trnscid        under `taskset -c $DAEMON_CPU` with `--cores 1`: its worker
#                  (and every other daemon thread) on DAEMON_CPU.
#   bench_sparse   under `taskset -c $BENCH_CPU`: the client side does not
#                  compete with the worker.
#   scipy helper   (bench/sparse_scipy.py, a child of bench_sparse under
#                  Debian's python3) pins itself to DAEMON_CPU, and the BSR
#                  case's in-process OpenBLAS GEMM pins itself there too: both
#                  sides compute on the same core.
# MODE=all-cores: trnscid with `--cores $(nproc)` and no taskset (one pinned
#   worker per CPU, large ops sharded); bench and helper unpinned; the ratio
#   is still against single-threaded scipy, and per_core divides it by the
#   daemon's cores.
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), PYTHON
# (default /usr/bin/python3). Prints the bench's JSON on stdout.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_sparse "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
MODE=${MODE:-one-core}
PYTHON=${PYTHON:-/usr/bin/python3}
NCPU=$(nproc)

bench_tmpdir trnsci-sparse
SOCK="$BENCH_TMP/bench.sock"
HELPER="$SRC/bench/sparse_scipy.py"
case "$MODE" in
one-core)
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn
    daemon_wait trnscid "unix:$SOCK"
    bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --helper "$HELPER" \
        --python "$PYTHON" --tmp "$BENCH_TMP" --scipy-cpu "$DAEMON_CPU" --cores 1 "$@"
    ;;
all-cores)
    daemon_start trnscid "$DAEMON" --cores "$NCPU" --listen "unix:$SOCK" --log-level warn
    daemon_wait trnscid "unix:$SOCK"
    bench_run "$BENCH" "unix:$SOCK" --helper "$HELPER" --python "$PYTHON" --tmp "$BENCH_TMP" \
        --cores "$NCPU" "$@"
    ;;
*)
    echo "run_sparse.sh: MODE must be one-core or all-cores" >&2
    exit 2
    ;;
esac
