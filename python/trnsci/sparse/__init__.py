"""trnsci.sparse — scipy.sparse-level sparse matrices over trnsparse.

Role: `csr_matrix`, `coo_matrix` and `bsr_matrix` hold their index and
value arrays in the daemon's memory (trnsci ndarrays) with scipy.sparse's
layout; `A @ x` is trnsparseSpMV (x 1-d) or trnsparseSpMM (x 2-d), and
`A @ B` of two CSR matrices is trnsparseSpGEMM. `trnsci.sparse.linalg`
has the Krylov solvers. Each call makes the generic API's descriptors
(host objects, no round trip), calls the routine and frees them.
Invariants: index arrays are int32 (int64 when a count passes 2^31 - 1),
base 0, in scipy's order; values float32, float64, complex64 or
complex128; a matrix is never modified by an operation. The contents of
index arrays are checked by the daemon when an op runs: bad ones raise
TrnsciError at the call (outside a Stream context), never hurt the daemon.
"""
import ctypes

import numpy as np

from .. import _fam
from .. import _lib as L
from .._array import asarray, empty, ndarray

__all__ = ["csr_matrix", "coo_matrix", "bsr_matrix", "issparse", "spmatrix"]

_v, _i, _i64 = L.c_void_p, L.c_int, ctypes.c_int64
_DATATYPE = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
             np.dtype(np.complex64): 4, np.dtype(np.complex128): 5}
_CTYPE = {0: ctypes.c_float, 1: ctypes.c_double, 4: ctypes.c_float * 2, 5: ctypes.c_double * 2}
_INDEX = {np.dtype(np.int32): 2, np.dtype(np.int64): 3}  # trnsparseIndexType_t
_ORDER_COL, _ORDER_ROW = 1, 2


def _fn(name, *argtypes):
    return L.fn(name, _i, *argtypes)


def _call(name, argtypes, *args):
    _fam.check(_fn(name, *argtypes)(*args), name, "sparse")


def scalar(dt, x):
    """x as a host scalar of trnsciDataType_t dt (for alpha, beta)."""
    if dt in (4, 5):
        return _CTYPE[dt](complex(x).real, complex(x).imag)
    return _CTYPE[dt](x)


def _value_dtype(dt):
    dt = np.dtype(dt)
    if dt not in _DATATYPE:
        if dt.kind in "biu":
            return np.dtype(np.float64)
        raise TypeError(f"trnsci.sparse takes float32, float64, complex64 or complex128 "
                        f"values, not {dt}")
    return dt


def _dtype_of(x):
    return x.dtype if isinstance(x, (ndarray, np.ndarray)) else np.asarray(x).dtype


def _index_dtype(*counts):
    return np.dtype(np.int64 if max(counts, default=0) > 2**31 - 1 else np.int32)


def _dev(x, dtype):
    """x as a contiguous device array of dtype (a copy unless it is one already)."""
    x = asarray(x, dtype=dtype)
    return x if x.c_contiguous else x.copy("C")


