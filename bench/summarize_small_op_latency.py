#!/usr/bin/env python3
"""Summarise several bench_small_op_latency JSON outputs (one per run_small_op_latency.sh run).

usage: summarize_small_op_latency.py RUN1.json RUN2.json ...

Prints the median over runs of each run's probe latency percentiles (µs) with
and without load, the shard times (ms) and the ratio p99 under load / shard
time, as Markdown tables, followed by every run's figures.
"""
from summary_util import cli, med


def main(runs):
    r0 = runs[0]
    print(f"{len(runs)} runs; probe: {r0['probe']['op']}; load: {r0['load']['op']} on "
          f"{r0['load']['streams']} streams x {r0['load']['queued_per_stream']} queued, "
          f"{r0['load']['shards_per_gemm']} shards per GEMM; "
          "medians over the runs of each run's figure.\n")
    print("| condition | samples | p50 µs | p90 µs | p99 µs | max µs |")
    print("|---|---:|---:|---:|---:|---:|")
    for cond in ("idle", "load"):
        rows = [r["latency_us"][cond] for r in runs]
        print(f"| {cond} | {med(x['samples'] for x in rows):.0f} "
              + " ".join(f"| {med(x[k] for x in rows):.1f}" for k in ("p50", "p90", "p99", "max"))
              + " |")
    print()
    shard = med(r["shard"]["ms"]["median"] for r in runs)
    shard_d = med(r["shard"]["in_daemon_under_load_ms_est"] for r in runs)
    print(f"shard {r0['shard']['m']}x{r0['shard']['n']}x{r0['shard']['k']}: in-process "
          f"{shard:.1f} ms, in the daemon under load (estimate) {shard_d:.1f} ms")
    ratios = [r["ratios"]["p99_load_over_shard"] for r in runs]
    print(f"p99 under load / shard: per run {', '.join(f'{x:.3f}' for x in ratios)}; "
          f"median {med(ratios):.3f} (target <= 1)")
    for i, r in enumerate(runs):
        busy = r["placement"].get("daemon_during_load", {}).get("all_threads_busy")
        print(f"run {i + 1}: load p99 {r['latency_us']['load']['p99'] / 1e3:.1f} ms, "
              f"shard {r['shard']['ms']['median']:.1f} ms, load {r['load']['gflops']:.1f} GFLOP/s"
              + (f", daemon busy under load {busy:.2f}" if busy is not None else "")
              + f", checks ok: {r['checks']['ok']}")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
