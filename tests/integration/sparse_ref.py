#!/usr/bin/python3
"""Independent references for the trnsparse integration tests
(test_sparse_ops.c, test_sparse_ext.c, test_sparse_vec.c), computed with
Debian's numpy/scipy (run it under /usr/bin/python3).

    sparse_ref.py spgemm DIR
        DIR/meta.txt: "m k n alpha" ; A and B as CSR, 0-based int64:
        A.indptr, A.indices, A.data (float64), B.indptr, B.indices, B.data.
        Writes, for C = alpha A B with scipy.sparse (float64):
          C.indptr, C.indices (int64, columns sorted in each row): the
          structure of the product of the patterns (every (i, j) with some
          a_ik b_kj stored; scipy's own product would drop entries that
          cancel to 0, cuSPARSE's keeps them);
          C.data: alpha A B at those positions (float64);
          C.mag: |alpha| |A| |B| there (for the error bound);
          C.cnt: the number of products a_ik b_kj summed there (float64).

    sparse_ref.py attention DIR
        DIR/meta.txt: "batch sq sk d dv rb cb scale"; Q (batch x sq x d), K
        (batch x sk x d), V (batch x sk x dv): float64, row-major;
        mask: (sq/rb) x (sk/cb) bytes, 1 where the block is in the BSR
        pattern. Writes O (batch x sq x dv, float64): the dense reference
        softmax(Q K^T scale + M) V with M = 0 inside allowed blocks and -inf
        elsewhere, computed with numpy on the whole sq x sk score matrix; a
        row with no allowed block is 0.

    sparse_ref.py spvec DIR
        DIR/meta.txt: "n alpha beta c s"; x.idx (int64, 0-based), x.val,
        y (float64, n). Writes, with scipy.sparse (x as a 1 x n matrix,
        duplicates summed): dot (x . y), axpby (beta y + alpha x), gather
        (y at x's indices), scatter (y with x's entries stored at its
        indices; indices unique), rot.x and rot.y (the Givens rotation of
        cusparseRot; indices unique), all float64.

    sparse_ref.py spvecz DIR
        The same in complex128 with numpy: x.val and y hold (re, im)
        float64 pairs, meta.txt "n alpha beta c s" with each scalar as
        "re im"; writes dot, dotc (sum conj(x_k) y[i_k]), axpby, gather,
        scatter, rot.x, rot.y as (re, im) float64 pairs.

    sparse_ref.py spsv DIR
        DIR/meta.txt: "n nrhs lower unit trans alpha"; A as CSR, 0-based
        int64 (A.indptr, A.indices, A.data float64; both triangles may be
        stored), B (n x nrhs, float64, row-major: op(B) already applied).
        T = the strict triangle of A (lower or upper) plus A's diagonal, or
        the identity when unit; op(T) = T or T^T (trans). Writes X =
        spsolve_triangular(op(T), alpha B) (row-major), the bound terms
        E1 = |op(T)^-1| |op(T)| |X| and E2 = |op(T)^-1| |alpha B| (Higham
        (8.3): a computed x satisfies (T + dT) x = b with |dT| <= gamma_w
        |T|, w the longest row of op(T)), and W (int64): w.

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def load(d, name, dtype):
    return np.fromfile(os.path.join(d, name), dtype=dtype)


def spgemm(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, k, n, alpha = f.read().split()
    m, k, n, alpha = int(m), int(k), int(n), float(alpha)
    a = sp.csr_matrix((load(d, "A.data", np.float64), load(d, "A.indices", np.int64),
                       load(d, "A.indptr", np.int64)), shape=(m, k))
    b = sp.csr_matrix((load(d, "B.data", np.float64), load(d, "B.indices", np.int64),
                       load(d, "B.indptr", np.int64)), shape=(k, n))
    ap = a.copy()
    ap.data = np.ones_like(ap.data)
    bp = b.copy()
    bp.data = np.ones_like(bp.data)
    cnt = (ap @ bp).tocsr()
    cnt.sort_indices()
    rows = np.repeat(np.arange(m), np.diff(cnt.indptr))
    cols = cnt.indices
    val = (alpha * (a @ b)).tocsr()
    mag = (abs(alpha) * (abs(a) @ abs(b))).tocsr()
    vals = np.asarray(val[rows, cols]).ravel() if len(rows) else np.zeros(0)
    mags = np.asarray(mag[rows, cols]).ravel() if len(rows) else np.zeros(0)
    cnt.indptr.astype(np.int64).tofile(os.path.join(d, "C.indptr"))
    cols.astype(np.int64).tofile(os.path.join(d, "C.indices"))
    vals.astype(np.float64).tofile(os.path.join(d, "C.data"))
    mags.astype(np.float64).tofile(os.path.join(d, "C.mag"))
    cnt.data.astype(np.float64).tofile(os.path.join(d, "C.cnt"))
    print("spgemm %dx%dx%d: nnz(C) = %d" % (m, k, n, len(cols)))
    return 0


def attention(d):
    with open(os.path.join(d, "meta.txt")) as f:
        w = f.read().split()
    batch, sq, sk, dh, dv, rb, cb = (int(x) for x in w[:7])
    scale = float(w[7])
    q = load(d, "Q", np.float64).reshape(batch, sq, dh)
    k = load(d, "K", np.float64).reshape(batch, sk, dh)
    v = load(d, "V", np.float64).reshape(batch, sk, dv)
    mask = load(d, "mask", np.uint8).reshape(sq // rb, sk // cb).astype(bool)
    full = np.kron(mask, np.ones((rb, cb), dtype=bool))
    out = np.zeros((batch, sq, dv))
    for b in range(batch):
        s = (q[b] @ k[b].T) * scale
        s = np.where(full, s, -np.inf)
        mx = s.max(axis=1, keepdims=True)
        empty = ~np.isfinite(mx[:, 0])
        mx[empty] = 0.0
        p = np.exp(s - mx)
        den = p.sum(axis=1, keepdims=True)
        den[empty] = 1.0
        out[b] = (p @ v[b]) / den
        out[b][empty] = 0.0
    out.tofile(os.path.join(d, "O"))
    print("attention batch %d, %dx%d, %d of %d blocks" % (batch, sq, sk, mask.sum(), mask.size))
    return 0


def spvec(d):
    with open(os.path.join(d, "meta.txt")) as f:
        w = f.read().split()
    n = int(w[0])
    alpha, beta, c, s = (float(v) for v in w[1:5])
    idx = load(d, "x.idx", np.int64)
    val = load(d, "x.val", np.float64)
    y = load(d, "y", np.float64)
    x = sp.csr_matrix((val, (np.zeros(len(idx), dtype=np.int64), idx)), shape=(1, n))
    dot = np.array([(x @ y)[0]]) if n else np.zeros(1)
    dense_x = x.toarray().ravel()
    axpby = beta * y + alpha * dense_x
    gather = y[idx]
    scatter = y.copy()
    scatter[idx] = val
    rot_x = c * val + s * y[idx]
    rot_y = y.copy()
    rot_y[idx] = c * y[idx] - s * val
    for name, arr in (("dot", dot), ("axpby", axpby), ("gather", gather), ("scatter", scatter),
                      ("rot.x", rot_x), ("rot.y", rot_y)):
        np.asarray(arr, dtype=np.float64).tofile(os.path.join(d, name))
    print("spvec n %d nnz %d" % (n, len(idx)))
    return 0


def spvecz(d):
    """The complex Level 1 references in complex128: x.val and y hold
    (re, im) pairs; meta.txt: n, then alpha, beta, c, s as re im pairs."""
    with open(os.path.join(d, "meta.txt")) as f:
        w = f.read().split()
    n = int(w[0])
    v = [float(t) for t in w[1:9]]
    alpha, beta, c, s = (complex(v[2 * k], v[2 * k + 1]) for k in range(4))
    idx = load(d, "x.idx", np.int64)
    val = load(d, "x.val", np.float64).view(np.complex128)
    y = load(d, "y", np.float64).view(np.complex128)
    dot = np.array([np.sum(val * y[idx])])
    dotc = np.array([np.sum(np.conj(val) * y[idx])])
    dense_x = np.zeros(n, dtype=np.complex128)
    dense_x[idx] = val
    axpby = beta * y + alpha * dense_x
    gather = y[idx]
    scatter = y.copy()
    scatter[idx] = val
    rot_x = c * val + s * y[idx]
    rot_y = y.copy()
    rot_y[idx] = c * y[idx] - s * val
    for name, arr in (("dot", dot), ("dotc", dotc), ("axpby", axpby), ("gather", gather),
                      ("scatter", scatter), ("rot.x", rot_x), ("rot.y", rot_y)):
        np.asarray(arr, dtype=np.complex128).view(np.float64).tofile(os.path.join(d, name))
    print("spvecz n %d nnz %d" % (n, len(idx)))
    return 0


def spsv(d):
    with open(os.path.join(d, "meta.txt")) as f:
        w = f.read().split()
    n, nrhs, lower, unit, trans = (int(v) for v in w[:5])
    alpha = float(w[5])
    a = sp.csr_matrix((load(d, "A.data", np.float64), load(d, "A.indices", np.int64),
                       load(d, "A.indptr", np.int64)), shape=(n, n))
    b = load(d, "B", np.float64).reshape(n, nrhs)
    strict = sp.tril(a, -1) if lower else sp.triu(a, 1)
    diag = sp.identity(n) if unit else sp.diags(a.diagonal())
    t = (strict + diag).tocsr()
    if trans:
        t = t.T.tocsr()
        lower = not lower
    rhs = alpha * b
    x = spla.spsolve_triangular(t, rhs, lower=bool(lower))
    x = np.asarray(x).reshape(n, nrhs)
    td = abs(t.toarray())
    tinv = abs(np.linalg.inv(t.toarray())) if n else np.zeros((0, 0))
    e1 = tinv @ (td @ abs(x))
    e2 = tinv @ abs(rhs)
    rows = np.diff(t.indptr) if n else np.zeros(1, dtype=np.int64)
    wmax = int(rows.max()) if n else 0
    x.astype(np.float64).tofile(os.path.join(d, "X"))
    e1.astype(np.float64).tofile(os.path.join(d, "E1"))
    e2.astype(np.float64).tofile(os.path.join(d, "E2"))
    np.array([wmax], dtype=np.int64).tofile(os.path.join(d, "W"))
    print("spsv n %d nrhs %d nnz(T) %d" % (n, nrhs, t.nnz))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "spgemm":
        return spgemm(argv[2])
    if len(argv) == 3 and argv[1] == "attention":
        return attention(argv[2])
    if len(argv) == 3 and argv[1] == "spvec":
        return spvec(argv[2])
    if len(argv) == 3 and argv[1] == "spvecz":
        return spvecz(argv[2])
    if len(argv) == 3 and argv[1] == "spsv":
        return spsv(argv[2])
    print(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
