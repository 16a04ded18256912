#!/usr/bin/python3
"""Independent reference for test_sparse_gebsr.c (trnsparse's general-block
BSR conversions and the complex conversions), computed with Debian's
scipy.sparse (run it under /usr/bin/python3). Conversions move values
without arithmetic, so everything written here is exact.

    sparse_gebsr_ref.py gebsr DIR
        DIR/meta.txt: "m n nnz K" then K lines "rb cb rc cc".
        DIR/indptr, DIR/indices (int32), DIR/data (complex128): a zero-based
        m x n CSR matrix A with sorted, unique column indices.
        For case k, writes DIR/bsr<k>_{indptr,indices,data}: A padded with
        empty rows and columns to a multiple of rb x cb, as scipy's BSR of
        rb x cb blocks (sorted block columns; data: blocks row-major);
        DIR/csr<k>_{indptr,indices,data}: that BSR as CSR (every element of
        every block); DIR/re<k>_{indptr,indices,data}: that CSR padded to a
        multiple of rc x cc, as BSR of rc x cc blocks.

    sparse_gebsr_ref.py misc DIR
        DIR/meta.txt: "m n nnz ncoo". A as above (indptr, indices, data);
        DIR/coo_{row,col} (int32), DIR/coo_data (complex128): ncoo COO
        entries of an m x n matrix, duplicates allowed.
        Writes DIR/csc_{indptr,indices,data}: A as CSC (sorted row
        indices); DIR/dense (complex128, m x n column-major): A dense;
        DIR/d2s_{indptr,indices,data}: that dense matrix as CSR (the entries
        that are not 0 + 0i, in column order); DIR/coo_dense (complex128,
        m x n column-major): the COO matrix dense, duplicates added.

    sparse_gebsr_ref.py geam DIR
        DIR/meta.txt: "m n K" then K lines "ar ai br bi" (scalars alpha,
        beta). DIR/a_{indptr,indices,data}, DIR/b_{...}: zero-based m x n
        CSR matrices A and B (int32 indices, complex128 values).
        Writes DIR/u_{indptr,indices}: the union of A's and B's patterns
        (sorted columns), and for case k DIR/c<k>_data: alpha A + beta B
        on that pattern (complex128, numpy), DIR/c<k>_bound: |alpha| |A| +
        |beta| |B| there (float64), for the test's error bound.

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.sparse as sp


def load_csr(d, m, n):
    indptr = np.fromfile(os.path.join(d, "indptr"), dtype=np.int32)
    indices = np.fromfile(os.path.join(d, "indices"), dtype=np.int32)
    data = np.fromfile(os.path.join(d, "data"), dtype=np.complex128)
    return sp.csr_matrix((data, indices, indptr), shape=(m, n))


def pad(a, rows, cols):
    """a (CSR) with empty rows and columns appended to rows x cols."""
    indptr = np.concatenate(
        [a.indptr, np.full(rows - a.shape[0], a.indptr[-1], dtype=a.indptr.dtype)])
    return sp.csr_matrix((a.data, a.indices, indptr), shape=(rows, cols))


def ceil_div(a, b):
    return -(-a // b)


def save(d, prefix, indptr, indices, data):
    np.asarray(indptr, dtype=np.int32).tofile(os.path.join(d, prefix + "_indptr"))
    np.asarray(indices, dtype=np.int32).tofile(os.path.join(d, prefix + "_indices"))
    np.asarray(data, dtype=np.complex128).ravel().tofile(os.path.join(d, prefix + "_data"))


def to_bsr(a, rb, cb):
    mb, nb = ceil_div(a.shape[0], rb), ceil_div(a.shape[1], cb)
    b = pad(a, mb * rb, nb * cb).tobsr(blocksize=(rb, cb))
    b.sort_indices()
    return b


def gebsr(d):
    with open(os.path.join(d, "meta.txt")) as f:
        head = f.readline().split()
        m, n, nnz, k = (int(v) for v in head)
        cases = [tuple(int(v) for v in f.readline().split()) for _ in range(k)]
    a = load_csr(d, m, n)
    if a.nnz != nnz or not a.has_sorted_indices:
        sys.stderr.write("A is not a sorted CSR matrix of nnz entries\n")
        return 1
    for i, (rb, cb, rc, cc) in enumerate(cases):
        b = to_bsr(a, rb, cb)
        save(d, "bsr%d" % i, b.indptr, b.indices, b.data)
        c = b.tocsr()  # every element of every block, zeros included
        save(d, "csr%d" % i, c.indptr, c.indices, c.data)
        r = to_bsr(c, rc, cc)
        save(d, "re%d" % i, r.indptr, r.indices, r.data)
    return 0


def misc(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, n, nnz, ncoo = (int(v) for v in f.read().split())
    a = load_csr(d, m, n)
    c = a.tocsc()
    c.sort_indices()
    save(d, "csc", c.indptr, c.indices, c.data)
    dense = np.asarray(a.todense())
    dense.ravel(order="F").tofile(os.path.join(d, "dense"))
    s = sp.csr_matrix(dense)  # drops the entries equal to 0 + 0i
    s.sort_indices()
    save(d, "d2s", s.indptr, s.indices, s.data)
    row = np.fromfile(os.path.join(d, "coo_row"), dtype=np.int32)
    col = np.fromfile(os.path.join(d, "coo_col"), dtype=np.int32)
    val = np.fromfile(os.path.join(d, "coo_data"), dtype=np.complex128)
    if len(row) != ncoo:
        sys.stderr.write("coo: expected %d entries\n" % ncoo)
        return 1
    cd = np.asarray(sp.coo_matrix((val, (row, col)), shape=(m, n)).todense())
    cd.ravel(order="F").tofile(os.path.join(d, "coo_dense"))
    return 0


def load(d, prefix, m, n):
    indptr = np.fromfile(os.path.join(d, prefix + "_indptr"), dtype=np.int32)
    indices = np.fromfile(os.path.join(d, prefix + "_indices"), dtype=np.int32)
    data = np.fromfile(os.path.join(d, prefix + "_data"), dtype=np.complex128)
    return sp.csr_matrix((data, indices, indptr), shape=(m, n))


def geam(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m, n, k = (int(v) for v in f.readline().split())
        cases = [tuple(float(v) for v in f.readline().split()) for _ in range(k)]
    a, b = load(d, "a", m, n), load(d, "b", m, n)
    # The union of the patterns: ones added, so nothing cancels.
    ones = lambda x: sp.csr_matrix((np.ones(x.nnz), x.indices, x.indptr), shape=x.shape)
    u = ones(a) + ones(b)
    u.sort_indices()
    np.asarray(u.indptr, dtype=np.int32).tofile(os.path.join(d, "u_indptr"))
    np.asarray(u.indices, dtype=np.int32).tofile(os.path.join(d, "u_indices"))
    rows = np.repeat(np.arange(m), np.diff(u.indptr))
    ad, bd = a.toarray(), b.toarray()
    for i, (ar, ai, br, bi) in enumerate(cases):
        alpha, beta = complex(ar, ai), complex(br, bi)
        c = alpha * ad + beta * bd
        bound = abs(alpha) * np.abs(ad) + abs(beta) * np.abs(bd)
        c[rows, u.indices].astype(np.complex128).tofile(os.path.join(d, "c%d_data" % i))
        bound[rows, u.indices].astype(np.float64).tofile(os.path.join(d, "c%d_bound" % i))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "gebsr":
        return gebsr(argv[2])
    if len(argv) == 3 and argv[1] == "misc":
        return misc(argv[2])
    if len(argv) == 3 and argv[1] == "geam":
        return geam(argv[2])
    sys.stderr.write(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
