"""trnsci.sparse and trnsci.sparse.linalg against SciPy references.

Tolerances (u = unit roundoff: 2^-24 float32/complex64, 2^-53
float64/complex128; the factor 8 covers complex arithmetic and the
constants of the textbook bounds):
  - conversions from and to scipy.sparse move bits: exact equality;
  - SpMV/SpMM/SpGEMM: each output entry is an inner product of at most k
    terms (k the most stored entries in a row of A), so
    |y - A x| <= 8 k u (|A| |x|) elementwise (Higham, Thm 3.5);
  - Krylov solvers stop when ||b - A x||_2 <= rtol ||b||_2 with the
    residual recomputed by the daemon; recomputing it here in float64 adds
    at most 8 n u_64 ||A||_2 ||x||_2 (the SpMV bound above, summed), so we
    assert ||b - A x|| <= rtol ||b|| + 8 n u ||A|| ||x|| with u the
    solver's unit roundoff (the daemon's residual is formed in it).
"""
import numpy as np
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spsl

import trnsci
from trnsci import sparse
from trnsci.sparse import linalg as spla

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def u_of(dtype):
    return np.finfo(dtype).eps / 2


def rand_sparse(m, n, density, dtype, seed, fmt="csr"):
    rng = np.random.default_rng(seed)
    s = sps.random(m, n, density=density, format="coo", random_state=rng, dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        s = s + 1j * sps.random(m, n, density=density, format="coo", random_state=rng)
    return s.astype(dtype).asformat(fmt)


def rand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def product_bound(S, x, dtype):
    k = max(int(np.diff(S.tocsr().indptr).max(initial=0)), 1)
    return 8 * k * u_of(dtype) * (abs(S).astype(np.float64) @ np.abs(x)) + 1e-300


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["csr", "coo", "bsr"])
def test_roundtrip(fmt, dtype):
    S = rand_sparse(12, 8, 0.3, dtype, 1, "csr")
    if fmt == "bsr":
        S = S.tobsr(blocksize=(3, 2))
    else:
        S = S.asformat(fmt)
    A = getattr(sparse, fmt + "_matrix")(S)
    assert A.shape == S.shape and A.dtype == dtype and A.format == fmt
    B = A.get()
    assert B.format == fmt and B.dtype == dtype
    assert (B != S).nnz == 0
    assert np.array_equal(A.toarray(), S.toarray())


def test_from_arrays_and_dense():
    D = np.array([[0, 2.0, 0], [1, 0, 3]])
    A = sparse.csr_matrix(D)
    assert np.array_equal(A.toarray(), D)
    C = sparse.csr_matrix((trnsci.asarray([2.0, 1, 3]), np.array([1, 0, 2]), [0, 1, 3]),
                          shape=(2, 3))
    assert np.array_equal(C.toarray(), D)
    O = sparse.coo_matrix(([2.0, 1, 3], ([0, 1, 1], [1, 0, 2])), shape=(2, 3))
    assert np.array_equal(O.toarray(), D)
    assert sparse.issparse(A) and not sparse.issparse(D)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["csr", "coo", "bsr"])
