#!/usr/bin/python3
"""The scipy.sparse side of bench/sparse.c: times scipy on the matrix the
benchmark wrote, in this (single-threaded, pinned) process, and answers on
stdout. Runs under Debian's /usr/bin/python3 (numpy, scipy).

    sparse_scipy.py [--cpu CPU]

Commands, one a line on stdin, each answered by one JSON line on stdout:

    load DIR N
        DIR holds indptr.i32, indices.i32 (int32), data.f64 or data.f32,
        meta.txt ("rows cols nnz dtype") and B (float, rows-of-B x N
        row-major; a vector when N = 0). Builds the csr_matrix and the
        operands, runs both forms once (warm-up). Answers {"nnz": ...}.
    time K
        K repetitions of: an untimed A @ B (bringing the operands back into
        the caches after the benchmark's turn), then
          - "scipy": the public product A @ B (allocates its result), and
          - "kernel": scipy's own CSR kernel (_sparsetools.csr_matvec /
            csr_matvecs) into a preallocated, zeroed output (the zeroing is
            not timed).
        Answers {"scipy": [ms, ...], "kernel": [ms, ...]}.
    result
        Writes A @ B to DIR/scipy_out for the benchmark to check.
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


class Case:
    def __init__(self, d, nvec):
        with open(os.path.join(d, "meta.txt")) as f:
            rows, cols, nnz, dt = f.read().split()
        self.d, self.nvec = d, nvec
        self.rows, self.cols = int(rows), int(cols)
        dtype = np.float64 if dt == "f64" else np.float32
        ext = "f64" if dt == "f64" else "f32"
        self.indptr = np.fromfile(os.path.join(d, "indptr.i32"), dtype=np.int32)
        self.indices = np.fromfile(os.path.join(d, "indices.i32"), dtype=np.int32)
        self.data = np.fromfile(os.path.join(d, "data." + ext), dtype=dtype)
        self.a = sp.csr_matrix((self.data, self.indices, self.indptr),
                               shape=(self.rows, self.cols))
        self.b = np.fromfile(os.path.join(d, "B." + ext), dtype=dtype)
        if nvec > 0:
            self.b = self.b.reshape(self.cols, nvec)
        self.out = np.zeros(self.rows if nvec == 0 else (self.rows, nvec), dtype=dtype)
        self.public()
        self.kernel()

    def public(self):
        return self.a @ self.b

    def kernel(self):
        if self.nvec == 0:
            _sparsetools.csr_matvec(self.rows, self.cols, self.indptr, self.indices, self.data,
                                    self.b, self.out)
        else:
            _sparsetools.csr_matvecs(self.rows, self.cols, self.nvec, self.indptr, self.indices,
                                     self.data, self.b.ravel(), self.out.ravel())

    def time(self, k):
        tp, tk = [], []
        for _ in range(k):
            self.public()
            t0 = time.perf_counter()
            self.public()
            tp.append((time.perf_counter() - t0) * 1e3)
            self.out.fill(0)
            t0 = time.perf_counter()
            self.kernel()
            tk.append((time.perf_counter() - t0) * 1e3)
        return {"scipy": tp, "kernel": tk}

    def result(self):
        res = self.public()
        np.ascontiguousarray(res, dtype=self.data.dtype).tofile(os.path.join(self.d, "scipy_out"))
        return {"written": True}


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--cpu":
        os.sched_setaffinity(0, {int(args[1])})
    case = None
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "quit":
            break
        if w[0] == "load" and len(w) == 3:
            case = None
            case = Case(w[1], int(w[2]))
            r = {"nnz": int(case.a.nnz)}
        elif w[0] == "time" and len(w) == 2 and case:
            r = case.time(int(w[1]))
        elif w[0] == "result" and case:
            r = case.result()
        else:
            r = {"error": "unknown command " + line.strip()}
        print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
