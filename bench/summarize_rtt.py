#!/usr/bin/env python3
"""Medians over several runs of bench/run_rtt.sh (docs/benchmarks.md).

usage: bench/summarize_rtt.py RUN1.json RUN2.json ...

Prints Markdown tables: per placement and mechanism the median over the runs
of each run's p50, p99, min and mean (µs) and of the CPU time per round trip
of the client and of the peer; the p50 ratios with their per-run values; and
the copy throughput.
"""
import statistics

from summary_util import cli, med


def fmt(v, digits=2):
    return "–" if v is None else f"{v:.{digits}f}"


def main(runs):
    print(f"{len(runs)} runs; medians over the runs of each run's figure.\n")
    for place in ("same", "diff"):
        p0 = runs[0]["placements"][place]
        print(f"**{place}**: client on CPU {p0['client_cpu']}, peer on CPU {p0['peer_cpu']} "
              f"(daemon cpus_allowed {p0.get('daemon_cpus_allowed')})\n")
        print("| mechanism | p50 µs | p99 µs | min µs | mean µs | client CPU µs/rt | "
              "peer CPU µs/rt |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for mech in runs[0]["latency_us"][place]:
            rows = [r["latency_us"][place][mech] for r in runs if mech in r["latency_us"][place]]
            cols = [med([x[k] for x in rows]) for k in ("p50", "p99", "min", "mean")]
            cpu = [med([x[k] for x in rows]) for k in ("client_cpu_us", "peer_cpu_us")]
            print(f"| {mech} | " + " | ".join(fmt(c) for c in cols + cpu) + " |")
        print()
    print("| placement | ratio (p50) | per run | median | target |")
    print("|---|---|---|---:|---|")
    for place in ("same", "diff"):
        for name, val in runs[0]["ratios_p50"][place].items():
            if val is None:
                continue
            per = [r["ratios_p50"][place][name]["ratio"] for r in runs]
            target = f"≤ {val['target']}" if "target" in val else "(info)"
            print(f"| {place} | {name} | {' '.join(f'{x:.3f}' for x in per)} | "
                  f"{statistics.median(per):.3f} | {target} |")
    print()
    print("| copy | bytes | trnsci GiB/s (warm) | memcpy GiB/s (warm) | ratio warm | "
          "trnsci GiB/s (cold) | memcpy GiB/s (cold) | ratio cold |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in ("local", "grpc"):
        rows = [r["throughput"][kind] for r in runs if r["throughput"].get(kind)]
        if not rows:
            continue
        t = lambda k, s: med([x[k][s] for x in rows])
        print(f"| {kind} | {rows[0]['bytes']} | {fmt(t('trnsci_memcpy_h2d_gibps', 'warm_median'))} | "
              f"{fmt(t('host_memcpy_gibps', 'warm_median'))} | "
              f"{fmt(med([x['ratio_warm'] for x in rows]), 3)} | "
              f"{fmt(t('trnsci_memcpy_h2d_gibps', 'cold'))} | {fmt(t('host_memcpy_gibps', 'cold'))} | "
              f"{fmt(med([x['ratio_cold'] for x in rows]), 3)} |")


if __name__ == "__main__":
    cli(main, __doc__)
