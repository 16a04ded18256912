#!/usr/bin/python3
"""Independent references for tests/integration/test_solver_eigen.c and
test_solver_x.c, computed with Debian's numpy/scipy (must run under
/usr/bin/python3).

    solver_ref.py DIR

DIR/manifest.txt lists one problem a line:

    eigh NAME TYPE N                 eigenvalues of the Hermitian matrix in
                                     DIR/NAME.a (scipy.linalg.eigvalsh,
                                     lower triangle), ascending
    eigh NAME TYPE N ITYPE           the generalised problem with the
                                     positive definite DIR/NAME.b
                                     (scipy.linalg.eigh(a, b, type=ITYPE))
    svd NAME TYPE M N                singular values of the M x N matrix
                                     (numpy.linalg.svd), descending
    lu NAME TYPE M N                 the 1-based row interchanges of
                                     scipy.linalg.lu_factor (LAPACK getrf)
                                     run in TYPE itself, min(M,N) values
    solve NAME TYPE N NRHS           kappa_inf(A), then X of
                                     numpy.linalg.solve(A, B) in double
                                     (DIR/NAME.a, DIR/NAME.b), column-major,
                                     complex as real and imaginary parts
    spsolve NAME TYPE N              kappa_inf(A), then x of
                                     scipy.sparse.linalg.spsolve on A (as a
                                     CSR matrix) and the vector DIR/NAME.b,
                                     laid out as for solve
    lstsq NAME TYPE M N NRHS         sigma_max(A), sigma_min(A) (numpy's SVD),
                                     then X of numpy.linalg.lstsq(A, B) in
                                     double, laid out as for solve
    qr NAME TYPE M N                 the min(M,N) x N factor R of
                                     scipy.linalg.qr (LAPACK geqrf's
                                     convention), column-major; complex
                                     types give real and imaginary parts

TYPE is f32, f64, c64 or c128: the element type of the raw, column-major,
native-endian matrices, unpadded. The values are written to DIR/NAME.out as
float64. Exit status 0 on success, 1 with a message on failure.
"""
import os
import sys

import numpy as np
from scipy import linalg

DTYPES = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def load(path, typ, rows, cols):
    a = np.fromfile(path, dtype=DTYPES[typ])
    if a.size != rows * cols:
        raise ValueError(f"{path}: {a.size} elements, expected {rows} x {cols}")
    # Column-major on disk; computed in double (or double complex).
    wide = np.complex128 if typ.startswith("c") else np.float64
    return a.reshape((cols, rows)).T.astype(wide)


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 1
    d = argv[1]
    with open(os.path.join(d, "manifest.txt")) as f:
        lines = [ln.split() for ln in f if ln.strip()]
    for w in lines:
        kind, name, typ = w[0], w[1], w[2]
        base = os.path.join(d, name)
        if kind == "eigh":
            n = int(w[3])
            a = load(base + ".a", typ, n, n)
            if len(w) > 4:
                b = load(base + ".b", typ, n, n)
                vals = linalg.eigh(a, b, type=int(w[4]), lower=True, eigvals_only=True)
            else:
                vals = linalg.eigvalsh(a, lower=True)
        elif kind == "lu":
            m, n = int(w[3]), int(w[4])
            a = np.fromfile(base + ".a", dtype=DTYPES[typ]).reshape((n, m)).T
            vals = linalg.lu_factor(np.asfortranarray(a))[1] + 1
        elif kind == "qr":
            m, n = int(w[3]), int(w[4])
            r = linalg.qr(load(base + ".a", typ, m, n), mode="r")[0][:min(m, n), :]
            wide = np.complex128 if typ.startswith("c") else np.float64
            np.asarray(r, dtype=wide).ravel(order="F").tofile(base + ".out")
            continue
        elif kind == "solve":
            n, nrhs = int(w[3]), int(w[4])
            a = load(base + ".a", typ, n, n)
            x = np.linalg.solve(a, load(base + ".b", typ, n, nrhs))
            wide = np.complex128 if typ.startswith("c") else np.float64
            head = np.array([np.linalg.cond(a, np.inf)], dtype=np.float64)
            xs = np.asarray(x, dtype=wide).ravel(order="F").view(np.float64)
            np.concatenate([head, xs]).tofile(base + ".out")
            continue
        elif kind == "spsolve":
            from scipy.sparse import csr_matrix
            from scipy.sparse.linalg import spsolve
            n = int(w[3])
            a = load(base + ".a", typ, n, n)
            x = spsolve(csr_matrix(a), load(base + ".b", typ, n, 1)[:, 0])
            wide = np.complex128 if typ.startswith("c") else np.float64
            head = np.array([np.linalg.cond(a, np.inf)], dtype=np.float64)
            xs = np.asarray(x, dtype=wide).ravel(order="F").view(np.float64)
            np.concatenate([head, xs]).tofile(base + ".out")
            continue
        elif kind == "lstsq":
            m, n, nrhs = int(w[3]), int(w[4]), int(w[5])
            a = load(base + ".a", typ, m, n)
            x = np.linalg.lstsq(a, load(base + ".b", typ, m, nrhs), rcond=None)[0]
            wide = np.complex128 if typ.startswith("c") else np.float64
            sv = np.linalg.svd(a, compute_uv=False)
            head = np.array([sv[0], sv[-1]], dtype=np.float64)
            xs = np.asarray(x, dtype=wide).ravel(order="F").view(np.float64)
            np.concatenate([head, xs]).tofile(base + ".out")
            continue
        elif kind == "svd":
            m, n = int(w[3]), int(w[4])
            vals = np.linalg.svd(load(base + ".a", typ, m, n), compute_uv=False)
        else:
            print("unknown problem kind", kind)
            return 1
        np.asarray(vals, dtype=np.float64).tofile(base + ".out")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
