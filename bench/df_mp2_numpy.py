#!/usr/bin/python3
"""In-process numpy figures for bench/run_df_mp2.sh: the two fused
trntensor kernels' work done with numpy.einsum(optimize=True) (OpenBLAS
underneath), on random data of the DF-MP2 shapes.

    df_mp2_numpy.py NBF NOCC NAUX REPEATS fp64|fp32

Prints one JSON object: the median wall time in ms of
  aoToMo: B = einsum("Pmn,mi,na->iaP", L, Cocc, Cvir)
  mp2:    V = einsum("iaP,jbP->iajb", B, B); E = sum V (2V - V^T') / D
(the energy expression in float64, as trntensorMp2Energy sums it).
Pin it (taskset) and set OPENBLAS_NUM_THREADS to match the daemon's cores.
"""
import json
import sys
import time

import numpy as np


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(1e3 * (time.perf_counter() - t0))
    return float(np.median(times))


def main():
    nbf, nocc, naux, repeats = (int(x) for x in sys.argv[1:5])
    dt = np.float32 if sys.argv[5] == "fp32" else np.float64
    nvir = nbf - nocc
    rng = np.random.default_rng(1)
    lpq = (rng.random((naux, nbf, nbf)) - 0.5).astype(dt) / nbf
    c = (rng.random((nbf, nbf)) - 0.5).astype(dt)
    co, cv = c[:, :nocc], c[:, nocc:]
    eo = np.linspace(-1.2, -0.3, nocc)
    ev = np.linspace(0.15, 2.65, nvir)
    den = eo[:, None, None, None] + eo[None, None, :, None] - ev[None, :, None, None] \
        - ev[None, None, None, :]
    out = {}

    def aotomo():
        out["b"] = np.einsum("Pmn,mi,na->iaP", lpq, co, cv, optimize=True)

    def mp2():
        b = out["b"]
        v = np.einsum("iaP,jbP->iajb", b, b, optimize=True).astype(np.float64)
        out["e"] = float((v * (2.0 * v - v.transpose(0, 3, 2, 1)) / den).sum())

    aotomo()
    ms_ao = median_ms(aotomo, repeats)
    ms_mp2 = median_ms(mp2, repeats)
    print(json.dumps({"precision": sys.argv[5], "numpy_aoToMo_ms": ms_ao, "numpy_mp2_ms": ms_mp2,
                      "numpy": np.__version__}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
