#!/usr/bin/env python3
"""Summarise several bench_fft outputs (one file of JSON lines per run_fft.sh run).

usage: summarize_fft.py RUN1.jsonl RUN2.jsonl ...

Prints, per mode (label) and case (size x batch), the median over runs of
each run's median ms per execution of every side (trnsci, trnsci with K
execs queued before one Synchronize, in-process FFTW looped as the daemon
runs it, FFTW's batched plan, the daemon's own plan run in-process, FFTW on
the daemon's buffers), the median of the per-run ratios (and scaling for the
all-core mode) with every run's ratio, then the plan timings (cold, warm,
after restart) and the plan cache's counters, as the Markdown tables kept in
docs/benchmarks.md.
"""
import json
import sys

from summary_util import med

SIDES = (("trnsci_ms", "trnsci"),
         ("trnsci_queued_ms", "trnsci, K queued"),
         ("fftw_ms", "FFTW loop"),
         ("fftw_many_ms", "FFTW batched plan"),
         ("fftw_daemon_plan_ms", "FFTW, daemon's plan"),
         ("fftw_on_device_memory_ms", "FFTW on device memory"))


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            runs.append([json.loads(line) for line in f if line.strip()])
    return runs


def fmt(v, spec):
    return "" if v is None else format(v, spec)


def main(paths):
    runs = load(paths)
    print(f"{len(runs)} runs; medians over the runs of each run's medians (ms per execution).\n")
    cases = []
    for run in runs:
        for d in run:
            if d["benchmark"] == "fft" and (d["label"], d["n"], d["batch"]) not in cases:
                cases.append((d["label"], d["n"], d["batch"]))
    print("| mode | n × batch | K | " + " | ".join(label for _, label in SIDES)
          + " | ratio | per-run ratios | ratio, daemon's plan | same plan | scaling |")
    print("|---|---|---:|" + "---:|" * len(SIDES) + "---:|---|---:|---|---:|")
    for label, n, batch in cases:
        rows = [d for run in runs for d in run if d["benchmark"] == "fft"
                and (d["label"], d["n"], d["batch"]) == (label, n, batch)]
        ks = sorted({d["execs_per_sample"] for d in rows})
        cells = []
        for key, _ in SIDES:
            cells.append(fmt(med(d[key]["median"] if key in d else None for d in rows), ".4f"))
        ratios = [d["ratio"] for d in rows]
        same = [d.get("same_plan_as_daemon") for d in rows]
        scaling = med(d.get("scaling_daemon_plan") for d in rows)
        scal = ""
        if scaling is not None and rows[0].get("scaling") is not None:
            scal = (f"{med(d['scaling'] for d in rows):.3f} (daemon's plan "
                    f"{scaling:.3f})")
        print(f"| {label} | {n} × {batch} | {'/'.join(map(str, ks))} | " + " | ".join(cells)
              + f" | **{med(ratios):.3f}** | {' '.join(f'{r:.3f}' for r in ratios)} "
              f"| {fmt(med(d.get('ratio_daemon_plan') for d in rows), '.3f')} "
              f"| {sum(1 for s in same if s)}/{len(same)} | {scal} |")
    print()
    phases = ("cold", "warm", "restart")
    print("| phase | first trnfftPlan1d ms | first Plan + Exec + sync ms | again: Plan ms "
          "(median) | again: Plan + Exec ms | per-run first Plan ms |")
    print("|---|---:|---:|---:|---:|---|")
    for ph in phases:
        rows = [d for run in runs for d in run if d["benchmark"] == "fft_plan" and d["phase"] == ph]
        if not rows:
            continue
        print(f"| {ph} | {med(d['first_plan_ms'] for d in rows):.3f} "
              f"| {med(d['first_plan_and_exec_ms'] for d in rows):.1f} "
              f"| {med(d['again']['plan_ms']['median'] for d in rows):.3f} "
              f"| {med(d['again']['plan_and_exec_ms']['median'] for d in rows):.1f} "
              f"| {' '.join(format(d['first_plan_ms'], '.3f') for d in rows)} |")
    cold = [d for run in runs for d in run if d["benchmark"] == "fft_plan" and d["phase"] == "cold"]
    if cold:
        print(f"\nin-process FFTW_MEASURE planning: "
              f"{med(d['fftw_measure_plan_ms'] for d in cold):.0f} ms (per run "
              f"{' '.join(format(d['fftw_measure_plan_ms'], '.0f') for d in cold)}); "
              f"in-process exec {med(d['fftw_exec_ms'] for d in cold):.2f} ms")
    for ph in phases:
        rows = [d for run in runs for d in run if d["benchmark"] == "fft_plan" and d["phase"] == ph]
        for d in rows:
            c = d["plan_cache"]
            print(f"- {ph}: hits {c['hits']} misses {c['misses']} builds {c['builds']} "
                  f"build_seconds {c['build_seconds']:.3f} saved_seconds {c['saved_seconds']:.3f}"
                  f" prewarm_done {c['prewarm_done']}"
                  + (f" prewarm_wait_ms {d['prewarm_wait_ms']}" if "prewarm_wait_ms" in d else ""))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
