#!/usr/bin/env python3
"""Summarise several bench_blas3 JSON outputs (one per run_blas3.sh run).

usage: summarize_blas3.py RUN1.json RUN2.json ...

Prints, per routine and n, the median over runs of each run's medians
(trnsci ms, OpenBLAS ms, and GFLOP/s or GB/s) and of the per-run ratios, as
the Markdown table kept in docs/benchmarks.md, followed by every run's ratios.
Runs may cover different routines and sizes; each row uses the runs that
measured it.
"""
import statistics

from summary_util import cli


def main(runs):
    keys = []
    for run in runs:
        for x in run["results"]:
            if (x["routine"], x["n"]) not in keys:
                keys.append((x["routine"], x["n"]))
    mode = runs[0].get("mode", "one-core")
    print(f"mode: {mode}, {len(runs)} runs")
    print("| routine | n | trnsci ms | OpenBLAS ms | trnsci rate | OpenBLAS rate | ratio | runs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for routine, n in keys:
        rows = [x for run in runs for x in run["results"]
                if x["routine"] == routine and x["n"] == n]
        med = lambda key: statistics.median(key(x) for x in rows)  # noqa: E731
        unit = "gflops" if "gflops" in rows[0] else "gbytes_per_s"
        suffix = " GFLOP/s" if unit == "gflops" else " GB/s"
        print(f"| {routine} ({rows[0]['form']}) | {n} "
              f"| {med(lambda x: x['trnsci_ms']['median']):.1f} "
              f"| {med(lambda x: x['openblas_ms']['median']):.1f} "
              f"| {med(lambda x: x[unit]['trnsci']):.1f}{suffix} "
              f"| {med(lambda x: x[unit]['openblas']):.1f}{suffix} "
              f"| {med(lambda x: x['ratio']):.3f} | {len(rows)} |")
    print()
    for routine, n in keys:
        rows = [x for run in runs for x in run["results"]
                if x["routine"] == routine and x["n"] == n]
        ratios = ", ".join(f"{x['ratio']:.3f}" for x in rows)
        diff = max(x["max_rel_diff"] for x in rows)
        print(f"{routine} n={n}: ratios per run {ratios}; max_rel_diff {diff:.2g}")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
