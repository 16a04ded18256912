"""trnsci.fft against scipy.fft (and numpy.fft) computed in float64/complex128.

Tolerance: an FFT of N points by a Cooley-Tukey-type algorithm has a
normwise error ||ŷ - y||_2 <= c log2(N) u ||y||_2 (Higham, §24.1); the test
takes c = 8 plus 8 u for the scaling and for inputs that are sums of
several transforms (fftn: log2 of the total size), u the unit roundoff of
the result's precision (scipy.fft keeps float32 in float32).
"""
import numpy as np
import pytest
import scipy.fft as sf

import trnsci
from trnsci import fft as F


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def close(got, ref, dtype, npoints):
    u = np.finfo(dtype).eps / 2
    got = got.get() if isinstance(got, trnsci.ndarray) else got
    assert got.shape == ref.shape
    bound = 8 * (np.log2(max(npoints, 2)) + 1) * u * np.linalg.norm(ref.ravel())
    assert np.linalg.norm((got.astype(np.complex128) - ref).ravel()) <= bound + 1e-300


CTYPES = [np.complex64, np.complex128]
NORMS = [None, "ortho", "forward"]


@pytest.mark.parametrize("dtype", CTYPES)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 5, 16, 23])
@pytest.mark.parametrize("axis", [-1, 0])
def test_fft_ifft(dtype, norm, n, axis):
    x = rand((12, 10), dtype)
    ref = sf.fft(x.astype(np.complex128), n=n, axis=axis, norm=norm)
    got = F.fft(trnsci.asarray(x), n=n, axis=axis, norm=norm)
    assert got.dtype == dtype
    close(got, ref, dtype, ref.shape[axis])
    close(F.ifft(x, n=n, axis=axis, norm=norm),
          sf.ifft(x.astype(np.complex128), n=n, axis=axis, norm=norm), dtype, ref.shape[axis])


@pytest.mark.parametrize("dtype", CTYPES)
@pytest.mark.parametrize("axes,s", [(None, None), ((0, 2), None), ((1, 2), (6, 9)),
                                    ((0, 1, 2), None), ((-1,), None)])
def test_fftn(dtype, axes, s):
    x = rand((4, 6, 8), dtype, 1)
    ref = sf.fftn(x.astype(np.complex128), s=s, axes=axes)
    close(F.fftn(x, s=s, axes=axes), ref, dtype, ref.size)
    close(F.ifftn(x, s=s, axes=axes), sf.ifftn(x.astype(np.complex128), s=s, axes=axes), dtype,
          ref.size)


def test_fft2_and_four_axes():
    x = rand((3, 4, 5, 6), np.complex128, 2)
    close(F.fft2(x), np.fft.fft2(x), np.complex128, 30)
    close(F.ifft2(x, axes=(0, 3)), np.fft.ifft2(x, axes=(0, 3)), np.complex128, 18)
    close(F.fftn(x), np.fft.fftn(x), np.complex128, x.size)  # two passes (3 axes + 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [None, 7, 12])
@pytest.mark.parametrize("norm", NORMS)
def test_rfft_irfft(dtype, n, norm):
    x = rand((5, 12), dtype, 3)
    ref = sf.rfft(x.astype(np.float64), n=n, norm=norm)
    got = F.rfft(x, n=n, norm=norm)
    assert got.dtype == (np.complex64 if dtype == np.float32 else np.complex128)
    close(got, ref, dtype, n or 12)
    back = F.irfft(got, n=n or 12, norm=norm)
    assert back.dtype == dtype
    close(back, sf.irfft(ref, n=n or 12, norm=norm), dtype, n or 12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axes", [None, (0, 1), (2, 0)])
def test_rfftn_irfftn(dtype, axes):
    x = rand((6, 5, 8), dtype, 4)
    ref = sf.rfftn(x.astype(np.float64), axes=axes)
    got = F.rfftn(x, axes=axes)
    close(got, ref, dtype, x.size)
    s = [x.shape[a] for a in (axes or range(3))]
    close(F.irfftn(got, s=s, axes=axes), x.astype(np.float64), dtype, x.size)
    close(F.rfft2(x), np.fft.rfft2(x.astype(np.float64)), dtype, 40)
    close(F.irfft2(F.rfft2(x)), x.astype(np.float64), dtype, 40)


def test_views_integers_and_numpy_precision():
    x = rand((9, 16), np.complex128, 5)
    a = trnsci.asarray(x)
    close(F.fft(a[::2, 1:]), np.fft.fft(x[::2, 1:]), np.complex128, 15)
    close(F.fft(a.T), np.fft.fft(x.T), np.complex128, 9)
    i = np.arange(10)
    got = F.fft(i)
    assert got.dtype == np.complex128  # integers go to double, as numpy and scipy
    close(got, np.fft.fft(i), np.complex128, 10)
    close(F.fft(np.float32([1, 2, 3, 4])), sf.fft(np.float64([1, 2, 3, 4])), np.float32, 4)


def test_plans_reused():
    x = rand(64, np.complex64, 6)
    F.fft(x)
    before = dict(F._plans)
    for _ in range(3):
        F.fft(x)
    assert dict(F._plans) == before


def test_bad_input():
    with pytest.raises(ValueError):
        F.fft(np.ones(4), norm="sideways")
    with pytest.raises(ValueError):
        F.fft(np.ones(4), n=0)
    with pytest.raises(TypeError):
        F.rfft(np.ones(4, np.complex64))
    with pytest.raises(ValueError):
        F.fftn(np.ones((2, 2)), axes=(0, 0))
    with pytest.raises(ValueError):
        F.fft(np.ones(4), axis=3)
    # The session carries on.
    close(F.fft(np.ones(4)), np.fft.fft(np.ones(4)), np.float64, 4)
