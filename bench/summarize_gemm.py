#!/usr/bin/env python3
"""Summarise several bench_gemm JSON outputs (one per run_gemm.sh run).

usage: summarize_gemm.py RUN1.json RUN2.json ...

Prints the precision (SGEMM or DGEMM) and the OpenBLAS kernel sets of both
sides (the daemon's and the bench process's: they may differ, and a ratio
then compares kernels as well as the daemon), then, per n, the median over
runs of each run's medians (trnsci ms, OpenBLAS ms, GFLOP/s) and of the
per-run ratios, as the Markdown table kept in docs/benchmarks.md, followed by
every run's ratios. Runs of different precisions are refused (exit 2): their
medians would mean nothing. Older JSON without "precision" is SGEMM (all the
bench ran then); without "daemon_openblas" the daemon's kernels are unknown.
"""
import statistics
import sys

from summary_util import cli


def precision(run):
    return run.get("precision", "s")


def kernels(run):
    """(daemon's core, why, bench's core); None where the run does not say."""
    daemon = run.get("daemon_openblas") or {}
    bench = run.get("openblas") or {}
    return daemon.get("core"), daemon.get("why"), bench.get("core")


def kernel_header(runs):
    """Lines naming both sides' kernel sets: once if every run agrees, else
    per run."""
    sets = [kernels(run) for run in runs]
    show = lambda core: core if core else "unknown"  # noqa: E731
    lines = []
    if len(set(sets)) == 1:
        d, why, b = sets[0]
        lines.append(f"OpenBLAS kernels: daemon {show(d)}"
                     f"{f' ({why})' if why else ''}; bench process {show(b)}")
    else:
        lines.append("OpenBLAS kernels differ between runs:")
        for i, (d, why, b) in enumerate(sets, 1):
            lines.append(f"  run {i}: daemon {show(d)}{f' ({why})' if why else ''}; "
                         f"bench process {show(b)}")
    if any(d and b and d.lower() != b.lower() for d, _, b in sets):
        lines.append("NOTE: the daemon and the bench ran different kernel sets in "
                     f"{'this run' if len(runs) == 1 else 'some runs'}: the ratio compares the "
                     "kernels as well as the daemon (set OPENBLAS_CORETYPE for both, or "
                     "DAEMON_ARGS=\"--blas-coretype default\").")
    return lines


def main(runs):
    precs = sorted({precision(run) for run in runs})
    if len(precs) > 1:
        print(f"summarize_gemm.py: runs of different precisions ({', '.join(precs)}); "
              "summarise each precision on its own", file=sys.stderr)
        return 2
    name = {"s": "SGEMM", "d": "DGEMM"}.get(precs[0], precs[0])
    print(f"{name} (precision {precs[0]}), {len(runs)} run{'s' if len(runs) != 1 else ''}"
          f"{', all cores' if runs[0].get('mode') == 'all-cores' else ''}")
    for line in kernel_header(runs):
        print(line)
    print()
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
