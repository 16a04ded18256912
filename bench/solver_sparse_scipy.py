#!/usr/bin/python3
"""trnsolver CG through the daemon (bench_solver_sparse) against
scipy.sparse.linalg.cg on the same matrix, alternating, joined into one JSON
(bench/run_solver_sparse.sh runs it).

    solver_sparse_scipy.py DIR [--reps N] [--cpu CPU] -- BENCH_CMD...

Each of --reps rounds runs BENCH_CMD (bench_solver_sparse with --reps 1,
which solves with no preconditioner and with Jacobi and prints JSON), then
the same two scipy solves, so slow periods of a shared machine hit both
sides. The first round adds --dump DIR: DIR/poisson.rowptr (int64), .col
(int32), .val (float64) is the CSR matrix the daemon solves. b = ones, x0 = 0, the same relative tolerance (rtol, atol 0),
no preconditioner and Jacobi (M = diag(A)^-1 as a sparse matrix), with the
iteration limit 100000; timed is the cg call only (the matrix is built once,
outside the timing). --cpu pins this process (and so scipy's one thread) to
CPU; OpenBLAS/OMP threads are limited to 1 by the runner. Prints the joined
JSON: per preconditioner trnsci's and scipy's median/min/max ms over the
rounds, iterations, recorded and true relative residuals, ratio =
scipy_median / trnsci_median (> 1: trnsci faster), and each round's own
ratio (round_ratios).
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


def cg(a, b, tol, m):
    count = [0]

    def cb(_):
        count[0] += 1
    t0 = time.perf_counter()
    try:
        x, info = sla.cg(a, b, rtol=tol, atol=0.0, M=m, maxiter=100000, callback=cb)
    except TypeError:  # scipy < 1.12 names it tol
        x, info = sla.cg(a, b, tol=tol, atol=0.0, M=m, maxiter=100000, callback=cb)
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
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    ours_runs, theirs_runs = [], {}
    a = b = None
    for rep in range(args.reps):
        extra = ["--reps", "1"] + (["--dump", args.dir] if rep == 0 else [])
        ours = json.loads(subprocess.run(cmd + extra, check=True, stdout=subprocess.PIPE).stdout)
        ours_runs.append(ours)
        if a is None:
            base = os.path.join(args.dir, "poisson")
            rowptr = np.fromfile(base + ".rowptr", dtype=np.int64)
            col = np.fromfile(base + ".col", dtype=np.int32)
            val = np.fromfile(base + ".val", dtype=np.float64)
            n = rowptr.size - 1
            idx = rowptr.astype(np.int32) if rowptr[-1] < 2**31 else rowptr
            a = sp.csr_matrix((val, col, idx), shape=(n, n))
            b = np.ones(n)
            precs = {"none": None, "jacobi": sp.diags(1.0 / a.diagonal()).tocsr()}
        for name, m in precs.items():
            theirs_runs.setdefault(name, []).append(cg(a, b, ours["tol"], m))
    out = {k: v for k, v in ours_runs[0].items() if k not in ("trnsci", "reps")}
    out["reps"] = args.reps
    out["scipy_version"] = scipy.__version__
    out["placement"] = ("trnscid --cores 1 (one worker) and scipy (one thread) on the same CPU "
                        "(%s); the client under taskset on the other" %
                        (args.cpu if args.cpu is not None else "unpinned"))
    out["trnsci"], out["scipy"], out["ratio"] = {}, {}, {}
    for name, runs in theirs_runs.items():
        ours = [r["trnsci"][name] for r in ours_runs]
        t = stats([o["median_ms"] for o in ours])
        t.update({k: ours[-1][k] for k in ("iterations", "status", "residual", "true_residual")})
        out["trnsci"][name] = t
        s = stats([r[0] for r in runs])
        s.update({"iterations": runs[-1][1], "info": runs[-1][2], "true_residual": runs[-1][3]})
        out["scipy"][name] = s
        out["ratio"][name] = round(s["median_ms"] / t["median_ms"], 3)
        out.setdefault("round_ratios", {})[name] = [
            round(r[0] / o["median_ms"], 2) for r, o in zip(runs, ours)]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
