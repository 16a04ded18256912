#!/usr/bin/python3
"""One big CG on every core (bench_krylov_parallel: a 1-core and an
all-cores trnscid) against scipy.sparse.linalg.cg in this process on the
same matrix, alternating, joined into one JSON (bench/run_krylov_parallel.sh
runs it). With the bench's --method bicgstab or gmres (its JSON says
"method"), scipy.sparse.linalg.bicgstab or .gmres (the same restart; its
iterations counted per inner step) on its nonsymmetric matrix instead.

    krylov_parallel_scipy.py DIR [--reps N] [--cpu CPU] -- BENCH_CMD...

Each of --reps rounds runs BENCH_CMD (with --reps 1; it prints JSON for
both daemons), then the same scipy solve, so slow periods of a shared
machine hit every side. The first round adds --dump DIR (DIR/poisson.rowptr
int64, .col int32, .val float64: the matrix the daemons solve). scipy: b =
ones, x0 = 0, the same relative tolerance (rtol, atol 0), no
preconditioner, iteration limit 100000; timed is the cg call only. --cpu
pins this process (scipy's one thread; OpenBLAS/OMP limited to 1 by the
runner). Prints: per side median/min/max ms over the rounds, iterations,
residuals; ratios scipy/one_core, scipy/all_cores (> 1: trnsci faster) and
one_core/all_cores (the speedup from the second core); bitwise_same (x and
the record alike on 1 and all cores, every round).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def cg(a, b, tol, method="cg", restart=30):
    count = [0]
    solve = {"bicgstab": sla.bicgstab, "gmres": sla.gmres}.get(method, sla.cg)
    # scipy's gmres counts restart cycles in maxiter; its pr_norm callback
    # comes once per inner step, what trnsci counts.
    extra = ({"restart": restart, "callback_type": "pr_norm"} if method == "gmres" else {})
    maxiter = 100000 // restart + 1 if method == "gmres" else 100000

    def cb(_):
        count[0] += 1
    t0 = time.perf_counter()
    try:
        x, info = solve(a, b, rtol=tol, atol=0.0, maxiter=maxiter, callback=cb, **extra)
    except TypeError:  # scipy < 1.12 names it tol
        x, info = solve(a, b, tol=tol, atol=0.0, maxiter=maxiter, callback=cb, **extra)
    ms = (time.perf_counter() - t0) * 1e3
    return ms, count[0], info, float(np.linalg.norm(b - a @ x) / np.linalg.norm(b))


def stats(ms):
    return {"median_ms": round(statistics.median(ms), 1), "min_ms": round(min(ms), 1),
            "max_ms": round(max(ms), 1)}


def main():
    if "--" not in sys.argv:
        print(__doc__)
        return 2
    cut = sys.argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(sys.argv[1:cut])
    cmd = sys.argv[cut + 1:]
    ours_runs, theirs = [], []
    a = b = None
    for rep in range(args.reps):
        extra = ["--reps", "1"] + (["--dump", args.dir] if rep == 0 else [])
        ours_runs.append(json.loads(
            subprocess.run(cmd + extra, check=True, stdout=subprocess.PIPE).stdout))
        if a is None:
            base = os.path.join(args.dir, "poisson")
            rowptr = np.fromfile(base + ".rowptr", dtype=np.int64)
            col = np.fromfile(base + ".col", dtype=np.int32)
            val = np.fromfile(base + ".val", dtype=np.float64)
            n = rowptr.size - 1
            idx = rowptr.astype(np.int32) if rowptr[-1] < 2**31 else rowptr
            a = sp.csr_matrix((val, col, idx), shape=(n, n))
            b = np.ones(n)
        if args.cpu is not None:
            os.sched_setaffinity(0, {args.cpu})
        theirs.append(cg(a, b, ours_runs[0]["tol"], ours_runs[0].get("method", "cg"),
                         ours_runs[0].get("restart", 30)))
        if args.cpu is not None:
            os.sched_setaffinity(0, set(range(os.cpu_count())))
    first = ours_runs[0]
    out = {k: first[k] for k in ("bench", "method", "problem", "grid", "n", "nnz", "tol",
                                 "restart") if k in first}
    out["reps"] = args.reps
    out["scipy_version"] = scipy.__version__
    out["placement"] = ("trnscid --cores 1 and trnscid --cores all (workers pinned by the "
                        "daemons); scipy one thread pinned to CPU %s" %
                        (args.cpu if args.cpu is not None else "unpinned"))
    out["bitwise_same"] = all(r["bitwise_same"] for r in ours_runs)
    out["trnsci"] = {}
    for side in ("one_core", "all_cores"):
        runs = [r["trnsci"][side] for r in ours_runs]
        t = stats([r["median_ms"] for r in runs])
        t.update({k: runs[-1][k] for k in ("iterations", "status", "residual", "true_residual")})
        out["trnsci"][side] = t
    s = stats([r[0] for r in theirs])
    s.update({"iterations": theirs[-1][1], "info": theirs[-1][2],
              "true_residual": theirs[-1][3]})
    out["scipy"] = s
    one, allc = out["trnsci"]["one_core"]["median_ms"], out["trnsci"]["all_cores"]["median_ms"]
    out["ratio"] = {"scipy_over_one_core": round(s["median_ms"] / one, 3),
                    "scipy_over_all_cores": round(s["median_ms"] / allc, 3),
                    "one_core_over_all_cores": round(one / allc, 3)}
    print(json.dumps(out, indent=2))
    return 0 if out["bitwise_same"] else 1


if __name__ == "__main__":
    sys.exit(main())