class spmatrix:
    """Base of the sparse matrix classes: shape, dtype, nnz, `@`, get()."""
    format = None
    __array_priority__ = 200  # numpy @ trnsci.sparse → __rmatmul__ refuses clearly

    @property
    def ndim(self):
        return 2

    @property
    def nnz(self):
        return int(self.data.size if self.format != "bsr" else self.data.shape[0] *
                   self.data.shape[1] * self.data.shape[2])

    def __repr__(self):
        return (f"<trnsci.sparse.{self.format}_matrix shape={self.shape} dtype={self.dtype} "
                f"nnz={self.nnz}>")

    def toarray(self):
        """A NumPy dense copy."""
        return self.get().toarray()

    def tocsr(self):
        return self if self.format == "csr" else csr_matrix(self.get().tocsr())

    def __matmul__(self, other):
        if issparse(other):
            return self.tocsr()._spgemm(other.tocsr())
        try:
            import scipy.sparse as sps
            if sps.issparse(other):
                return self.tocsr()._spgemm(csr_matrix(other))
        except ImportError:
            pass
        x = asarray(other)
        if x.ndim == 1:
            return self._spmv(x)
        if x.ndim == 2:
            return self._spmm(x)
        raise ValueError(f"a sparse matrix multiplies 1-d or 2-d operands, not {x.ndim}-d")

    def __rmatmul__(self, other):
        raise TypeError("dense @ sparse is not provided: use (A.T @ x.T).T with A in CSR")

    def dot(self, other):
        return self @ other

    # ---- the descriptor -----------------------------------------------------
    def _descr(self):
        """A new trnsparseSpMatDescr_t naming this matrix's arrays (caller frees it)."""
        d = ctypes.c_void_p()
        dt, it = _DATATYPE[self.dtype], _INDEX[self.indices.dtype]
        m, n = self.shape
        if self.format == "csr":
            _call("trnsparseCreateCsr", [L.P(_v), _i64, _i64, _i64, _v, _v, _v, _i, _i, _i, _i],
                  L.byref(d), m, n, self.nnz, self.indptr.ptr, self.indices.ptr, self.data.ptr,
                  it, it, 0, dt)
        elif self.format == "coo":
            _call("trnsparseCreateCoo", [L.P(_v), _i64, _i64, _i64, _v, _v, _v, _i, _i, _i],
                  L.byref(d), m, n, self.nnz, self.row.ptr, self.col.ptr, self.data.ptr, it, 0,
                  dt)
        else:
            rb, cb = self.blocksize
            _call("trnsparseCreateBsr", [L.P(_v), _i64, _i64, _i64, _i64, _i64, _v, _v, _v, _i, _i,
                                         _i, _i, _i],
                  L.byref(d), m // rb, n // cb, self.indices.size, rb, cb, self.indptr.ptr,
                  self.indices.ptr, self.data.ptr, it, it, 0, dt, _ORDER_ROW)
        return d

    def _check_operand(self, x, k):
        if x.shape[0] != k:
            raise ValueError(f"shape mismatch: {self.shape} @ {x.shape}")

    # ---- SpMV, SpMM -----------------------------------------------------------
    def _spmv(self, x, op=0):
        m, n = self.shape if op == 0 else self.shape[::-1]
        self._check_operand(x, n)
        x = _dev(x, self.dtype)
        y = empty(m, self.dtype)
        if m == 0:
            return y
        dt = _DATATYPE[self.dtype]
        a, vx, vy = self._descr(), ctypes.c_void_p(), ctypes.c_void_p()
        try:
            _call("trnsparseCreateDnVec", [L.P(_v), _i64, _v, _i], L.byref(vx), n, x.ptr, dt)
            _call("trnsparseCreateDnVec", [L.P(_v), _i64, _v, _i], L.byref(vy), m, y.ptr, dt)
            _call("trnsparseSpMV", [_v, _i, _v, _v, _v, _v, _v, _i, _i, _v],
                  _fam.sparse_handle(), op, L.byref(scalar(dt, 1)), a, vx,
                  L.byref(scalar(dt, 0)), vy, dt, 0, None)
        finally:
            _destroy(a, vx, vy)
        _fam.keep(self, x, y)
        _fam.finish()
        return y

    def _spmm(self, b, op=0):
        m, n = self.shape if op == 0 else self.shape[::-1]
        self._check_operand(b, n)
        b = asarray(b, dtype=self.dtype)
        if not (b.c_contiguous or b.f_contiguous):
            b = b.copy("C")
        k = b.shape[1]
        c = empty((m, k), self.dtype)
        if m == 0 or k == 0:
            return c
        dt = _DATATYPE[self.dtype]
        border, ldb = (_ORDER_ROW, max(k, 1)) if b.c_contiguous else (_ORDER_COL, max(n, 1))
        a, mb, mc = self._descr(), ctypes.c_void_p(), ctypes.c_void_p()
        try:
            mk = [L.P(_v), _i64, _i64, _i64, _v, _i, _i]
            _call("trnsparseCreateDnMat", mk, L.byref(mb), n, k, ldb, b.ptr, dt, border)
            _call("trnsparseCreateDnMat", mk, L.byref(mc), m, k, max(k, 1), c.ptr, dt,
                  _ORDER_ROW)
            _call("trnsparseSpMM", [_v, _i, _i, _v, _v, _v, _v, _v, _i, _i, _v],
                  _fam.sparse_handle(), op, 0, L.byref(scalar(dt, 1)), a, mb,
                  L.byref(scalar(dt, 0)), mc, dt, 0, None)
        finally:
            _destroy(a, dnmats=(mb, mc))
        _fam.keep(self, b, c)
        _fam.finish()
        return c


def _destroy(*spmat_and_vecs, dnmats=()):
    if spmat_and_vecs:
        _fn("trnsparseDestroySpMat", _v)(spmat_and_vecs[0])
        for v in spmat_and_vecs[1:]:
            _fn("trnsparseDestroyDnVec", _v)(v)
    for d in dnmats:
        _fn("trnsparseDestroyDnMat", _v)(d)


def issparse(x):
    """True for a trnsci.sparse matrix."""
    return isinstance(x, spmatrix)


def _from_scipy(s, fmt):
    import scipy.sparse as sps
    if not sps.issparse(s):
        s = sps.coo_matrix(np.asarray(s))
    return getattr(s, "to" + fmt)()


