#!/usr/bin/python3
"""GEMM throughput and accuracy of each trnsci precision mode, as a PNG.

    gemm_precision.py [--n N] [--repeats R] [--out gemm_precision.png]

For each precision mode of trnsci.linalg.matmul (float32: default,
pedantic, tf32, bf16, bf16x3, bf16x9, fp16; float64: default, pedantic,
emulated) it multiplies two N x N matrices of standard normal entries on
the daemon ($TRNSCI_ADDR or the default socket), takes the best of R
timed runs (2 N^3 flops each, the time including the round trip), and
measures the error against float64 NumPy on the same (rounded) inputs:
max |C - C_ref| / max (|A| |B|), the normwise form of the elementwise
bound |C - AB| <= gamma_N |A||B| (Higham, Thm 3.5). Two bar charts
(throughput; error on a log scale, with the unit roundoff of each
mode's inputs as a marker) are written to the PNG; the figures are also
printed as JSON.
"""
import argparse
import json
import time

import matplotlib
import numpy as np

import trnsci
from trnsci import linalg as la

matplotlib.use("Agg")  # no display: write the file only
import matplotlib.pyplot as plt  # noqa: E402

# The unit roundoff of what each mode multiplies with (docs/numerics.md):
# its inputs' rounding, or the data type's where the mode keeps full precision.
MODES = [("float32", "default", 2.0**-24), ("float32", "pedantic", 2.0**-24),
         ("float32", "tf32", 2.0**-11), ("float32", "bf16", 2.0**-8),
         ("float32", "bf16x3", 2.0**-16), ("float32", "bf16x9", 2.0**-24),
         ("float32", "fp16", 2.0**-11),
         ("float64", "default", 2.0**-53), ("float64", "pedantic", 2.0**-53),
         ("float64", "emulated", 2.0**-53)]


def measure(n, repeats, dtype, precision):
    rng = np.random.default_rng(0)
    A = rng.standard_normal((n, n)).astype(dtype)
    B = rng.standard_normal((n, n)).astype(dtype)
    a, b = trnsci.asarray(A), trnsci.asarray(B)
    c = trnsci.empty((n, n), dtype)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        la.matmul(a, b, out=c, precision=precision)
        best = min(best, time.perf_counter() - t)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    scale = (np.abs(A).astype(np.float64) @ np.abs(B).astype(np.float64)).max()
    return 2 * n**3 / best / 1e9, float(np.abs(c.get() - ref).max() / scale)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default="gemm_precision.png")
    args = ap.parse_args()
    rows = []
    for dtype, mode, u_in in MODES:
        gflops, err = measure(args.n, args.repeats, dtype, mode)
        rows.append({"dtype": dtype, "precision": mode, "gflops": gflops, "error": err,
                     "u_in": u_in})
    labels = [f"{r['dtype'][5:]}\n{r['precision']}" for r in rows]
    colors = ["tab:blue" if r["dtype"] == "float32" else "tab:orange" for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    top.bar(labels, [r["gflops"] for r in rows], color=colors)
    top.set_ylabel("GFLOP/s")
    top.set_title(f"trnsci GEMM, n = {args.n}: throughput and error against float64")
    bottom.bar(labels, [max(r["error"], 1e-18) for r in rows], color=colors)
    bottom.plot(labels, [r["u_in"] for r in rows], "k_", markersize=20,
                label="unit roundoff of the mode's inputs")
    bottom.set_yscale("log")
    bottom.set_ylabel("max |C - C64| / max |A||B|\n(0 drawn at 1e-18)")
    bottom.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(json.dumps({"n": args.n, "png": args.out, "modes": rows}, indent=1))


if __name__ == "__main__":
    main()
