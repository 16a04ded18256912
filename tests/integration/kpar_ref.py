#!/usr/bin/python3
"""Independent reference for tests/integration/test_solver_kpar.c, computed
with Debian's scipy (run under /usr/bin/python3).

    kpar_ref.py DIR

DIR/manifest.txt lists one problem a line:

    spsolve NAME N NNZ    x = scipy.sparse.linalg.spsolve(A, b) in double,
                          A the N x N CSR matrix of DIR/NAME.rowptr (N + 1
                          int32), DIR/NAME.col (NNZ int32, 0-based) and
                          DIR/NAME.val (NNZ float64), b DIR/NAME.b (N float64)

The solution is written to DIR/NAME.out as N float64. Exit status 0 on
success, 1 with a message on failure.
"""
import os
import sys

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import spsolve


def main(d):
    with open(os.path.join(d, "manifest.txt")) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] != "spsolve":
                print("unknown problem kind", w[0])
                return 1
            name, n, nnz = w[1], int(w[2]), int(w[3])
            base = os.path.join(d, name)
            rowptr = np.fromfile(base + ".rowptr", dtype=np.int32, count=n + 1)
            col = np.fromfile(base + ".col", dtype=np.int32, count=nnz)
            val = np.fromfile(base + ".val", dtype=np.float64, count=nnz)
            b = np.fromfile(base + ".b", dtype=np.float64, count=n)
            a = csr_matrix((val, col, rowptr), shape=(n, n))
            np.asarray(spsolve(a.tocsc(), b), dtype=np.float64).tofile(base + ".out")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
