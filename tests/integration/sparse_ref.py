#!/usr/bin/python3
"""Independent references for the trnsparse integration tests
(test_sparse_ops.c), computed with Debian's numpy/scipy (run it under
/usr/bin/python3).

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

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.sparse as sp


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


def main(argv):
    if len(argv) == 3 and argv[1] == "spgemm":
        return spgemm(argv[2])
    if len(argv) == 3 and argv[1] == "attention":
        return attention(argv[2])
    print(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
