#!/bin/sh
# run_neuron.sh BUILD_DIR [bench_neuron options...]
#
# The Neuron backend's costs on the libnrt simulator (tests/nrtsim/, built in
# BUILD_DIR with the tests): labelled simulated in every figure.
#   1. NEFF cache: a new shape's first call (compile + load) and the calls
#      after it (resident), on a daemon with an empty --cache-dir; then the
#      first call again on a daemon restarted on that directory (load only);
#   2. host CPU per op: small SGEMMs issued to the NeuronCores, the CPU time
#      of the daemon (by thread too) and its executors per op beside the same
#      op issued straight to the runtime in the bench process; then the same
#      SGEMMs on a CPU-backend daemon;
#   3-6. under the simulator's timing model: one GEMM split over two cores,
#      DMA beside execution, resident operands, placement by location
#      (below); 7-8 busy placement and graphs; 9. operands as they lie
#      (--neuron-in-place) against packing; 10. an operand for a second
#      program: bound from the core's one copy, copied on the core, moved.
# Placement (2-vCPU machine): the daemon with --cores $DAEMON_CPU-$DAEMON_CPU,
# its executors pinned there (one per simulated core: the simulator has 3,
# the daemon owns cores 0-1, the bench's direct side core 2); the bench under
# `taskset -c $BENCH_CPU`. The timing model is off (NRTSIM_*_US/GBPS/GFLOPS
# unset): the figures are host costs only. NRTSIM_CC_MS (default here 500)
# stands in for the compile time.
# PHASES (default: all of "cache host split overlap resident locality busy") picks what
# runs; host needs cache's NEFF. NEURON_FLAGS go to the daemons of cache and
# host (e.g. --neuron-resident off).
# Prints one JSON object per measurement; exits non-zero if anything fails.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_neuron "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
LIB="$BUILD/tests/nrtsim/libnrt.so.1"
CC="$BUILD/tests/nrtsim/nrtsim-cc"
if [ ! -e "$LIB" ] || [ ! -x "$CC" ]; then
    cmake --build "$BUILD" --target nrtsim nrtsim-cc -j"$(nproc)" >&2
fi
bench_tmpdir trnsci-neuron
export NRTSIM_CORES=3 NRTSIM_LOCK_DIR="$BENCH_TMP/locks" NRTSIM_CC_MS="${NRTSIM_CC_MS:-500}"
CACHE="$BENCH_TMP/cache"
SOCK="$BENCH_TMP/bench.sock"

PHASES=${PHASES:-cache host split overlap resident locality busy}
want() {
    case " $PHASES " in *" $1 "*) return 0 ;; esac
    return 1
}

start() {
    # shellcheck disable=SC2086 # NEURON_FLAGS is a list of flags
    daemon_start "$1" env NEURON_RT_VISIBLE_CORES=0-1 "$DAEMON" --backend neuron \
        --neuron-lib "$LIB" --neuron-cc "$CC" --cache-dir "$CACHE" --cores "$DAEMON_CPU-$DAEMON_CPU" \
        --listen "unix:$SOCK" --log-level warn ${NEURON_FLAGS:-}
    daemon_wait "$1" "unix:$SOCK"
}

rc=0
if want cache || want host; then
    start first
    taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --phase first "$@" || rc=$?
    daemon_stop first || rc=1
fi
if [ "$rc" -eq 0 ] && want cache; then
    start restart
    taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --phase restart "$@" || rc=$?
    daemon_stop restart || rc=1
