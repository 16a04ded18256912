"""trnsci.linalg against NumPy/SciPy (LAPACK in process) references.

Tolerances (u = unit roundoff of the dtype: 2^-24 float32/complex64,
2^-53 float64/complex128; a factor 8 covers complex arithmetic and the
constants of the textbook bounds):
  - products: |C - AB| <= 8 k u (|A||B|) elementwise (Higham, Thm 3.5);
    reduced-precision modes use their input rounding unit instead of u;
  - factorisations and solves: backward errors <= 8 n u ||A|| (normwise,
    Higham ch. 9, 10, 19); eigen- and singular values: |dλ| <= 8 n u ||A||_2
    (Weyl; the algorithms are backward stable);
  - orthogonality of Q: ||Q^H Q - I|| <= 8 m u.
Inputs are random with moderate condition numbers (diagonally shifted).
"""
import numpy as np
import pytest
import scipy.linalg

import trnsci
from trnsci import linalg as la

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def u_of(dtype):
    return np.finfo(dtype).eps / 2


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def spd(n, dtype, seed=0):
    m = rand((n, n), dtype, seed)
    return (m @ m.conj().T + n * np.eye(n)).astype(dtype)


def norm(x):
    return np.linalg.norm(x.astype(np.complex128), 2) if x.ndim == 2 else np.linalg.norm(x)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("orders", ["CC", "CF", "FC", "FF"])
@pytest.mark.parametrize("shape", [(1, 1, 1), (7, 5, 3), (33, 64, 17), (2, 130, 70)])
def test_matmul(dtype, orders, shape):
    m, k, n = shape
    A = np.require(rand((m, k), dtype, 1), requirements=[orders[0]])
    B = np.require(rand((k, n), dtype, 2), requirements=[orders[1]])
    a, b = trnsci.asarray(A), trnsci.asarray(B)
    ref = A.astype(np.complex128) @ B.astype(np.complex128)
    bound = 8 * k * u_of(dtype) * (np.abs(A).astype(np.float64) @ np.abs(B)) + 1e-300
    for c in (a @ b, la.matmul(a, b), la.matmul(A, B), A @ b):
        assert c.shape == (m, n) and c.dtype == dtype
        assert np.all(np.abs(c.get() - ref) <= bound)


def test_matmul_views_and_vectors():
    A, B = rand((9, 8), np.float64, 3), rand((8, 10), np.float64, 4)
    a, b = trnsci.asarray(A), trnsci.asarray(B)
    bound = lambda X, Y: 8 * X.shape[-1] * u_of(np.float64) * (np.abs(X) @ np.abs(Y)) + 1e-300
    for x, X in [(a[1:6, ::2], A[1:6, ::2]), (a[::-1, 1:5], A[::-1, 1:5]),
                 (a.T[:4, :8], A.T[:4, :8])]:
        Y = B[: X.shape[1], 2:7]
        assert np.all(np.abs((x @ b[: X.shape[1], 2:7]).get() - X @ Y) <= bound(X, Y))
    v = rand(8, np.float64, 5)
    assert np.allclose((a @ trnsci.asarray(v)).get(), A @ v, rtol=0, atol=1e-12)
    assert (trnsci.asarray(v) @ trnsci.asarray(v)).shape == ()
    assert np.isclose((trnsci.asarray(v) @ trnsci.asarray(v)).get(), v @ v, rtol=1e-14)
    out = trnsci.zeros((9, 10))
    assert la.matmul(a, b, out=out) is out
    assert np.allclose(out.get(), A @ B, rtol=0, atol=1e-12)


@pytest.mark.parametrize("precision,unit", [("default", 2.0**-24), ("pedantic", 2.0**-24),
                                            ("tf32", 2.0**-11), ("bf16", 2.0**-8),
                                            ("bf16x3", 2.0**-16), ("bf16x9", 2.0**-24),
                                            ("fp16", 2.0**-11)])
def test_gemm_precision_float32(precision, unit):
    A, B = rand((40, 50), np.float32, 6), rand((50, 30), np.float32, 7)
    C0 = rand((40, 30), np.float32, 8)
    c = trnsci.asarray(C0)
    r = la.gemm(A, B, c, alpha=2.0, beta=-0.5, precision=precision)
    assert r is c
    ref = 2.0 * A.astype(np.float64) @ B - 0.5 * C0
    # Inputs rounded to `unit` each (2 unit per product), FP32 sums (k u).
    bound = (2 * unit + 50 * 2.0**-24) * 2 * (np.abs(A) @ np.abs(B)) + 0.5 * np.abs(C0) * 2.0**-23
    assert np.all(np.abs(c.get() - ref) <= 8 * bound)


