"""trnsci.linalg — numpy.linalg/scipy.linalg-level routines over trnblas and trnsolver.

Role: map NumPy's row-major, any-stride arrays onto the column-major
(pointer, leading dimension, transpose) triples cuBLAS/cuSOLVER take, and
call the C routine. Invariants: inputs are never modified (factorisations
work on a copy); every routine returns when its result is complete (it
synchronises, so the daemon's deferred errors surface here); a LAPACK
`info > 0` (singular, not positive definite, no convergence) raises
numpy.linalg.LinAlgError, any other failure TrnsciError.
Matrices are 2-D; stacked (batched) inputs are not taken yet.
"""
import ctypes

import numpy as np

from . import _errors
from . import _handles
from . import _lib as L
from ._array import _D2H, _memcpy, asarray, empty, ndarray

LinAlgError = np.linalg.LinAlgError

_PREFIX = {np.dtype(np.float32): "S", np.dtype(np.float64): "D",
           np.dtype(np.complex64): "C", np.dtype(np.complex128): "Z"}
_CTYPE = {"S": ctypes.c_float, "D": ctypes.c_double,
          "C": ctypes.c_float * 2, "Z": ctypes.c_double * 2}
_DATATYPE = {"S": 0, "D": 1, "C": 4, "Z": 5}  # trnsciDataType_t
_REAL = {"S": np.float32, "D": np.float64, "C": np.float32, "Z": np.float64}
# precision → trnblasComputeType_t, per data precision (docs/python.md).
_COMPUTE32 = {"default": 68, "pedantic": 69, "tf32": 77, "bf16": 75, "bf16x3": 1075,
              "bf16x9": 78, "fp16": 74}
_COMPUTE64 = {"default": 70, "pedantic": 71, "emulated": 79}
_N, _T = 0, 1
_LOWER, _UPPER = 0, 1
_v = L.c_void_p
_i = L.c_int


def _prefix(*arrays):
    dt = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != dt:
            raise TypeError(f"dtypes differ: {dt} and {a.dtype} (convert one explicitly)")
    p = _PREFIX.get(dt)
    if p is None:
        raise TypeError(f"trnsci.linalg takes float32, float64, complex64 or complex128, not {dt}")
    return p


def _scalar(p, x):
    if p in "CZ":
        return _CTYPE[p](complex(x).real, complex(x).imag)
    return _CTYPE[p](x)


