#!/usr/bin/env python3
"""Summarise several bench_multi_client JSON outputs (one per run_multi_client.sh run).

usage: summarize_multi_client.py RUN1.json RUN2.json ...

Prints, per side (trnsci, OpenBLAS), the median over runs of each run's median
aggregate GFLOP/s and Jain index, the median over runs of each run's median
ratio trnsci / OpenBLAS, as a Markdown table, followed by every run's figures
and every repetition's ratio.
"""
import statistics

from summary_util import cli


def main(runs):
    cfg = runs[0]["config"]
    print(f"{len(runs)} runs; {cfg['clients']} clients, n = {cfg['n']}, "
          f"{cfg['window_s']:g} s windows, {cfg['reps']} repetitions per run; "
          "medians over the runs of each run's medians.\n")
    print("| side | aggregate GFLOP/s | min client GFLOP/s | max client GFLOP/s | Jain |")
    print("|---|---:|---:|---:|---:|")
    for side in ("trnsci", "openblas"):
        agg = statistics.median(r["summary"][side]["aggregate_gflops"]["median"] for r in runs)
        jain = statistics.median(r["summary"][side]["jain"]["median"] for r in runs)
        lo = statistics.median(
            statistics.median(rep[side]["min_client_gflops"] for rep in r["reps"]) for r in runs)
        hi = statistics.median(
            statistics.median(rep[side]["max_client_gflops"] for rep in r["reps"]) for r in runs)
        print(f"| {side} | {agg:.1f} | {lo:.1f} | {hi:.1f} | {jain:.4f} |")
    ratios = [r["summary"]["ratio"]["median"] for r in runs]
    jains = [r["summary"]["trnsci"]["jain"]["median"] for r in runs]
    print()
    print(f"ratio trnsci / OpenBLAS: per run {', '.join(f'{x:.3f}' for x in ratios)}; "
          f"median {statistics.median(ratios):.3f} (target >= 0.95)")
    print(f"Jain (daemon phase): per run {', '.join(f'{x:.4f}' for x in jains)}; "
          f"median {statistics.median(jains):.4f} (target >= 0.95)")
    for i, r in enumerate(runs):
        reps = ", ".join(f"{rep['ratio']:.3f}" for rep in r["reps"])
        print(f"run {i + 1}: ratio per repetition {reps}; spot checks ok: "
              f"{r['summary']['spot_checks_ok']}")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
