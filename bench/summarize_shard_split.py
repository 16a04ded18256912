#!/usr/bin/env python3
"""Summarise several bench_shard_split JSON outputs (one per run).

usage: summarize_shard_split.py RUN1.json RUN2.json ...

Prints the Markdown table kept in docs/benchmarks.md: per op, the median over
runs of the speedup of two shards on idle workers and of the split cost (extra
time of both shards run one after the other on one core), with every run's
values.
"""
import statistics

from summary_util import cli


def label(r):
    if r["bytes"]:
        return f"{r['op']} {r['bytes'] >> 10} KiB"
    return f"{r['op']} {r['m']}×{r['n']}×{r['k']}"


def main(runs):
    print("| op | cost (MFLOP or MB touched) | speedup, 2 shards idle | split cost | per run |")
    print("|---|---:|---:|---:|---|")
    for j, r in enumerate(runs[0]["results"]):
        rows = [run["results"][j] for run in runs]
        sp = [x["speedup"] for x in rows]
        sc = [x["split_cost"] for x in rows]
        per = ", ".join(f"{a:.2f}× / {100 * b:+.1f} %" for a, b in zip(sp, sc))
        print(f"| {label(r)} | {r['cost_mflop_or_mb']:.1f} | {statistics.median(sp):.2f}× "
              f"| {100 * statistics.median(sc):+.1f} % | {per} |")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
