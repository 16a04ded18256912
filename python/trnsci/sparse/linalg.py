"""trnsci.sparse.linalg — scipy.sparse.linalg's Krylov solvers over trnsolver.

Role: cg, gmres and bicgstab with scipy.sparse.linalg's calling convention
`x, info = cg(A, b, x0=None, rtol=..., maxiter=None, M=None)`, each one
trnsolver<S|D><method> call on a trnsolverOperator_t made from A.
A: a trnsci.sparse CSR or BSR matrix (COO is converted to CSR), a
scipy.sparse matrix (copied to the device as CSR), or a dense square
matrix (NumPy or trnsci; a column-major device copy is made). M names the
daemon's preconditioner instead of an operator: None, "jacobi",
"block_jacobi" (block_size) or "ssor" (omega).
Invariants: real float32 or float64 only (trnsolver's Krylov solvers);
A and b are never modified; x is a new device array. The stopping rule is
the C routine's, ||b - A x||_2 <= rtol ||b||_2, which is scipy's with
atol = 0.
info (scipy's convention): 0 converged; > 0 the iteration count when the
tolerance was not reached within maxiter; < 0 a breakdown, a NaN or an
infinity, or a preconditioner that could not be built.
"""
import ctypes

import numpy as np

from .. import _fam
from .. import _lib as L
from .._array import asarray, empty
from . import csr_matrix, spmatrix

__all__ = ["cg", "gmres", "bicgstab", "LinearOperatorError"]

_v, _i = L.c_void_p, L.c_int
_PRECOND = {None: 0, "none": 0, "jacobi": 1, "block_jacobi": 2, "ssor": 3}
_RESULT = np.dtype([("iterations", "<i4"), ("status", "<i4"), ("residual", "<f8")])


class LinearOperatorError(TypeError):
    """A is not something the Krylov solvers take."""


def _check(status, name):
    _fam.check(status, name, "solver")


def _operator(A, dtype):
    """(trnsolverOperator_t, keep-alive objects) for A of dtype."""
    op = ctypes.c_void_p()
    try:
        import scipy.sparse as sps
        if sps.issparse(A):
            A = csr_matrix(A.tocsr() if A.format not in ("csr", "bsr") else A)
    except ImportError:
        pass
    if isinstance(A, spmatrix):
        if A.format not in ("csr", "bsr"):
            A = A.tocsr()
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"the Krylov solvers need a square matrix, not {A.shape}")
        if A.dtype != dtype:
            raise TypeError(f"A is {A.dtype} and b {dtype}: convert one explicitly")
        d = A._descr()
        try:
            _check(L.fn("trnsolverCreateSparseOperator", _i, L.P(_v), _v)(L.byref(op), d),
                   "trnsolverCreateSparseOperator")
        finally:
            L.fn("trnsparseDestroySpMat", _i, _v)(d)
        return op, A
    a = asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"the Krylov solvers need a square matrix, not shape {a.shape}")
    if a.dtype != dtype:
        raise TypeError(f"A is {a.dtype} and b {dtype}: convert one explicitly")
    f = a if a.f_contiguous else a.copy("F")
    n = f.shape[0]
    name = "trnsolverCreateDenseOperator" + ("S" if dtype == np.float32 else "D")
    _check(L.fn(name, _i, L.P(_v), _i, _v, _i)(L.byref(op), n, f.ptr, max(n, 1)), name)
    return op, f


def _solve(method, A, b, x0, rtol, maxiter, M, restart, block_size, omega):
    if _fam.capturing():
        raise RuntimeError("the Krylov solvers read their outcome back from the daemon and "
                           "cannot be captured into a graph")
    b = asarray(b)
    if b.dtype not in (np.float32, np.float64):
        raise TypeError(f"trnsci's Krylov solvers take float32 or float64, not {b.dtype}")
    if b.ndim != 1:
        raise ValueError(f"b must be a vector, not shape {b.shape}")
    if M not in _PRECOND:
        raise ValueError(f"M must be one of {sorted(k for k in _PRECOND if k)} or None, "
                         f"not {M!r}")
    if not (rtol >= 0 and np.isfinite(rtol)):
        raise ValueError(f"rtol must be finite and >= 0, not {rtol}")
    n = b.shape[0]
    shape = A.shape if hasattr(A, "shape") else np.shape(A)
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"the Krylov solvers need a square matrix, not shape {tuple(shape)}")
    if tuple(shape) != (n, n):
        raise ValueError(f"A of shape {tuple(shape)} does not match b of length {n}")
    x = empty(n, b.dtype)
    if x0 is not None:
        x0 = asarray(x0, dtype=b.dtype)
        if x0.shape != (n,):
            raise ValueError(f"x0 must have shape {(n,)}, not {x0.shape}")
        x.set(x0)
    if b.c_contiguous is False:
        b = b.copy()
    op, keep = _operator(A, b.dtype)
    params = ctypes.c_void_p()
    res = empty(_RESULT.itemsize, np.uint8)
    p = "S" if b.dtype == np.float32 else "D"
    name = f"trnsolver{p}{method}"
    h = _fam.solver_handle()
    try:
        _check(L.fn("trnsolverCreateIterParams", _i, L.P(_v))(L.byref(params)),
               "trnsolverCreateIterParams")
        _check(L.fn("trnsolverIterParamsSetTolerance", _i, _v, L.c_double)(params, rtol),
               "trnsolverIterParamsSetTolerance")
        if maxiter is not None:
            _check(L.fn("trnsolverIterParamsSetMaxIters", _i, _v, _i)(params, int(maxiter)),
                   "trnsolverIterParamsSetMaxIters")
        if restart is not None:
            _check(L.fn("trnsolverIterParamsSetRestart", _i, _v, _i)(params, int(restart)),
                   "trnsolverIterParamsSetRestart")
        _check(L.fn("trnsolverIterParamsSetPreconditioner", _i, _v, _i, _i, L.c_double)(
            params, _PRECOND[M], int(block_size), float(omega)),
            "trnsolverIterParamsSetPreconditioner")
        _check(L.fn(name, _i, _v, _v, _v, _v, _v, _v)(h, op, b.ptr, x.ptr, params, res.ptr), name)
        _fam.finish()
    finally:
        L.fn("trnsolverDestroyIterParams", _i, _v)(params)
        L.fn("trnsolverDestroyOperator", _i, _v)(op)
        # the core's dense solver routines expect the default stream
        L.fn("trnsolverDnSetStream", _i, _v, _v)(h, None)
    del keep
    r = res.get().view(_RESULT)[0]
    st = int(r["status"])
    info = 0 if st == 0 else int(r["iterations"]) if st == 1 else -st
    return x, info


def cg(A, b, x0=None, *, rtol=1e-5, maxiter=None, M=None, block_size=0, omega=0.0):
    """Conjugate gradients for a symmetric positive definite A (trnsolver<S|D>cg)."""
    return _solve("cg", A, b, x0, rtol, maxiter, M, None, block_size, omega)


def gmres(A, b, x0=None, *, rtol=1e-5, restart=None, maxiter=None, M=None, block_size=0,
          omega=0.0):
    """Restarted GMRES(restart) (trnsolver<S|D>gmres; maxiter counts inner steps)."""
    return _solve("gmres", A, b, x0, rtol, maxiter, M, restart, block_size, omega)


def bicgstab(A, b, x0=None, *, rtol=1e-5, maxiter=None, M=None, block_size=0, omega=0.0):
    """BiCGStab for a general non-singular A (trnsolver<S|D>bicgstab)."""
    return _solve("bicgstab", A, b, x0, rtol, maxiter, M, None, block_size, omega)