class csr_matrix(spmatrix):
    """A CSR matrix in the daemon's memory (scipy.sparse.csr_matrix's layout).

    csr_matrix(S): from any scipy.sparse matrix or dense array-like;
    csr_matrix((data, indices, indptr), shape=(m, n)): from the arrays
    (NumPy or trnsci; copied to the device unless already there).
    Entries are kept as given: duplicates add up, unsorted columns are fine.
    """
    format = "csr"

    def __init__(self, arg, shape=None, dtype=None):
        if isinstance(arg, tuple) and len(arg) == 3:
            data, indices, indptr = arg
            if shape is None:
                raise ValueError("csr_matrix((data, indices, indptr)) needs shape=")
        else:
            s = _from_scipy(arg, "csr")
            data, indices, indptr, shape = s.data, s.indices, s.indptr, s.shape
        m, n = (int(v) for v in shape)
        if m < 0 or n < 0:
            raise ValueError(f"negative dimension in shape {shape}")
        vdt = _value_dtype(dtype if dtype is not None else _dtype_of(data))
        idt = _index_dtype(m, n, np.size(data))
        self.shape, self.dtype = (m, n), vdt
        self.data = _dev(data, vdt).reshape(-1)
        self.indices = _dev(indices, idt).reshape(-1)
        self.indptr = _dev(indptr, idt).reshape(-1)
        if self.indptr.size != m + 1 or self.indices.size != self.data.size:
            raise ValueError(f"csr arrays do not fit shape {shape}: indptr has "
                             f"{self.indptr.size} entries (want {m + 1}), indices "
                             f"{self.indices.size} and data {self.data.size}")

    def get(self):
        """A scipy.sparse.csr_matrix copy."""
        import scipy.sparse as sps
        return sps.csr_matrix((self.data.get(), self.indices.get(), self.indptr.get()),
                              shape=self.shape)

    def _spgemm(self, other):
        """self @ other for two CSR matrices (trnsparseSpGEMM: compute, then copy)."""
        if self.shape[1] != other.shape[0]:
            raise ValueError(f"shape mismatch: {self.shape} @ {other.shape}")
        if _fam.capturing():
            raise RuntimeError("sparse @ sparse sizes its result from the daemon's count and "
                               "cannot be captured into a graph")
        if other.dtype != self.dtype:
            dt = np.result_type(self.dtype, other.dtype)
            return csr_matrix(self.get().astype(dt))._spgemm(csr_matrix(other.get().astype(dt)))
        if other.indices.dtype != self.indices.dtype:
            other = csr_matrix((other.data, other.indices.get().astype(self.indices.dtype),
                                other.indptr.get().astype(self.indices.dtype)),
                               shape=other.shape)
        m, n = self.shape[0], other.shape[1]
        dt, it = _DATATYPE[self.dtype], _INDEX[self.indices.dtype]
        if m == 0 or n == 0 or self.nnz == 0 or other.nnz == 0:
            import scipy.sparse as sps
            return csr_matrix(sps.csr_matrix((m, n), dtype=self.dtype))
        a, b, c = self._descr(), other._descr(), ctypes.c_void_p()
        sg = ctypes.c_void_p()
        h = _fam.sparse_handle()
        one, zero = L.byref(scalar(dt, 1)), L.byref(scalar(dt, 0))
        phase = [_v, _i, _i, _v, _v, _v, _v, _v, _i, _i, _v, L.P(L.c_size_t), _v]
        size = L.c_size_t(0)
        try:
            _call("trnsparseCreateCsr", [L.P(_v), _i64, _i64, _i64, _v, _v, _v, _i, _i, _i, _i],
                  L.byref(c), m, n, 0, None, None, None, it, it, 0, dt)
            _call("trnsparseSpGEMM_createDescr", [L.P(_v)], L.byref(sg))
            _call("trnsparseSpGEMM_workEstimation", phase, h, 0, 0, one, a, b, zero, c, dt, 0,
                  sg, L.byref(size), None)
            _call("trnsparseSpGEMM_compute", phase, h, 0, 0, one, a, b, zero, c, dt, 0, sg,
                  L.byref(size), None)
            work = empty(max(size.value, 1), np.uint8)
            _call("trnsparseSpGEMM_compute", phase, h, 0, 0, one, a, b, zero, c, dt, 0, sg,
                  L.byref(size), work.ptr)
            rows, cols, nnz = _i64(), _i64(), _i64()
            _call("trnsparseSpMatGetSize", [_v, L.P(_i64), L.P(_i64), L.P(_i64)], c,
                  L.byref(rows), L.byref(cols), L.byref(nnz))
            out = csr_matrix.__new__(csr_matrix)
            out.shape, out.dtype = (m, n), self.dtype
            out.indptr = empty(m + 1, self.indices.dtype)
            out.indices = empty(nnz.value, self.indices.dtype)
            out.data = empty(nnz.value, self.dtype)
            _call("trnsparseCsrSetPointers", [_v, _v, _v, _v], c, out.indptr.ptr,
                  out.indices.ptr, out.data.ptr)
            _call("trnsparseSpGEMM_copy", phase[:-2], h, 0, 0, one, a, b, zero, c, dt, 0, sg)
        finally:
            _fn("trnsparseSpGEMM_destroyDescr", _v)(sg)
            for d in (a, b, c):
                _fn("trnsparseDestroySpMat", _v)(d)
        _fam.finish()
        return out

    @property
    def T(self):
        """The transpose as a CSR matrix (CSC arrays of self reread as CSR, on the host)."""
        return csr_matrix(self.get().T.tocsr())


