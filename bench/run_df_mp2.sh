#!/bin/sh
# run_df_mp2.sh BUILD_DIR [REPEATS]
#
# DF-MP2 stage timings of examples/df_mp2 through trnscid for the synthetic
# system nbf 264, nocc 21 (nvir 243), naux 666, FP64, FP32 and mixed
# (float64 fit of the AO integrals, float32 kernels), and the two
# fused kernels' work (AoToMo, Mp2Energy) done in-process with
# numpy.einsum(optimize=True) in the same run (bench/df_mp2_numpy.py); see
# docs/benchmarks.md.
#
# Placement, MODE=one-core (the default): trnscid under `taskset -c
# $DAEMON_CPU --cores 1` (its worker on DAEMON_CPU), df_mp2 (the client)
# on BENCH_CPU, the numpy helper on DAEMON_CPU with OPENBLAS_NUM_THREADS=1:
# both sides compute on the same core. MODE=all-cores: trnscid with
# --cores $(nproc) unpinned, numpy with OPENBLAS_NUM_THREADS=$(nproc).
# Each df_mp2 run does the stages from aoToMo on 4 times: the first on
# freshly uploaded buffers (cold: the daemon's first touch of the shared
# memory is in it), then three warm ones. Prints one JSON object: per
# precision the medians over REPEATS (default 5) runs of each cold stage and
# of the warm medians, numpy's medians, and numpy / trnsci ratios, cold and
# warm (> 1: trnsci is faster).
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD_DIR [REPEATS]" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
REPEATS=${2:-5}
DAEMON="$BUILD/trnscid"
CLI="$BUILD/trnsci"
EXAMPLE="$BUILD/df_mp2"
if [ ! -x "$EXAMPLE" ] || [ ! -x "$DAEMON" ] || [ ! -x "$CLI" ]; then
    cmake --build "$BUILD" --target df_mp2 trnscid trnsci_cli -j"$(nproc)" >&2
fi
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
MODE=${MODE:-one-core}
PYTHON=${PYTHON:-/usr/bin/python3}
NCPU=$(nproc)
NBF=264 NOCC=21 NAUX=666

bench_tmpdir trnsci-df-mp2
SOCK="$BENCH_TMP/bench.sock"
if [ "$MODE" = one-core ]; then
    bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
    daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK" \
        --log-level warn
    CLIENT="taskset -c $BENCH_CPU"
    NUMPY="env OPENBLAS_NUM_THREADS=1 taskset -c $DAEMON_CPU"
else
    daemon_start trnscid "$DAEMON" --cores "$NCPU" --listen "unix:$SOCK" --log-level warn
    CLIENT=""
    NUMPY="env OPENBLAS_NUM_THREADS=$NCPU"
fi
daemon_wait trnscid "unix:$SOCK"
for prec in fp64 fp32 mixed; do
    flag="--precision $prec"
    numpy_prec=$prec
    [ "$prec" = mixed ] && numpy_prec=fp32 # the float32 kernels' work
    i=0
    while [ "$i" -lt "$REPEATS" ]; do
        # shellcheck disable=SC2086
        $CLIENT "$EXAMPLE" --addr "unix:$SOCK" --nbf $NBF --nocc $NOCC --naux $NAUX $flag --json --repeat 4 \
            >>"$BENCH_TMP/trnsci.$prec.json"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    $NUMPY "$PYTHON" "$SRC/bench/df_mp2_numpy.py" $NBF $NOCC $NAUX "$REPEATS" "$numpy_prec" \
        >"$BENCH_TMP/numpy.$prec.json"
done
daemon_stop trnscid
"$PYTHON" - "$BENCH_TMP" "$MODE" <<'PY'
import json, statistics, sys, os
d, mode = sys.argv[1], sys.argv[2]
out = {"bench": "df_mp2", "mode": mode, "load": os.getloadavg()[0], "results": []}
for prec in ("fp64", "fp32", "mixed"):
    runs = [json.loads(l) for l in open(os.path.join(d, "trnsci.%s.json" % prec))]
    npy = json.load(open(os.path.join(d, "numpy.%s.json" % prec)))
    med = {k: statistics.median(r["stages_ms"][k] for r in runs) for k in runs[0]["stages_ms"]}
    warm = {k: statistics.median(r["warm_ms"][k] for r in runs) for k in runs[0]["warm_ms"]}
    out["results"].append({
        "precision": prec, "runs": len(runs), "energy": runs[0]["energy"],
        "daemon_cores": runs[0]["daemon_cores"], "trnsci_stages_ms": med, "trnsci_warm_ms": warm,
        "numpy_aoToMo_ms": npy["numpy_aoToMo_ms"], "numpy_mp2_ms": npy["numpy_mp2_ms"],
        "ratio_aoToMo": npy["numpy_aoToMo_ms"] / med["aoToMo"],
        "ratio_mp2": npy["numpy_mp2_ms"] / med["mp2"],
        "ratio_aoToMo_warm": npy["numpy_aoToMo_ms"] / warm["aoToMo"],
        "ratio_mp2_warm": npy["numpy_mp2_ms"] / warm["mp2"]})
print(json.dumps(out, indent=1))
PY
