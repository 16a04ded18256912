#!/usr/bin/python3
"""The scipy.sparse side of bench/sparse.c: times scipy on the matrix the
benchmark wrote, in this (single-threaded, pinned) process, and answers on
stdout. Runs under Debian's /usr/bin/python3 (numpy, scipy).

    sparse_scipy.py [--cpu CPU]

Commands, one a line on stdin, each answered by one JSON line on stdout:

    spmm DIR N REPS
        DIR holds indptr.i32, indices.i32 (int32), data.f64 or data.f32,
        meta.txt ("rows cols nnz dtype") and B (float, rows-of-B x N
        row-major; a vector when N = 0). Builds the csr_matrix once, then
        times REPS repetitions (after one warm-up) of
          - "scipy": the public product A @ B (allocates its result), and
          - "kernel": scipy's own CSR kernel (_sparsetools.csr_matvec /
            csr_matvecs) into a preallocated, zeroed output (zeroing not
            timed),
        alternating the two. Writes A @ B to DIR/scipy_out for the
        benchmark to check, and answers
        {"scipy": {"median_ms", "min_ms", "max_ms"}, "kernel": {...}}.
    quit

scipy.sparse products are single-threaded C++ loops; BLAS threads are set
to 1 anyway and the process is pinned to CPU (the daemon worker's).
"""
import json
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import time  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from scipy.sparse import _sparsetools  # noqa: E402


def stats(v):
    v = sorted(v)
    n = len(v)
    med = v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])
    return {"median_ms": med * 1e3, "min_ms": v[0] * 1e3, "max_ms": v[-1] * 1e3}


def spmm(d, nvec, reps):
    with open(os.path.join(d, "meta.txt")) as f:
        rows, cols, nnz, dt = f.read().split()
    rows, cols, nnz = int(rows), int(cols), int(nnz)
    dtype = np.float64 if dt == "f64" else np.float32
    ext = "f64" if dt == "f64" else "f32"
    indptr = np.fromfile(os.path.join(d, "indptr.i32"), dtype=np.int32)
    indices = np.fromfile(os.path.join(d, "indices.i32"), dtype=np.int32)
    data = np.fromfile(os.path.join(d, "data." + ext), dtype=dtype)
    a = sp.csr_matrix((data, indices, indptr), shape=(rows, cols))
    b = np.fromfile(os.path.join(d, "B." + ext), dtype=dtype)
    if nvec > 0:
        b = b.reshape(cols, nvec)
    out = np.zeros(rows if nvec == 0 else (rows, nvec), dtype=dtype)

    def public():
        return a @ b

    def kernel():
        if nvec == 0:
            _sparsetools.csr_matvec(rows, cols, indptr, indices, data, b, out)
        else:
            _sparsetools.csr_matvecs(rows, cols, nvec, indptr, indices, data, b.ravel(),
                                     out.ravel())

    res = public()
    kernel()
    tp, tk = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        res = public()
        tp.append(time.perf_counter() - t0)
        out.fill(0)
        t0 = time.perf_counter()
        kernel()
        tk.append(time.perf_counter() - t0)
    np.ascontiguousarray(res, dtype=dtype).tofile(os.path.join(d, "scipy_out"))
    return {"scipy": stats(tp), "kernel": stats(tk)}


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--cpu":
        os.sched_setaffinity(0, {int(args[1])})
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "quit":
            break
        if w[0] == "spmm" and len(w) == 4:
            r = spmm(w[1], int(w[2]), int(w[3]))
        else:
            r = {"error": "unknown command " + line.strip()}
        print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
