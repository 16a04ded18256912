#!/bin/sh
# neuron-validate.sh BUILD_DIR [REPORT.md]
#
# Validates the Neuron backend on a Trainium host (trn1/trn2 with the Neuron
# SDK: the runtime, libnrt.so.1, and the compiler's Python environment,
# neuronxcc) and writes a Markdown report (default neuron-validate-report.md)
# of what passed, what failed, and the figures. Everything the backend does
# is otherwise tested on the libnrt simulator only (docs/neuron.md).
#
# Steps, each recorded in the report whatever the others did:
#   1. the runtime loads and reports NeuronCores (neuron-ls when present);
#   2. the NKI kernels under NKI's own simulator (tests/nki/test_nki_gemm.py,
#      which uses nki.simulate_kernel when neuronxcc is importable);
#   3. the compiler driver: scripts/trnsci-nki-cc --version and one compile;
#   4. the GEMM integration tests with every daemon on the real backend
#      (test_gemm, test_gemm_ex, test_blas3; their error bounds are the
#      modes' documented ones);
#   5. bench_neuron on the real backend: the first call of a new shape
#      (compile + load) against resident calls.
# Environment: NEURON_LIB (default: the loader's libnrt.so.1, else
# /opt/aws/neuron/lib/libnrt.so.1), NEURON_TARGET (trn1). Build BUILD_DIR
# with tests and benchmarks (make build does).
set -u
BUILD=$(cd "${1:?usage: $0 BUILD_DIR [REPORT.md]}" && pwd)
REPORT=${2:-neuron-validate-report.md}
SRC=$(cd "$(dirname "$0")/.." && pwd)
CC="$SRC/scripts/trnsci-nki-cc"
TARGET=${NEURON_TARGET:-trn1}
WORK=$(mktemp -d /tmp/trnsci-neuron-validate-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
LIB_ARGS=""
if [ -n "${NEURON_LIB:-}" ]; then
    LIB_ARGS="--neuron-lib $NEURON_LIB"
fi
PASS=0
FAIL=0

{
    echo "# Neuron backend validation"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "- host: $(uname -n), $(nproc) CPUs, target $TARGET"
    echo "- trnsci: $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo
} >"$REPORT"

# step NAME COMMAND...: runs COMMAND, records its status and output's tail.
step() {
    _name=$1
    shift
    echo "== $_name" >&2
    _rc=0
    "$@" >"$WORK/out" 2>&1 || _rc=$?
    if [ "$_rc" -eq 0 ]; then
        PASS=$((PASS + 1))
        _verdict=passed
    else
        FAIL=$((FAIL + 1))
        _verdict="FAILED (status $_rc)"
    fi
    {
        echo "## $_name: $_verdict"
        echo
        echo '```'
        tail -n 40 "$WORK/out"
        echo '```'
        echo
    } >>"$REPORT"
    return "$_rc"
}

probe() {
    if command -v neuron-ls >/dev/null 2>&1; then
        neuron-ls
    fi
    # --backend neuron refuses to start without a runtime and cores: start
    # it, ask its status, stop it.
    "$BUILD/trnscid" --backend neuron $LIB_ARGS --listen "unix:$WORK/probe.sock" \
        --log-level info 2>"$WORK/probe.log" &
    _pid=$!
    _i=0
    until "$BUILD/trnsci" --addr "unix:$WORK/probe.sock" status; do
        _i=$((_i + 1))
        if [ "$_i" -ge 100 ] || ! kill -0 "$_pid" 2>/dev/null; then
            cat "$WORK/probe.log"
            kill "$_pid" 2>/dev/null
            return 1
        fi
        sleep 0.2
    done
    kill -TERM "$_pid"
    wait "$_pid"
    cat "$WORK/probe.log"
}

compile_one() {
    "$CC" --version &&
        "$CC" compile --source "$SRC/kernels/neuron/nki/gemm.py" --kernel gemm \
            --params "dtype=f32 mode=bf16 m=256 n=512 k=384 batch=1" --target "$TARGET" \
            --output "$WORK/gemm.neff" &&
        ls -l "$WORK/gemm.neff"
}

integration() {
    _rc=0
    for _t in gemm gemm_ex blas3; do
        TRNSCI_TEST_DAEMON_ARGS="--backend neuron $LIB_ARGS --neuron-cc $CC --neuron-target $TARGET --neuron-compile-timeout-s 1800" \
            "$BUILD/tests/integration/test_$_t" || _rc=1
    done
    return "$_rc"
}

bench() {
    _cache="$WORK/cache"
    "$BUILD/trnscid" --backend neuron $LIB_ARGS --neuron-cc "$CC" --neuron-target "$TARGET" \
        --cache-dir "$_cache" --listen "unix:$WORK/bench.sock" --log-level warn \
        2>"$WORK/bench-daemon.log" &
    _pid=$!
    _i=0
    until "$BUILD/trnsci" --addr "unix:$WORK/bench.sock" status >/dev/null 2>&1; do
        _i=$((_i + 1))
        [ "$_i" -lt 100 ] || { cat "$WORK/bench-daemon.log"; kill "$_pid"; return 1; }
        sleep 0.2
    done
    "$BUILD/bench/bench_neuron" "unix:$WORK/bench.sock" --phase first --reps 21
    _rc=$?
    kill -TERM "$_pid"
    wait "$_pid"
    return "$_rc"
}

step "1. runtime and cores" probe
step "2. NKI kernels on NKI's simulator" /usr/bin/env python3 "$SRC/tests/nki/test_nki_gemm.py"
step "3. compiler driver" compile_one
step "4. GEMM integration tests on NeuronCores" integration
step "5. benchmarks" bench
{
    echo "## Summary"
    echo
    echo "$PASS steps passed, $FAIL failed."
} >>"$REPORT"
echo "report: $REPORT ($PASS passed, $FAIL failed)" >&2
[ "$FAIL" -eq 0 ]
