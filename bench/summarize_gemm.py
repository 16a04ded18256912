#!/usr/bin/env python3
"""Summarise several bench_gemm JSON outputs (one per run_gemm.sh run).

usage: summarize_gemm.py RUN1.json RUN2.json ...

Prints, per n, the median over runs of each run's medians (trnsci ms, OpenBLAS
ms, GFLOP/s) and of the per-run ratios, as the Markdown table kept in
docs/benchmarks.md, followed by every run's ratios.
"""
import statistics

from summary_util import cli


def main(runs):
    sizes = [r["n"] for r in runs[0]["results"]]
    print("| n | trnsci ms | OpenBLAS ms | trnsci GFLOP/s | OpenBLAS GFLOP/s | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        rows = [next(x for x in run["results"] if x["n"] == n) for run in runs]
        med = lambda key: statistics.median(key(x) for x in rows)  # noqa: E731
        print(f"| {n} | {med(lambda x: x['trnsci_ms']['median']):.3f} "
              f"| {med(lambda x: x['openblas_ms']['median']):.3f} "
              f"| {med(lambda x: x['trnsci_gflops']):.1f} "
              f"| {med(lambda x: x['openblas_gflops']):.1f} "
              f"| {med(lambda x: x['ratio']):.3f} |")
    print()
    for n in sizes:
        ratios = [next(x for x in run["results"] if x["n"] == n)["ratio"] for run in runs]
        agree = all(next(x for x in run["results"] if x["n"] == n)["agree"] for run in runs)
        print(f"n={n}: ratios per run {', '.join(f'{r:.3f}' for r in ratios)}; "
              f"median {statistics.median(ratios):.3f}; results agree in every run: {agree}")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
