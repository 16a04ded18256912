#!/usr/bin/python3
"""Independent reference for test_sparse_complex.c (trnsparse's complex
triangular solves, SpSV and SpSM), computed in complex128 with Debian's
numpy/scipy (run it under /usr/bin/python3).

    sparse_complex_ref.py spsv DIR
        DIR/meta.txt: "n nrhs lower unit op alpha_re alpha_im", op 0 (N),
        1 (T) or 2 (C: conjugate transpose). DIR/A.indptr, A.indices
        (int64, 0-based CSR, sorted) and A.data (complex128): the stored
        matrix A with entries in both triangles. DIR/B (complex128, n x nrhs
        row-major): op(B), the right-hand sides as the solve sees them.
        T is the triangle `lower` of A (strict part), plus A's diagonal
        (unit = 0) or the identity (unit = 1); op(T) x = alpha op(B) is
        solved with scipy.sparse.linalg.spsolve_triangular. Writes DIR/X
        (complex128, n x nrhs row-major), DIR/E1 = |op(T)^-1| |op(T)| |x| and
        DIR/E2 = |op(T)^-1| |alpha op(B)| (float64, n x nrhs; the terms of
        the componentwise forward error bound) and DIR/W (int64): the most
        entries in a row of op(T).

    sparse_complex_ref.py spgemm DIR
        DIR/meta.txt: "m k n". DIR/A.* (m x k) and DIR/B.* (k x n): CSR as
        above. Writes, dense m x n row-major: DIR/C (complex128), scipy's
        sparse product A B; DIR/M (float64), |A| |B|; DIR/S (float64), the
        number of products a_iq b_qj stored in A and B for each (i, j)
        (0: not in C's structure).

    sparse_complex_ref.py dense DIR
        DIR/meta.txt: "m k n". DIR/A (complex128, m x k row-major) and DIR/B
        (k x n): writes DIR/P = A B (complex128, m x n) and DIR/M = |A| |B|
        (float64) with numpy.

    sparse_complex_ref.py ilu DIR
        DIR/meta.txt: "m chol". DIR/A.*: the m x m CSR matrix (sorted) as
        above; DIR/F (complex128, nnz): the factor's values in A's storage
        order. chol 0 (ILU0): L = I + the strict lower part of F, U = the
        upper part with the diagonal; chol 1 (IC0): L = the lower part of F
        with the diagonal, U = L^H. Writes, per stored entry (float64, nnz):
        DIR/R = |(L U - A)_ij| and DIR/M = (|L| |U|)_ij for the entries the
        factorisation matches (all for ILU0, j <= i for IC0; 0 elsewhere).

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def load(d, name, dtype):
    return np.fromfile(os.path.join(d, name), dtype=dtype)


def spsv(d):
    with open(os.path.join(d, "meta.txt")) as f:
        w = f.read().split()
    n, nrhs, lower, unit, op = (int(v) for v in w[:5])
    alpha = complex(float(w[5]), float(w[6]))
    a = sp.csr_matrix((load(d, "A.data", np.complex128), load(d, "A.indices", np.int64),
                       load(d, "A.indptr", np.int64)), shape=(n, n))
    b = load(d, "B", np.complex128).reshape(n, nrhs)
    strict = sp.tril(a, -1) if lower else sp.triu(a, 1)
    diag = sp.identity(n, dtype=np.complex128) if unit else sp.diags(a.diagonal())
    t = (strict + diag).tocsr()
    if op == 1:
        t = t.T.tocsr()
        lower = not lower
    elif op == 2:
        t = t.conj().T.tocsr()
        lower = not lower
    rhs = alpha * b
    x = spla.spsolve_triangular(t, rhs, lower=bool(lower))
    x = np.asarray(x).reshape(n, nrhs)
    dense = t.toarray()
    tinv = abs(np.linalg.inv(dense))
    e1 = tinv @ (abs(dense) @ abs(x))
    e2 = tinv @ abs(rhs)
    wmax = int(np.diff(t.indptr).max())
    x.astype(np.complex128).tofile(os.path.join(d, "X"))
    e1.astype(np.float64).tofile(os.path.join(d, "E1"))
    e2.astype(np.float64).tofile(os.path.join(d, "E2"))
    np.array([wmax], dtype=np.int64).tofile(os.path.join(d, "W"))
    return 0


def csr(d, name, rows, cols):
    return sp.csr_matrix((load(d, name + ".data", np.complex128),
                          load(d, name + ".indices", np.int64),
                          load(d, name + ".indptr", np.int64)), shape=(rows, cols))


def spgemm(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, k, n = (int(v) for v in f.read().split()[:3])
    a = csr(d, "A", m, k)
    b = csr(d, "B", k, n)
    c = (a @ b).toarray()
    mag = (abs(a) @ abs(b)).toarray()
    pa = a.copy()
    pa.data = np.ones_like(pa.data)
    pb = b.copy()
    pb.data = np.ones_like(pb.data)
    cnt = (pa @ pb).toarray().real
    c.astype(np.complex128).tofile(os.path.join(d, "C"))
    mag.astype(np.float64).tofile(os.path.join(d, "M"))
    cnt.astype(np.float64).tofile(os.path.join(d, "S"))
    return 0


def dense(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, k, n = (int(v) for v in f.read().split()[:3])
    a = load(d, "A", np.complex128).reshape(m, k)
    b = load(d, "B", np.complex128).reshape(k, n)
    (a @ b).astype(np.complex128).tofile(os.path.join(d, "P"))
    (abs(a) @ abs(b)).astype(np.float64).tofile(os.path.join(d, "M"))
    return 0


def ilu(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, chol = (int(v) for v in f.read().split()[:2])
    a = csr(d, "A", m, m)
    f = sp.csr_matrix((load(d, "F", np.complex128), a.indices, a.indptr), shape=(m, m))
    if chol:
        low = sp.tril(f, 0).toarray()
        lo, up = low, low.conj().T
    else:
        lo = sp.tril(f, -1).toarray() + np.eye(m)
        up = sp.triu(f, 0).toarray()
    res = abs(lo @ up - a.toarray())
    mag = abs(lo) @ abs(up)
    rows = np.repeat(np.arange(m), np.diff(a.indptr))
    cols = a.indices
    keep = cols <= rows if chol else np.ones_like(cols, dtype=bool)
    r = np.where(keep, res[rows, cols], 0.0)
    mm = np.where(keep, mag[rows, cols], 0.0)
    r.astype(np.float64).tofile(os.path.join(d, "R"))
    mm.astype(np.float64).tofile(os.path.join(d, "M"))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "ilu":
        return ilu(argv[2])
    if len(argv) == 3 and argv[1] == "spsv":
        return spsv(argv[2])
    if len(argv) == 3 and argv[1] == "spgemm":
        return spgemm(argv[2])
    if len(argv) == 3 and argv[1] == "dense":
        return dense(argv[2])
    sys.stderr.write(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
