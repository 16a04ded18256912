#!/bin/sh
# run_tensor.sh BUILD_DIR [bench_tensor options...]
#
# trntensor contractions through trnscid versus numpy.einsum(optimize=True)
# in the same run, and a GEMM-shaped contraction versus trnblasSgemm (see
# docs/benchmarks.md).
#
# Placement (2-vCPU machine):
#   trnscid        under `taskset -c $DAEMON_CPU` with `--cores 1`: its worker
#                  (and every other daemon thread) on DAEMON_CPU.
#   bench_tensor   under `taskset -c $BENCH_CPU`: the client side does not
#                  compete with the worker.
#   numpy helper   (bench/tensor_numpy.py under Debian's python3, a child of
#                  bench_tensor run after the trnsci repetitions) pins itself
#                  to DAEMON_CPU with OPENBLAS_NUM_THREADS=1: both sides
#                  compute on one core, with single-threaded OpenBLAS.
# Environment: DAEMON_CPU (default 1), BENCH_CPU (default 0), PYTHON
# (default /usr/bin/python3). Prints the bench's JSON on stdout.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_tensor "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
PYTHON=${PYTHON:-/usr/bin/python3}

bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
bench_tmpdir trnsci-tensor
SOCK="$BENCH_TMP/bench.sock"
daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
    --log-level warn
daemon_wait trnscid "unix:$SOCK"
bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --helper "$SRC/bench/tensor_numpy.py" \
    --python "$PYTHON" --tmp "$BENCH_TMP" --numpy-cpu "$DAEMON_CPU" "$@"