@pytest.mark.parametrize("precision", ["default", "pedantic", "emulated"])
def test_gemm_precision_float64(precision):
    A, B = rand((20, 35), np.float64, 9), rand((25, 35), np.float64, 10)
    c = la.gemm(A, B, transb=True, precision=precision)
    ref = A @ B.T
    assert np.all(np.abs(c.get() - ref) <= 8 * 35 * 2.0**-53 * (np.abs(A) @ np.abs(B.T)))
    c2 = la.gemm(np.ascontiguousarray(A.T), B, transa=True, transb=True)
    assert np.allclose(c2.get(), A @ B.T, rtol=0, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(dtype):
    n = 24
    S = spd(n, dtype, 11)
    L = la.cholesky(trnsci.asarray(S)).get()
    assert np.array_equal(L, np.tril(L))
    assert norm(L @ L.conj().T - S) <= 8 * n * u_of(dtype) * norm(S)
    ref = np.linalg.cholesky(S.astype(np.complex128))
    assert norm(L - ref) <= 8 * n * u_of(dtype) * norm(S) * 10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nrhs", [None, 3])
def test_solve(dtype, nrhs):
    n = 30
    A = rand((n, n), dtype, 12) + n * np.eye(n, dtype=dtype)
    b = rand((n,) if nrhs is None else (n, nrhs), dtype, 13)
    x = la.solve(A, trnsci.asarray(b)).get()
    assert x.shape == b.shape
    r = A.astype(np.complex128) @ x - b
    assert norm(r) <= 8 * n * u_of(dtype) * norm(A) * norm(x)
    assert np.allclose(x, scipy.linalg.solve(A, b), rtol=0, atol=100 * n * u_of(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(dtype):
    n = 20
    S = spd(n, dtype, 14)
    w, v = la.eigh(S)
    w, v = w.get(), v.get()
    assert w.dtype == np.finfo(dtype).dtype
    tol = 8 * n * u_of(dtype) * norm(S)
    assert np.all(np.abs(w - np.linalg.eigvalsh(S.astype(np.complex128))) <= tol)
    assert norm(S @ v - v * w) <= tol
    assert norm(v.conj().T @ v - np.eye(n)) <= 8 * n * u_of(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(12, 7), (7, 12), (9, 9)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(dtype, shape, full):
    A = rand(shape, dtype, 15)
    m, n = shape
    k = min(shape)
    u, s, vh = (x.get() for x in la.svd(A, full_matrices=full))
    ref_u, ref_s, ref_vh = np.linalg.svd(A.astype(np.complex128), full_matrices=full)
    assert u.shape == ref_u.shape and vh.shape == ref_vh.shape
    tol = 8 * max(shape) * u_of(dtype) * norm(A)
    assert np.all(np.abs(s - ref_s) <= tol)
    assert norm((u[:, :k] * s) @ vh[:k] - A) <= tol
    s_only = la.svd(A, compute_uv=False).get()
    assert np.all(np.abs(s_only - ref_s) <= tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(15, 6), (6, 6), (5, 9)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(dtype, shape, mode):
    A = rand(shape, dtype, 16)
    m, n = shape
    tol = 8 * m * n * u_of(dtype) * norm(A)
    if mode == "r":
        r = la.qr(A, mode="r").get()
        ref = np.linalg.qr(A.astype(np.complex128), mode="r")
        assert r.shape == ref.shape and np.array_equal(r, np.triu(r))
        assert norm(np.abs(r) - np.abs(ref)) <= 10 * tol  # equal up to the signs of rows
        return
    q, r = (x.get() for x in la.qr(A, mode=mode))
    ref_q, ref_r = np.linalg.qr(A, mode=mode)
    assert q.shape == ref_q.shape and r.shape == ref_r.shape
    assert np.array_equal(r, np.triu(r))
    assert norm(q @ r - A) <= tol
    assert norm(q.conj().T @ q - np.eye(q.shape[1])) <= 8 * m * u_of(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nrhs", [None, 2])
def test_lstsq(dtype, nrhs):
    m, n = 40, 12
    A = rand((m, n), dtype, 17)
    b = rand((m,) if nrhs is None else (m, nrhs), dtype, 18)
    x = la.lstsq(A, b).get()
    ref = np.linalg.lstsq(A.astype(np.complex128), b.astype(np.complex128), rcond=None)[0]
    kappa = np.linalg.cond(A.astype(np.complex128))
    # Forward error of a backward-stable least-squares solve: κ² u terms
    # for a non-zero residual (Higham, Thm 20.1), with the factor 8 n.
    assert norm(x - ref) <= 8 * n * u_of(dtype) * (kappa + kappa**2) * norm(ref)


def test_bad_input():
    a32, a64 = trnsci.zeros((3, 3), np.float32), trnsci.zeros((3, 3), np.float64)
    with pytest.raises(TypeError):
        a32 @ a64
    with pytest.raises(TypeError):
        la.matmul(trnsci.zeros((2, 2), np.int32), trnsci.zeros((2, 2), np.int32))
    with pytest.raises(ValueError):
        trnsci.zeros((3, 4)) @ trnsci.zeros((3, 4))
    with pytest.raises(ValueError):
        la.gemm(a32, a32, precision="fp8")
    with pytest.raises(ValueError):
        la.solve(trnsci.zeros((3, 4)), trnsci.zeros(3))
    with pytest.raises(np.linalg.LinAlgError):
        la.solve(np.zeros((3, 3)), np.ones(3))  # singular (LAPACK info > 0)
    with pytest.raises(np.linalg.LinAlgError):
        la.cholesky(-np.eye(4))
    with pytest.raises(ValueError):
        la.lstsq(np.ones((2, 5)), np.ones(2))
    # The session and the daemon carry on.
    assert np.array_equal((trnsci.asarray(np.eye(2)) @ trnsci.asarray(np.eye(2))).get(),
                          np.eye(2))
