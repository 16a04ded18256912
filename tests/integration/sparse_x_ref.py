#!/usr/bin/python3
"""Independent reference for test_sparse_x.c (trnsparse SpMV/SpMM on
complex and 16-bit values), computed with Debian's numpy/scipy in
complex128 (run it under /usr/bin/python3).

    sparse_x_ref.py spmm DIR
        DIR/cases.txt: one line per product, "id m k n opa opb ar ai br bi":
        A is m x k, op 0 = N, 1 = T, 2 = C (conjugate transpose); alpha =
        ar + i ai, beta = br + i bi. DIR/A_<id>: complex128, m x k row-major
        (the matrix as stored; zeros where nothing is stored).
        DIR/B_<id>: complex128, op(B)'s operand B row-major (k x n for op
        N, n x k otherwise, with k, n those of op(A) op(B)).
        DIR/C_<id>: complex128, the initial C (op(A).rows x n).
        Writes DIR/R_<id> (complex128): alpha op(A) op(B) + beta C from
        scipy.sparse, and DIR/E_<id> (float64): |alpha| |op(A)| |op(B)| +
        |beta| |C| elementwise, the scale of the test's error bound.

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.sparse as sp


def op(x, o):
    if o == 0:
        return x
    if o == 1:
        return x.T
    return x.conj().T


def spmm(d):
    with open(os.path.join(d, "cases.txt")) as f:
        lines = [ln.split() for ln in f if ln.strip()]
    for ln in lines:
        cid = ln[0]
        m, k, n, opa, opb = (int(v) for v in ln[1:6])
        ar, ai, br, bi = (float(v) for v in ln[6:10])
        alpha, beta = complex(ar, ai), complex(br, bi)
        a = np.fromfile(os.path.join(d, "A_" + cid), dtype=np.complex128).reshape(m, k)
        oa = op(sp.csr_matrix(a), opa)
        mo, ki = oa.shape
        b = np.fromfile(os.path.join(d, "B_" + cid), dtype=np.complex128)
        b = b.reshape((ki, n) if opb == 0 else (n, ki))
        ob = op(b, opb)
        c = np.fromfile(os.path.join(d, "C_" + cid), dtype=np.complex128).reshape(mo, n)
        r = alpha * (oa @ ob) + beta * c
        e = abs(alpha) * (abs(oa) @ np.abs(ob)) + abs(beta) * np.abs(c)
        np.ascontiguousarray(r, dtype=np.complex128).tofile(os.path.join(d, "R_" + cid))
        np.ascontiguousarray(e, dtype=np.float64).tofile(os.path.join(d, "E_" + cid))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "spmm":
        return spmm(argv[2])
    sys.stderr.write(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
