#!/usr/bin/python3
"""Independent reference for test_sparse_banded.c (trnsparse's gtsv2*,
gtsvInterleavedBatch, gpsvInterleavedBatch), computed with Debian's
numpy/scipy (run it under /usr/bin/python3).

    sparse_banded_ref.py solve DIR
        DIR/meta.txt: "m nsys kl"; DIR/diag: complex128, nsys x (2 kl + 1)
        x m, row r of system s the diagonal at offset r - kl (r = 0: the
        lowest), element i being row i's entry (A(i, i + r - kl)); entries
        outside the matrix are ignored. DIR/b: complex128, nsys x m.
        Writes DIR/x (complex128, nsys x m): scipy.linalg.solve_banded of
        each system, and DIR/kappa (float64, nsys): the infinity-norm
        condition number of each A (numpy, from the dense inverse), for the
        test's error bound.

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.linalg as sla


def solve(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, nsys, kl = (int(v) for v in f.read().split())
    w = 2 * kl + 1
    diag = np.fromfile(os.path.join(d, "diag"), dtype=np.complex128).reshape(nsys, w, m)
    b = np.fromfile(os.path.join(d, "b"), dtype=np.complex128).reshape(nsys, m)
    x = np.zeros((nsys, m), dtype=np.complex128)
    kappa = np.zeros(nsys)
    for s in range(nsys):
        a = np.zeros((m, m), dtype=np.complex128)
        for r in range(w):
            off = r - kl
            for i in range(m):
                j = i + off
                if 0 <= j < m:
                    a[i, j] = diag[s, r, i]
        # solve_banded's storage: ab[kl + i - j, j] = a[i, j] (upper first).
        ab = np.zeros((w, m), dtype=np.complex128)
        for i in range(m):
            for j in range(max(0, i - kl), min(m, i + kl + 1)):
                ab[kl + i - j, j] = a[i, j]
        x[s] = sla.solve_banded((kl, kl), ab, b[s])
        kappa[s] = np.linalg.norm(a, np.inf) * np.linalg.norm(np.linalg.inv(a), np.inf)
    x.tofile(os.path.join(d, "x"))
    kappa.tofile(os.path.join(d, "kappa"))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "solve":
        return solve(argv[2])
    sys.stderr.write(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