fi
NEFF=$(ls "$CACHE"/neff/*.neff 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && want host; then
    start host
    NEURON_RT_VISIBLE_CORES=2 taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --phase host \
        --daemon-pid "$DAEMON_PID" --lib "$LIB" --neff "$NEFF" "$@" || rc=$?
    daemon_stop host || rc=1
fi
# The same small SGEMMs on the CPU backend (one executor per CPU core).
if [ "$rc" -eq 0 ] && want host; then
    daemon_start cpu "$DAEMON" --backend cpu --cores "$DAEMON_CPU-$DAEMON_CPU" \
        --listen "unix:$SOCK" --log-level warn
    daemon_wait cpu "unix:$SOCK"
    NEURON_RT_VISIBLE_CORES=2 taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" \
        --phase host --backend cpu --daemon-pid "$DAEMON_PID" --lib "$LIB" --neff "$NEFF" \
        "$@" || rc=$?
    daemon_stop cpu || rc=1
fi
# 3. One big SGEMM split over both simulated cores, or run on one, under the
# timing model: NRTSIM_GFLOPS slow enough that the modelled execution (not
# the simulator's own reference GEMM on the host) sets the time. The
# daemon's executors run on both CPUs here, one per simulated core.
split_run() {
    daemon_start "split-$1" env NEURON_RT_VISIBLE_CORES=0-1 NRTSIM_GFLOPS=0.5 \
        NRTSIM_DMA_GBPS=2 NRTSIM_DISPATCH_US=50 "$DAEMON" --backend neuron \
        --neuron-lib "$LIB" --neuron-cc "$CC" --cache-dir "$CACHE" --listen "unix:$SOCK" \
        --log-level warn --neuron-split-min-mflop "$2"
    daemon_wait "split-$1" "unix:$SOCK"
    "$BENCH" "unix:$SOCK" --phase split --label "$1" --size "${SPLIT_SIZE:-256}" \
        --reps "${SPLIT_REPS:-7}" || rc=$?
    daemon_stop "split-$1" || rc=1
}
if [ "$rc" -eq 0 ] && want split; then
    split_run split 1
    split_run whole 0
fi
# 4. A strided batch of 16 128x128x128 SGEMMs (3 MiB of operands) that runs
# as 3 executions of 6 matrices on one core, each one's inputs moved while the
# one before runs; then on a core whose memory holds one tensor set per
# program (NRTSIM_HBM_MB), one after the other. The model's rates are low
# enough (0.1 GFLOPS, 0.02 GB/s) that it, not the simulator's host work,
# sets the times: 250 ms an execution, 19 ms a tensor's move.
overlap_run() {
    rm -f "$BENCH_TMP/trace"
    daemon_start "overlap-$1" env NEURON_RT_VISIBLE_CORES=0 NRTSIM_GFLOPS=0.1 NRTSIM_DMA_GBPS=0.02 \
        NRTSIM_DISPATCH_US=50 NRTSIM_TRACE="$BENCH_TMP/trace" NRTSIM_HBM_MB="$2" "$DAEMON" \
        --backend neuron --neuron-lib "$LIB" --neuron-cc "$CC" --cache-dir "$CACHE" \
        --listen "unix:$SOCK" --log-level warn --neuron-split-min-mflop 0
    daemon_wait "overlap-$1" "unix:$SOCK"
    "$BENCH" "unix:$SOCK" --phase overlap --label "$1" --size 128 --batch 16 --trace "$BENCH_TMP/trace" \
        --reps "${OVERLAP_REPS:-5}" || rc=$?
    daemon_stop "overlap-$1" || rc=1
}
if [ "$rc" -eq 0 ] && want overlap; then
    overlap_run pipelined 256
    overlap_run one-set 4
fi
# 5. Operands left in the core's memory (--neuron-resident): Y = W X with W
# 1024x256 (1 MiB) and X 256x64, the same GEMM again and again, then with X
# written before each call, then 8 of their own operands queued back to
# back (each one's inputs moved while the one before executes), on a daemon
# with resident operands and on one without. The model (0.5 GFLOPS, 0.02
# GB/s, 50 us a dispatch) makes an execution 67 ms and W's move 52 ms,
# enough above the simulator's own host work (its reference GEMM) to set
# the times.
# One daemon under that model on simulated cores $2 with --$3 $4, and the
# bench's phase $1 against it (labelled $4).
model_run() {
    rm -f "$BENCH_TMP/trace"
    daemon_start "$1-$4" env NEURON_RT_VISIBLE_CORES="$2" NRTSIM_GFLOPS=0.5 NRTSIM_DMA_GBPS=0.02 \
        NRTSIM_DISPATCH_US=50 NRTSIM_TRACE="$BENCH_TMP/trace" "$DAEMON" \
        --backend neuron --neuron-lib "$LIB" --neuron-cc "$CC" --cache-dir "$CACHE" \
        --listen "unix:$SOCK" --log-level warn "--$3" "$4"
    daemon_wait "$1-$4" "unix:$SOCK"
    "$BENCH" "unix:$SOCK" --phase "$1" --label "${5:-$4}" --size "${RESIDENT_SIZE:-256}" \
        --trace "$BENCH_TMP/trace" --reps "${RESIDENT_REPS:-9}" || rc=$?
    daemon_stop "$1-$4" || rc=1
}
if [ "$rc" -eq 0 ] && want resident; then
    model_run resident 0 neuron-resident on
    model_run resident 0 neuron-resident off
fi
# 6. Placement by location (--neuron-locality): Y = W1 X and Y = W2 X (W
# 1 MiB each) on two simulated cores, each first moved to a core of its
# own, then called in turn, each alone; the model of 5. With placement
# each runs where its W is; without, on the core woken for it.
if [ "$rc" -eq 0 ] && want locality; then
    model_run locality 0-1 neuron-locality on
    model_run locality 0-1 neuron-locality off
fi
# 7. Placement when the core that holds W is busy (the cost model): Y = W X
# with X 16 columns wide, called on one stream and, 2 ms later, on another;
# under the model of 5 the GEMM takes about 20 ms and moving W 52 ms, so
# the second call should wait for the first's core. With placement off it
# runs on the other core and moves W.
if [ "$rc" -eq 0 ] && want busy; then
    model_run busy 0-1 neuron-locality on
    model_run busy 0-1 neuron-locality off
fi
# 8. A graph segment as one program: T = W1 X, Y = W2 T, Y = 0.5 W3 X + Y
# (S = GRAPH_SIZE, default 128: 128x32x128, 64x32x128 twice) captured and
# launched once its sequence NEFF is compiled, against the same GEMMs one by
# one; the model of 5.
if [ "$rc" -eq 0 ] && want graph; then
    RESIDENT_SIZE="${GRAPH_SIZE:-128}" model_run graph 0 neuron-resident on
fi
# 9. Operands as they lie (--neuron-in-place): Y = A^T X, A S x S (S =
# INPLACE_SIZE, default 1024) and X S x 16, on one simulated core with
# --neuron-resident off, so every call moves A: per GEMM the host time spent
# packing (the daemon's metric), the executor's CPU time (the simulated
# runtime's reference GEMM included) and the bytes moved; on vs off. No
# timing model: host costs only. The daemon pinned to $DAEMON_CPU, the
# bench to $BENCH_CPU.
in_place_run() {
    port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    daemon_start "in-place-$1" env NEURON_RT_VISIBLE_CORES=0 "$DAEMON" --backend neuron \
        --neuron-lib "$LIB" --neuron-cc "$CC" --cache-dir "$CACHE" --cores "$DAEMON_CPU-$DAEMON_CPU" \
        --listen "unix:$SOCK" --log-level warn --metrics-listen "127.0.0.1:$port" \
        --neuron-resident off --neuron-in-place "$1"
    daemon_wait "in-place-$1" "unix:$SOCK"
    taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --phase in-place --label "$1" \
        --size "${INPLACE_SIZE:-1024}" --ops "${INPLACE_OPS:-5}" --reps "${INPLACE_REPS:-7}" \
        --daemon-pid "$DAEMON_PID" --metrics-port "$port" || rc=$?
    daemon_stop "in-place-$1" || rc=1
}
if [ "$rc" -eq 0 ] && want in-place; then
    in_place_run on
    in_place_run off
fi
# 10. One W for GEMMs of two programs (Y1 = W X1, Y2 = W X2; X 16 and 32
# columns wide), W written before each round, under the model of 5 with the
# core's own memory 10x the host's DMA (NRTSIM_HBM_GBPS=0.2), three ways:
# the core's one copy of W, which both programs bind (the default); each
# program's own copy, the second copied on the core (--neuron-core-copies
# off); packed, each moving W from the host (--neuron-in-place off).
if [ "$rc" -eq 0 ] && want on-core; then
    export NRTSIM_HBM_GBPS=0.2
    model_run on-core 0 neuron-core-copies on core-copies
    model_run on-core 0 neuron-core-copies off copied-on-core
    model_run on-core 0 neuron-in-place off packed
    unset NRTSIM_HBM_GBPS
fi
bench_finish "$rc"