def _blas_operand(x):
    """(array, op, ld): op(column-major matrix at array.ptr with ld) == x."""
    r, c = x.shape
    it = x.itemsize
    s0, s1 = x.strides
    if s0 == it and (c == 1 or (s1 > 0 and s1 % it == 0 and s1 >= r * it)):
        return x, _N, max(s1 // it if c > 1 else r, 1)
    if s1 == it and (r == 1 or (s0 > 0 and s0 % it == 0 and s0 >= c * it)):
        return x, _T, max(s0 // it if r > 1 else c, 1)
    x = x.copy("C")
    return x, _T, max(c, 1)


_sync_fn = None
_gemm_fn = None


def _sync():
    global _sync_fn
    if _sync_fn is None:
        _sync_fn = L.fn("trnsciStreamSynchronize", _i, _v)
    st = _sync_fn(None)
    if st:
        _errors.raise_status("runtime", "trnsciStreamSynchronize", st)


def _gemm(a, b, c, alpha, beta, precision):
    """c = alpha a b + beta c on device arrays (2-D, same dtype)."""
    global _gemm_fn
    p = _prefix(a, b, c)
    compute = (_COMPUTE32 if p in "SC" else _COMPUTE64).get(precision)
    if compute is None:
        table = _COMPUTE32 if p in "SC" else _COMPUTE64
        raise ValueError(f"precision {precision!r} for {a.dtype}: one of {sorted(table)}")
    cc, cop, ldc = _blas_operand(c)
    if cc is not c:
        raise ValueError("the output must have unit stride along one axis")
    if cop == _T:  # c is row-major: compute c^T = b^T a^T in column-major
        a, b, c = b.T, a.T, c.T
    m, k = a.shape
    n = b.shape[1]
    a, opa, lda = _blas_operand(a)
    b, opb, ldb = _blas_operand(b)
    dt = _DATATYPE[p]
    if _gemm_fn is None:
        _gemm_fn = L.fn("trnblasGemmEx", _i, _v, _i, _i, _i, _i, _i, _v, _v, _i, _i, _v, _i, _i,
                        _v, _v, _i, _i, _i, _i)
    st = _gemm_fn(_handles.blas(), opa, opb, m, n, k, L.byref(_scalar(p, alpha)), a.ptr, dt, lda,
                  b.ptr, dt, ldb, L.byref(_scalar(p, beta)), c.ptr, dt, ldc, compute, -1)
    if st:
        _errors.raise_status("blas", "trnblasGemmEx", st)
    _sync()


def matmul(a, b, out=None, precision="default"):
    """a @ b (numpy.matmul for 1-d and 2-d operands) via trnblasGemmEx."""
    if type(a) is not ndarray or type(b) is not ndarray:
        a, b = asarray(a), asarray(b)
    an, bn = len(a.shape), len(b.shape)
    if an == 0 or bn == 0:
        raise ValueError("matmul: operands must be at least 1-d")
    if an > 2 or bn > 2:
        raise ValueError("matmul: stacked (>2-d) operands are not taken yet")
    a2 = a.reshape(1, a.shape[0]) if an == 1 else a
    b2 = b.reshape(b.shape[0], 1) if bn == 1 else b
    if a2.shape[1] != b2.shape[0]:
        raise ValueError(f"matmul: shape mismatch {a.shape} @ {b.shape}")
    shape = a2.shape[0], b2.shape[1]
    _prefix(a2, b2)
    c = empty(shape, a.dtype) if out is None else out
    if c.shape != shape or c.dtype != a.dtype:
        raise ValueError(f"out must be {shape} {a.dtype}, not {c.shape} {c.dtype}")
    if 0 in shape:
        return c
    if a2.shape[1] == 0:
        c.set(0)
    else:
        _gemm(a2, b2, c, 1, 0, precision)
    if an == 1 and bn == 1:
        return c.reshape(())
    if an == 1 or bn == 1:
        return c.reshape(-1)
    return c


def gemm(a, b, c=None, alpha=1.0, beta=0.0, transa=False, transb=False, precision="default"):
    """alpha op(a) op(b) + beta c (cuBLAS GEMM), in place in c when given.

    precision (trnblasComputeType_t): float32/complex64: "default",
    "pedantic", "tf32", "bf16", "bf16x3", "bf16x9", "fp16"; float64/
    complex128: "default", "pedantic", "emulated" (FP64 from FP32 products).
    """
    a, b = asarray(a), asarray(b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("gemm takes 2-d matrices")
    a = a.T if transa else a
    b = b.T if transb else b
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"gemm: shape mismatch {a.shape} x {b.shape}")
    shape = a.shape[0], b.shape[1]
    if c is None:
        c = empty(shape, a.dtype)
        beta = 0.0
    elif not isinstance(c, ndarray):
        raise TypeError("c must be a trnsci array (it is written in place)")
    if c.shape != shape:
        raise ValueError(f"gemm: c is {c.shape}, the product {shape}")
    _gemm(a, b, c, alpha, beta, precision)
    return c


# ---- trnsolver --------------------------------------------------------------
def _fcopy(x, what):
    """A column-major (F-order) device copy of a square or general matrix."""
    x = asarray(x)
    if x.ndim != 2:
        raise ValueError(f"{what}: expected a 2-d matrix, got shape {x.shape}")
    _prefix(x)
    return x.copy("F")


def _info(dev_info, routine):
    v = np.zeros(1, np.int32)
    _memcpy(v.ctypes.data, dev_info.ptr, 4, _D2H)
    return int(v[0])


_SIG = {"i": _i, "p": _v, "b": ctypes.c_byte}


def _solver(name, sig, *args):
    """Calls trnsolverDn routine `name`; sig spells its arguments after the
    handle: i int, p pointer, b signed char."""
    f = L.fn(name, _i, _v, *[_SIG[ch] for ch in sig])
    _errors.check(f(_handles.solver(), *args), name, "solver")


def _lwork(name, sig, *args):
    """A *_bufferSize query (sig as _solver's, without the trailing int *lwork)."""
    lw = ctypes.c_int(0)
    f = L.fn(name, _i, _v, *[_SIG[ch] for ch in sig], _v)
    _errors.check(f(_handles.solver(), *args, L.byref(lw)), name, "solver")
    return lw.value


def _trmm_tri(f, k, n, uplo):
    """The uplo triangle (trapezoid k×n when n > k) of the F-order factor f
    as a new F-order k×n array, by C = tri(f[:k,:k]) · I (trnblas trmm, which
    reads only the triangle) and, for n > k, a copy of the rest."""
    p = _prefix(f)
    eye = asarray(np.eye(k, n, dtype=f.dtype), order="F")
    out = empty((k, n), f.dtype, "F")
    ld = f.strides[1] // f.itemsize
    one = _scalar(p, 1)
    fn = L.fn(f"trnblas{p}trmm", _i, _v, _i, _i, _i, _i, _i, _i, _v, _v, _i, _v, _i, _v, _i)
    _errors.check(fn(_handles.blas(), 0, uplo, _N, 0, k, n, L.byref(one), f.ptr, ld, eye.ptr,
                     k, out.ptr, k), f"trnblas{p}trmm", "blas")
    if n > k:  # the rectangle right of the triangle
        _copy_columns(out[:, k:], f[:k, k:])
    _sync()
    return out


def _copy_columns(dst, src):
    """dst[...] = src for two column-major (unit row stride) matrices, on the
    device in one 2-D copy (a column per row of the copy)."""
    it = src.itemsize
    cp = L.fn("trnsciMemcpy2D", _i, _v, L.c_size_t, _v, L.c_size_t, L.c_size_t, L.c_size_t, _i)
    _errors.check(cp(dst.ptr, dst.strides[1], src.ptr, src.strides[1], src.shape[0] * it,
                     src.shape[1], 3), "trnsciMemcpy2D")


def cholesky(a):
    """L with a = L L^H, lower triangular (numpy.linalg.cholesky)."""
    f = _fcopy(a, "cholesky")
    n = f.shape[0]
    if f.shape != (n, n):
        raise ValueError(f"cholesky: a square matrix is needed, got {f.shape}")
    p = _prefix(f)
    lw = _lwork(f"trnsolverDn{p}potrf_bufferSize", "iipi", _LOWER, n, f.ptr, max(n, 1))
    work = empty(max(lw, 1), f.dtype)
    info = empty(1, np.int32)
    _solver(f"trnsolverDn{p}potrf", "iipipip", _LOWER, n, f.ptr, max(n, 1), work.ptr, lw, info.ptr)
    _sync()
    if _info(info, "potrf") > 0:
        raise LinAlgError("cholesky: the matrix is not positive definite")
    return _trmm_tri(f, n, n, _LOWER)


def solve(a, b):
    """x with a x = b (numpy.linalg.solve; b is n or n×k), LU with partial pivoting."""
    f = _fcopy(a, "solve")
    n = f.shape[0]
    if f.shape != (n, n):
        raise ValueError(f"solve: a must be square, got {f.shape}")
    b = asarray(b)
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError(f"solve: b of shape {b.shape} does not match a of shape {f.shape}")
    p = _prefix(f, b)
    x = b.reshape(n, 1).copy("F") if b.ndim == 1 else b.copy("F")
    nrhs = x.shape[1]
    lw = _lwork(f"trnsolverDn{p}getrf_bufferSize", "iipi", n, n, f.ptr, max(n, 1))
    work = empty(max(lw, 1), f.dtype)
    ipiv, info = empty(max(n, 1), np.int32), empty(1, np.int32)
    _solver(f"trnsolverDn{p}getrf", "iipippp", n, n, f.ptr, max(n, 1), work.ptr, ipiv.ptr, info.ptr)
    _sync()
    if _info(info, "getrf") > 0:
        raise LinAlgError("solve: singular matrix")
    _solver(f"trnsolverDn{p}getrs", "iiipippip", _N, n, nrhs, f.ptr, max(n, 1), ipiv.ptr,
            x.ptr, max(n, 1), info.ptr)
    _sync()
    return x.reshape(n) if b.ndim == 1 else x


def eigh(a, UPLO="L"):
    """(w, v) of a Hermitian matrix, eigenvalues ascending (numpy.linalg.eigh; syevd/heevd)."""
    f = _fcopy(a, "eigh")
    n = f.shape[0]
    if f.shape != (n, n):
        raise ValueError(f"eigh: a must be square, got {f.shape}")
    p = _prefix(f)
    uplo = _LOWER if UPLO == "L" else _UPPER
    name = "syevd" if p in "SD" else "heevd"
    w = empty(n, _REAL[p])
    lw = _lwork(f"trnsolverDn{p}{name}_bufferSize", "iiipip", 1, uplo, n, f.ptr, max(n, 1), w.ptr)
    work = empty(max(lw, 1), f.dtype)
    info = empty(1, np.int32)
    _solver(f"trnsolverDn{p}{name}", "iiipippip", 1, uplo, n, f.ptr, max(n, 1), w.ptr,
            work.ptr, lw, info.ptr)
    _sync()
    if _info(info, name) > 0:
        raise LinAlgError("eigh: the eigenvalue iteration did not converge")
    return w, f


def _adjoint(f):
    """fᴴ of an F-order matrix as a new F-order array (trnblas geam with both
    operands OP_C and beta 0: C = 1·fᴴ + 0·fᴴ)."""
    p = _prefix(f)
    m, n = f.shape
    out = empty((n, m), f.dtype, "F")
    if f.size:
        one, zero = _scalar(p, 1), _scalar(p, 0)
        ld = max(f.strides[1] // f.itemsize if n > 1 else m, 1)
        fn = L.fn(f"trnblas{p}geam", _i, _v, _i, _i, _i, _i, _v, _v, _i, _v, _v, _i, _v, _i)
        _errors.check(fn(_handles.blas(), 2, 2, n, m, L.byref(one), f.ptr, ld, L.byref(zero),
                         f.ptr, ld, out.ptr, max(n, 1)), f"trnblas{p}geam", "blas")
        _sync()
    return out


def svd(a, full_matrices=True, compute_uv=True):
    """u, s, vh with a = u diag(s) vh, s descending (numpy.linalg.svd; gesvd)."""
    f = _fcopy(a, "svd")
    m, n = f.shape
    if m < n:  # gesvd takes m >= n: factor aᴴ = v s uᴴ (adjoints by geam, on the device)
        r = svd(_adjoint(f), full_matrices, compute_uv)
        if not compute_uv:
            return r
        u, s, vh = r
        return _adjoint(vh), s, _adjoint(u)
    p = _prefix(f)
    k = min(m, n)
    job = (b"A" if full_matrices else b"S") if compute_uv else b"N"
    ucols = m if full_matrices else k
    s = empty(k, _REAL[p])
    u = empty((m, ucols) if compute_uv else (1, 1), f.dtype, "F")
    vt = empty((n, n) if compute_uv else (1, 1), f.dtype, "F")
    lw = _lwork(f"trnsolverDn{p}gesvd_bufferSize", "ii", m, n)
    work = empty(max(lw, 1), f.dtype)
    info = empty(1, np.int32)
    _solver(f"trnsolverDn{p}gesvd", "bbiipippipipipp", job[0], job[0], m, n, f.ptr,
            max(m, 1), s.ptr, u.ptr, max(u.shape[0], 1), vt.ptr, max(vt.shape[0], 1), work.ptr,
            lw, None, info.ptr)
    _sync()
    if _info(info, "gesvd") > 0:
        raise LinAlgError("svd: did not converge")
    return (u, s, vt) if compute_uv else s


def qr(a, mode="reduced"):
    """q, r with a = q r (numpy.linalg.qr, modes "reduced", "complete", "r"; geqrf + orgqr)."""
    f = _fcopy(a, "qr")
    m, n = f.shape
    p = _prefix(f)
    k = min(m, n)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode {mode!r} is not one of 'reduced', 'complete', 'r'")
    tau = empty(max(k, 1), f.dtype)
    info = empty(1, np.int32)
    lw = _lwork(f"trnsolverDn{p}geqrf_bufferSize", "iipi", m, n, f.ptr, max(m, 1))
    work = empty(max(lw, 1), f.dtype)
    _solver(f"trnsolverDn{p}geqrf", "iipippip", m, n, f.ptr, max(m, 1), tau.ptr, work.ptr, lw,
            info.ptr)
    _sync()
    rrows = m if mode == "complete" else k
    r = _trmm_tri(f, k, n, _UPPER)
    if rrows > k:
        full = empty((rrows, n), f.dtype, "F")
        _copy_columns(full[:k, :], r)
        r = full
    if mode == "r":
        return r
    qcols = m if mode == "complete" else k
    q = empty((m, qcols), f.dtype, "F")
    _copy_columns(q[:, :k], f[:, :k])
    org = "orgqr" if p in "SD" else "ungqr"
    lw = _lwork(f"trnsolverDn{p}{org}_bufferSize", "iiipip", m, qcols, k, q.ptr, max(m, 1), tau.ptr)
    work = empty(max(lw, 1), f.dtype)
    _solver(f"trnsolverDn{p}{org}", "iiipippip", m, qcols, k, q.ptr, max(m, 1), tau.ptr,
            work.ptr, lw, info.ptr)
    _sync()
    return q, r


def lstsq(a, b):
    """x minimising ||a x - b||_2 for a full-rank m×n a with m >= n (the
    first element of numpy.linalg.lstsq's result; trnsolver [X][X]gels)."""
    f = _fcopy(a, "lstsq")
    m, n = f.shape
    if m < n:
        raise ValueError("lstsq: m >= n is needed (as cuSOLVER's gels)")
    b = asarray(b)
    if b.ndim not in (1, 2) or b.shape[0] != m:
        raise ValueError(f"lstsq: b of shape {b.shape} does not match a of shape {f.shape}")
    p = _prefix(f, b)
    bb = b.reshape(m, 1).copy("F") if b.ndim == 1 else b.copy("F")
    nrhs = bb.shape[1]
    x = empty((n, nrhs), f.dtype, "F")
    name = f"trnsolverDn{p}{p}gels"
    sz = ctypes.c_size_t(0)
    fb = L.fn(name + "_bufferSize", _i, _v, _i, _i, _i, _v, _i, _v, _i, _v, _i, _v,
              L.P(L.c_size_t))
    _errors.check(fb(_handles.solver(), m, n, nrhs, f.ptr, max(m, 1), bb.ptr, max(m, 1), x.ptr,
                     max(n, 1), None, L.byref(sz)), name + "_bufferSize", "solver")
    work = empty(max(sz.value, 1), np.uint8)
    it, info = ctypes.c_int(0), empty(1, np.int32)
    fg = L.fn(name, _i, _v, _i, _i, _i, _v, _i, _v, _i, _v, _i, _v, L.c_size_t, L.P(_i), _v)
    _errors.check(fg(_handles.solver(), m, n, nrhs, f.ptr, max(m, 1), bb.ptr, max(m, 1), x.ptr,
                     max(n, 1), work.ptr, sz.value, L.byref(it), info.ptr), name, "solver")
    _sync()
    if _info(info, "gels") > 0:
        raise LinAlgError("lstsq: the matrix does not have full rank")
    return x.reshape(n) if b.ndim == 1 else x
