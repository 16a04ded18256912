#!/usr/bin/env python3
"""Turns bench_gemm_modes JSON (bench/run_gemm_modes.sh) into the Markdown
tables of docs/numerics.md ("Measured error") and docs/benchmarks.md.

usage: summarize_gemm_modes.py RESULT.json [RESULT.json ...]
Accuracy: one table per input, modes by n, each cell componentwise /
normwise error. Speed: the median over the files of each figure."""
import json
import statistics
import sys


def fmt(x):
    return "overflow" if x is None else f"{x:.1e}"


def accuracy(runs):
    rows = [r for run in runs for r in run.get("accuracy", [])]
    if not rows:
        return
    for inp in ("uniform", "wide", "cancel"):
        sel = [r for r in rows if r["input"] == inp]
        if not sel:
            continue
        sizes = sorted({r["n"] for r in sel})
        modes = list(sel[0]["modes"].keys())
        print(f"\n**{inp}** (componentwise / normwise)\n")
        print("| mode | " + " | ".join(f"n = {n}" for n in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        for m in modes:
            cells = []
            for n in sizes:
                r = next(x for x in sel if x["n"] == n)
                e = r["modes"][m]
                cells.append(f"{fmt(e['componentwise'])} / {fmt(e['normwise'])}")
            print(f"| {m} | " + " | ".join(cells) + " |")


def speed(runs):
    rows = [r for run in runs for r in run.get("speed", [])]
    if not rows:
        return
    for n in sorted({r["n"] for r in rows}):
        sel = [r for r in rows if r["n"] == n]
        med = lambda f: statistics.median(f(r) for r in sel)
        print(f"\n**n = {n}** (median of {len(sel)} runs)\n")
        print("| mode | ms | GFLOP/s | vs 32F |")
        print("|---|---|---|---|")
        for m in sel[0]["modes"]:
            print(f"| {m} | {med(lambda r: r['modes'][m]['ms']):.1f} | "
                  f"{med(lambda r: r['modes'][m]['gflops']):.1f} | "
                  f"{med(lambda r: r['modes'][m]['ratio_vs_32f']):.3f} |")
        extra = [("OpenBLAS SGEMM in-process, ms", "openblas_sgemm_ms"),
                 ("OpenBLAS DGEMM in-process, ms", "openblas_dgemm_ms"),
                 ("daemon 32F vs OpenBLAS SGEMM", "daemon_32f_vs_openblas_sgemm"),
                 ("naive long-double GEMM, ms", "naive_long_double_ms"),
                 ("64F_EMULATED speed-up over naive long double", "emulated_vs_naive_ld"),
                 ("64F_EMULATED vs OpenBLAS DGEMM", "emulated_vs_openblas_dgemm")]
        for label, key in extra:
            if all(key in r for r in sel):
                print(f"| {label} | {med(lambda r: r[key]):.3f} | | |")


def main():
    runs = [json.load(open(p)) for p in sys.argv[1:]]
    accuracy(runs)
    speed(runs)


if __name__ == "__main__":
    main()
