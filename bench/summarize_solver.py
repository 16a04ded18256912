#!/usr/bin/env python3
"""Summarise several bench_solver JSON outputs (one per run_solver.sh run).

usage: summarize_solver.py RUN1.json RUN2.json ...

Prints, per routine and n present in the runs, the median over runs of each
run's medians (trnsci ms, LAPACK ms) and of the per-run ratios, as the
Markdown table kept in docs/benchmarks.md, then every run's ratios, then the
syevj-vs-syevd rows of every run.
"""
import statistics

from summary_util import cli


def main(runs):
    keys = []
    for run in runs:
        for x in run["results"]:
            if (x["routine"], x["n"]) not in keys:
                keys.append((x["routine"], x["n"]))
    print("| routine | n | runs | trnsci ms | LAPACK ms | ratio | max_rel_diff |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    per_run = {}
    for routine, n in keys:
        rows = [x for run in runs for x in run["results"]
                if x["routine"] == routine and x["n"] == n]
        med = lambda key: statistics.median(key(x) for x in rows)  # noqa: E731
        per_run[(routine, n)] = [x["ratio"] for x in rows]
        print(f"| {routine} | {n} | {len(rows)} | {med(lambda x: x['trnsci_ms']['median']):.3f} "
              f"| {med(lambda x: x['lapack_ms']['median']):.3f} "
              f"| {med(lambda x: x['ratio']):.3f} "
              f"| {max(x['max_rel_diff'] for x in rows):.3g} |")
    print()
    for (routine, n), ratios in per_run.items():
        print(f"{routine} n={n}: ratios per run {', '.join(f'{r:.3f}' for r in ratios)}")
    jac = [j for run in runs for j in run.get("syevj_vs_syevd", [])]
    if jac:
        print()
        print("| n | syevj ms | syevd ms | time ratio | sweeps | syevj residual | "
              "resid ratio syevj / syevd | orth ratio syevj / syevd |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for j in jac:
            print(f"| {j['n']} | {j['syevj_ms']:.1f} | {j['syevd_ms']:.1f} | {j['time_ratio']:.1f} "
                  f"| {j['syevj_sweeps']} | {j['syevj_residual']:.3g} "
                  f"| {j['syevj_resid_ratio']:.2f} / {j['syevd_resid_ratio']:.2f} "
                  f"| {j['syevj_orth_ratio']:.2f} / {j['syevd_orth_ratio']:.2f} |")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