class coo_matrix(spmatrix):
    """A COO matrix in the daemon's memory (scipy.sparse.coo_matrix's layout):
    coo_matrix(S) or coo_matrix((data, (row, col)), shape=(m, n))."""
    format = "coo"

    def __init__(self, arg, shape=None, dtype=None):
        if isinstance(arg, tuple) and len(arg) == 2:
            data, (row, col) = arg
            if shape is None:
                raise ValueError("coo_matrix((data, (row, col))) needs shape=")
        else:
            s = _from_scipy(arg, "coo")
            data, row, col, shape = s.data, s.row, s.col, s.shape
        m, n = (int(v) for v in shape)
        vdt = _value_dtype(dtype if dtype is not None else _dtype_of(data))
        idt = _index_dtype(m, n, np.size(data))
        self.shape, self.dtype = (m, n), vdt
        self.data = _dev(data, vdt).reshape(-1)
        self.row = _dev(row, idt).reshape(-1)
        self.col = _dev(col, idt).reshape(-1)
        if not self.row.size == self.col.size == self.data.size:
            raise ValueError("coo arrays data, row and col must have one length")

    indices = property(lambda self: self.col)  # the index type's carrier

    def get(self):
        """A scipy.sparse.coo_matrix copy."""
        import scipy.sparse as sps
        return sps.coo_matrix((self.data.get(), (self.row.get(), self.col.get())),
                              shape=self.shape)


class bsr_matrix(spmatrix):
    """A BSR matrix in the daemon's memory (scipy.sparse.bsr_matrix's layout:
    data of shape (blocks, R, C), each block row-major): bsr_matrix(S,
    blocksize=(R, C)) or bsr_matrix((data, indices, indptr), shape=(m, n))."""
    format = "bsr"

    def __init__(self, arg, shape=None, dtype=None, blocksize=None):
        if isinstance(arg, tuple) and len(arg) == 3:
            data, indices, indptr = arg
            if shape is None:
                raise ValueError("bsr_matrix((data, indices, indptr)) needs shape=")
            data = np.asarray(data) if not isinstance(data, ndarray) else data
            if data.ndim != 3:
                raise ValueError("bsr data must have shape (blocks, R, C)")
            blocksize = data.shape[1:]
        else:
            import scipy.sparse as sps
            s = arg if sps.issparse(arg) else sps.coo_matrix(np.asarray(arg))
            s = s.tobsr(blocksize=blocksize)
            data, indices, indptr, shape = s.data, s.indices, s.indptr, s.shape
            blocksize = s.blocksize
        m, n = (int(v) for v in shape)
        rb, cb = (int(v) for v in blocksize)
        if rb < 1 or cb < 1 or m % rb or n % cb:
            raise ValueError(f"shape {shape} is not a whole number of {rb}x{cb} blocks")
        vdt = _value_dtype(dtype if dtype is not None else data.dtype)
        self.shape, self.dtype, self.blocksize = (m, n), vdt, (rb, cb)
        self.data = _dev(data, vdt)
        self.indices = _dev(indices, _index_dtype(m, n, self.data.size)).reshape(-1)
        self.indptr = _dev(indptr, self.indices.dtype).reshape(-1)
        if self.indptr.size != m // rb + 1 or self.indices.size != self.data.shape[0]:
            raise ValueError(f"bsr arrays do not fit shape {shape} in {rb}x{cb} blocks")

    def get(self):
        """A scipy.sparse.bsr_matrix copy."""
        import scipy.sparse as sps
        return sps.bsr_matrix((self.data.get(), self.indices.get(), self.indptr.get()),
                              shape=self.shape)


def __getattr__(name):
    if name == "linalg":
        import importlib
        return importlib.import_module(".linalg", __name__)
    raise AttributeError(f"module 'trnsci.sparse' has no attribute {name!r}")
