#!/usr/bin/env python3
"""Summarise several bench_rand JSON outputs (one per run_rand.sh run).

usage: summarize_rand.py RUN1.json RUN2.json ...

Prints, per distribution, the median over runs of each run's median ms and
GB/s of every side (in-process loop, one-core daemon, all-core daemon), of
the per-run ratio_1core and of the per-run scaling, as the Markdown table kept
in docs/benchmarks.md, followed by every run's ratios, scaling, worker busy
fractions and bitwise checks.
"""
from summary_util import cli, med

SIDES = (("inprocess", "in-process, 1 thread"),
         ("trnsci_1core", "trnsci, 1 core"),
         ("trnsci_allcores", "trnsci, all cores"))


def main(runs):
    first = runs[0]
    kinds = list(first["results"])
    cores = first["results"][kinds[0]]["cores"]
    print(f"{len(runs)} runs; {first['output_bytes_per_rep'] >> 20} MiB of output per "
          f"repetition; all-core daemon: {cores} cores; medians over the runs of each "
          "run's medians.\n")
    print("| distribution | side | ms | GB/s | ratio to in-process | scaling |")
    print("|---|---|---:|---:|---:|---:|")
    for k in kinds:
        rows = [r["results"][k] for r in runs]
        for side, label in SIDES:
            ms = med(x[side]["ms"]["median"] for x in rows)
            gbps = med(x[side]["gb_per_s"] for x in rows)
            ratio = scaling = ""
            if side == "trnsci_1core":
                ratio = f"{med(x['ratio_1core'] for x in rows):.3f}"
            if side == "trnsci_allcores":
                ratio = f"{med(x[side]['gb_per_s'] / x['inprocess']['gb_per_s'] for x in rows):.3f}"
                scaling = f"**{med(x['scaling'] for x in rows):.3f}**"
            print(f"| {k} (x{rows[0]['reps']}) | {label} | {ms:.2f} | {gbps:.3f} | {ratio} "
                  f"| {scaling} |")
    print()
    bad = 0
    for k in kinds:
        rows = [r["results"][k] for r in runs]
        ratios = [x["ratio_1core"] for x in rows]
        scal = [x["scaling"] for x in rows]
        smin = [x["scaling_of_mins"] for x in rows]
        print(f"{k}: ratio_1core per run {', '.join(f'{v:.3f}' for v in ratios)} "
              f"(median {med(ratios):.3f}); scaling per run {', '.join(f'{v:.3f}' for v in scal)} "
              f"(median {med(scal):.3f}, target >= 0.9: "
              f"{'met' if med(scal) >= 0.9 else 'NOT met'}); scaling_of_mins per run "
              f"{', '.join(f'{v:.3f}' for v in smin)}")
        print(f"  1-core worker busy {', '.join(str(x.get('trnsci_1core_worker_busy')) for x in rows)}; "
              f"all-core workers busy "
              f"{', '.join(str(x.get('trnsci_allcores_workers_busy')) for x in rows)}; "
              f"in-process busy {', '.join(str(x.get('inprocess_busy')) for x in rows)}")
        for x in rows:
            for side, c in x["bitwise_check"].items():
                bad += not c["agree"]
    agree = all(r["inprocess_known_answers"] for r in runs) and bad == 0
    print(f"in-process known answers and bitwise checks pass in every run: {agree}")
    return 0 if agree else 3


if __name__ == "__main__":
    cli(main, __doc__)
