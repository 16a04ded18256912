#!/usr/bin/python3
"""Iteration counts of scipy.sparse.linalg's Krylov solvers, the reference for
tests/integration/test_solver_sparse.c (must run under /usr/bin/python3).

    solver_sparse_ref.py DIR

DIR/manifest.txt lists one solve a line:

    NAME METHOD PRECOND TOL

NAME names a square CSR matrix and right-hand side in DIR: NAME.rowptr
(int64, n + 1), NAME.col (int32, nnz, 0-based), NAME.val and NAME.b
(float64). METHOD is cg, gmres (restart 30) or bicgstab; PRECOND none,
jacobi, bjacobi16 (LU of the diagonal 16 x 16 blocks) or ssor1.3 (SSOR with
omega 1.3: M = (D + wL) D^-1 (D + wU) / (w (2 - w))), the preconditioners
trnsolver defines (docs/numerics.md). Each solve starts from x = 0 and stops
at ||b - A x||_2 <= TOL ||b||_2 (atol 0). One line per solve is written to
DIR/out.txt: the iterations (GMRES: inner steps) and the true relative
residual of scipy's x. Exit status 0 on success, 1 with a message.
"""
import os
import sys

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def load(d, name):
    rowptr = np.fromfile(os.path.join(d, name + ".rowptr"), dtype=np.int64)
    col = np.fromfile(os.path.join(d, name + ".col"), dtype=np.int32)
    val = np.fromfile(os.path.join(d, name + ".val"), dtype=np.float64)
    b = np.fromfile(os.path.join(d, name + ".b"), dtype=np.float64)
    n = rowptr.size - 1
    return sp.csr_matrix((val, col, rowptr), shape=(n, n)), b


def preconditioner(a, kind):
    n = a.shape[0]
    d = a.diagonal()
    if kind == "none":
        return None
    if kind == "jacobi":
        return sla.LinearOperator((n, n), matvec=lambda r: r / d)
    if kind.startswith("bjacobi"):
        bs = int(kind[len("bjacobi"):])
        dense = a.toarray()
        lus = [(s, la.lu_factor(dense[s:s + bs, s:s + bs])) for s in range(0, n, bs)]

        def apply(r):
            z = np.empty(n)
            for s, lu in lus:
                z[s:s + bs] = la.lu_solve(lu, r[s:s + bs])
            return z
        return sla.LinearOperator((n, n), matvec=apply)
    if kind.startswith("ssor"):
        w = float(kind[len("ssor"):])
        dm = sp.diags(d)
        lower = (dm + w * sp.tril(a, -1)).tocsr()
        upper = (dm + w * sp.triu(a, 1)).tocsr()

        def apply(r):
            y = sla.spsolve_triangular(lower, r, lower=True)
            return w * (2 - w) * sla.spsolve_triangular(upper, d * y, lower=False)
        return sla.LinearOperator((n, n), matvec=apply)
    raise ValueError("unknown preconditioner " + kind)


def solve(a, b, method, m, tol):
    count = [0]

    def cb(_):
        count[0] += 1
    if method == "cg":
        x, _ = sla.cg(a, b, tol=tol, atol=0.0, M=m, callback=cb, maxiter=100000)
    elif method == "bicgstab":
        x, _ = sla.bicgstab(a, b, tol=tol, atol=0.0, M=m, callback=cb, maxiter=100000)
    elif method == "gmres":
        x, _ = sla.gmres(a, b, tol=tol, atol=0.0, M=m, restart=30, callback=cb,
                         callback_type="pr_norm", maxiter=100000)
    else:
        raise ValueError("unknown method " + method)
    return count[0], np.linalg.norm(b - a @ x) / np.linalg.norm(b)


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 1
    d = argv[1]
    cache = {}
    out = []
    with open(os.path.join(d, "manifest.txt")) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            name, method, kind, tol = w[0], w[1], w[2], float(w[3])
            if name not in cache:
                cache[name] = load(d, name)
            a, b = cache[name]
            its, rel = solve(a, b, method, preconditioner(a, kind), tol)
            out.append(f"{its} {rel:.17g}\n")
    with open(os.path.join(d, "out.txt"), "w") as f:
        f.writelines(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