def test_spmv_spmm(fmt, dtype):
    S = rand_sparse(60, 40, 0.1, dtype, 2)
    S = S.tobsr(blocksize=(4, 4)) if fmt == "bsr" else S.asformat(fmt)
    A = getattr(sparse, fmt + "_matrix")(S)
    x = rand(40, dtype, 3)
    ref = S.astype(np.complex128) @ x.astype(np.complex128)
    for y in (A @ x, A @ trnsci.asarray(x), A.dot(x)):
        assert y.shape == (60,) and y.dtype == dtype
        assert np.all(np.abs(y.get() - ref) <= product_bound(S, x, dtype))
    X = rand((40, 5), dtype, 4)
    ref = S.astype(np.complex128) @ X.astype(np.complex128)
    for b in (X, np.asfortranarray(X), trnsci.asarray(X)[:, ::1], trnsci.asarray(X).T.T):
        Y = A @ b
        assert Y.shape == (60, 5) and Y.dtype == dtype
        assert np.all(np.abs(Y.get() - ref) <= product_bound(S, X, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_spgemm(dtype):
    S1 = rand_sparse(30, 45, 0.15, dtype, 5)
    S2 = rand_sparse(45, 20, 0.15, dtype, 6)
    C = sparse.csr_matrix(S1) @ sparse.csr_matrix(S2)
    assert isinstance(C, sparse.csr_matrix) and C.shape == (30, 20) and C.dtype == dtype
    ref = (S1.astype(np.complex128) @ S2.astype(np.complex128)).toarray()
    bound = 8 * 45 * u_of(dtype) * (abs(S1).astype(np.float64) @ abs(S2)).toarray() + 1e-300
    assert np.all(np.abs(C.toarray() - ref) <= bound)
    # C's column indices come out sorted, and scipy operands are taken too
    assert C.get().has_sorted_indices
    assert np.all(np.abs((sparse.csr_matrix(S1) @ S2).toarray() - ref) <= bound)


def test_unsorted_and_duplicate_entries():
    # row 0 holds column 2 twice and out of order: the entries add up, as in scipy
    A = sparse.csr_matrix(([1.0, 2.0, 3.0, 4.0], [2, 0, 2, 1], [0, 3, 4]), shape=(2, 3))
    x = np.array([1.0, 10.0, 100.0])
    assert np.array_equal((A @ x).get(), A.get() @ x)  # small integers: exact
    C = A @ sparse.csr_matrix(sps.eye(3, format="csr"))
    assert np.array_equal(C.toarray(), [[2.0, 0, 4], [0, 4, 0]])


def test_empty_and_degenerate():
    Z = sparse.csr_matrix(sps.csr_matrix((5, 4)))
    assert np.array_equal((Z @ np.ones(4)).get(), np.zeros(5))
    assert (Z @ sparse.csr_matrix(sps.eye(4, format="csr"))).nnz == 0
    E = sparse.csr_matrix(sps.csr_matrix((0, 3)))
    assert (E @ np.ones(3)).shape == (0,)


def test_bad_input_is_a_clear_exception():
    A = sparse.csr_matrix(sps.eye(4, format="csr"))
    with pytest.raises(ValueError, match="shape mismatch"):
        A @ np.ones(5)
    with pytest.raises(ValueError, match="1-d or 2-d"):
        A @ np.ones((4, 1, 1))
    with pytest.raises(TypeError, match="float32, float64"):
        sparse.csr_matrix(sps.eye(3, dtype=np.float16, format="csr"))
    with pytest.raises(ValueError, match="do not fit"):
        sparse.csr_matrix(([1.0], [0], [0, 1]), shape=(3, 3))
    with pytest.raises(ValueError, match="needs shape"):
        sparse.csr_matrix(([1.0], [0], [0, 1]))
    with pytest.raises(TypeError, match="dense @ sparse"):
        np.ones(4) @ A
    # Index contents are checked by the daemon when the op runs: a column
    # index past the matrix and decreasing offsets fail that call only.
    bad_col = sparse.csr_matrix(([1.0, 2.0], [0, 7], [0, 1, 2]), shape=(2, 3))
    with pytest.raises(trnsci.TrnsciError) as e:
        bad_col @ np.ones(3)
    assert e.value.status != 0 and e.value.message
    bad_ptr = sparse.csr_matrix(([1.0, 2.0], [0, 1], [0, 2, 1]), shape=(2, 3))
    with pytest.raises(trnsci.TrnsciError):
        bad_ptr @ np.ones((3, 2))
    with pytest.raises(trnsci.TrnsciError):
        bad_col @ sparse.csr_matrix(sps.eye(3, format="csr"))
    # the daemon and the session carry on
    assert np.array_equal((A @ np.arange(4.0)).get(), np.arange(4.0))


def poisson2d(k, dtype):
    """The 5-point Laplacian on a k x k grid (SPD, condition ~ 0.4 k^2)."""
    t = sps.diags([-1, 2, -1], [-1, 0, 1], shape=(k, k))
    return (sps.kron(sps.eye(k), t) + sps.kron(t, sps.eye(k))).astype(dtype).tocsr()


def convection(n, dtype):
    """A non-symmetric, diagonally dominant tridiagonal matrix."""
    return sps.diags([-1.4, 3.0, -0.6], [-1, 0, 1], shape=(n, n)).astype(dtype).tocsr()


def residual_ok(S, x, b, rtol, dtype):
    Sd = S.astype(np.float64)
    r = np.linalg.norm(b - Sd @ x)
    norm_a = max(spsl.norm(Sd, 1), spsl.norm(Sd, np.inf))  # >= ||A||_2
    n = S.shape[0]
    return r <= rtol * np.linalg.norm(b) + 8 * n * u_of(dtype) * norm_a * np.linalg.norm(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("method", ["cg", "gmres", "bicgstab"])
@pytest.mark.parametrize("M", [None, "jacobi", "block_jacobi", "ssor"])
def test_krylov(method, M, dtype):
    S = poisson2d(12, dtype) if method == "cg" else convection(150, dtype)
    n = S.shape[0]
    b = rand(n, dtype, 7)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    solve = getattr(spla, method)
    for A in (sparse.csr_matrix(S), S, S.toarray(), sparse.bsr_matrix(S.tobsr(blocksize=(3, 3)))
              if n % 3 == 0 else sparse.coo_matrix(S)):
        x, info = solve(A, b, rtol=rtol, M=M, block_size=4, omega=1.2 if M == "ssor" else 0)
        assert info == 0
        assert x.shape == (n,) and x.dtype == dtype
        assert residual_ok(S, x.get().astype(np.float64), b.astype(np.float64), rtol, dtype)
    # against SciPy's solution (both satisfy the residual bound; the error
    # is at most kappa times the relative residual)
    ref = spsl.spsolve(S.astype(np.float64).tocsc(), b.astype(np.float64))
    kappa = np.linalg.cond(S.toarray().astype(np.float64))
    err = np.linalg.norm(x.get() - ref) / np.linalg.norm(ref)
    assert err <= 2 * kappa * (rtol + 8 * n * u_of(dtype))


def test_krylov_x0_maxiter_and_info():
    S = poisson2d(10, np.float64)
    b = np.ones(100)
    x, info = spla.cg(sparse.csr_matrix(S), b, maxiter=2, rtol=1e-14)
    assert info > 0  # the tolerance was not reached: info is the iteration count
    x2, info2 = spla.cg(S, b, x0=x, rtol=1e-10)
    assert info2 == 0
    ref = spsl.spsolve(S.tocsc(), b)
    assert np.allclose(x2.get(), ref, rtol=0, atol=1e-6)
    x3, info3 = spla.gmres(convection(60, np.float64), np.ones(60), restart=5, rtol=1e-10)
    assert info3 == 0


def test_krylov_bad_input():
    S = poisson2d(4, np.float64)
    with pytest.raises(TypeError, match="float32 or float64"):
        spla.cg(S, np.ones(16, np.complex128))
    with pytest.raises(ValueError, match="does not match"):
        spla.cg(S, np.ones(15))
    with pytest.raises(ValueError, match="square"):
        spla.cg(np.ones((3, 4)), np.ones(3))
    with pytest.raises(ValueError, match="M must be"):
        spla.cg(S, np.ones(16), M="ilu")
    with pytest.raises(TypeError, match="convert one"):
        spla.cg(S.astype(np.float32), np.ones(16))
    with pytest.raises(ValueError, match="rtol"):
        spla.cg(S, np.ones(16), rtol=np.nan)
    with pytest.raises(trnsci.TrnsciError):
        spla.cg(S, np.ones(16), maxiter=-1)
    bad = sparse.csr_matrix(([1.0, 1.0], [0, 9], [0, 1, 2]), shape=(2, 2))
    with pytest.raises(trnsci.TrnsciError):
        spla.bicgstab(bad, np.ones(2))
    x, info = spla.cg(S, np.ones(16), rtol=1e-10)  # the session carries on
    assert info == 0
