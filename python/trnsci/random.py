"""trnsci.random — a NumPy-style Generator over trnrand's Philox4x32-10.

Role: `Generator` owns one trnrand device generator (PHILOX4_32_10) and
maps NumPy's method names onto trnrandGenerate* calls that fill a new
device array. The numbers are exactly those of the C API: a method call is
one trnrandGenerate* call on the generator (same seed, same offset, same
count), so Python and C programs reproduce each other bit for bit.
Invariants: the generator's offset (its position in the stream) lives in
libtrnsci and advances with each call as in C; the handle is destroyed with
the Generator, or by the session's end.
Deviations from NumPy (docs/python.md): `random` is uniform on (0, 1] (as
cuRAND), `poisson` returns uint32; normal and lognormal are made in
Box-Muller pairs, so an odd count generates one extra value that is dropped
(the C call is for the count rounded up to even).
"""
import ctypes
import os

import numpy as np

from . import _errors
from . import _lib as L
from . import _runtime
from ._array import empty

PHILOX4_32_10 = 161  # TRNRAND_RNG_PSEUDO_PHILOX4_32_10
_v, _sz, _f, _d = L.c_void_p, L.c_size_t, L.c_float, L.c_double


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    return tuple(int(s) for s in size)


class Generator:
    """Philox4x32-10 random numbers in device memory (numpy.random.Generator names)."""

    def __init__(self, seed=0, offset=0):
        _runtime.ensure()
        h = ctypes.c_void_p()
        self._h, self._gen = None, _runtime.generation()
        self._call("trnrandCreateGenerator", (L.P(_v), L.c_int), L.byref(h), PHILOX4_32_10)
        self._h = h
        self.seed = int(seed)
        self._call("trnrandSetPseudoRandomGeneratorSeed", (_v, L.c_ulonglong), h, self.seed)
        if offset:
            self._call("trnrandSetGeneratorOffset", (_v, L.c_ulonglong), h, int(offset))

    @staticmethod
    def _call(name, argtypes, *args):
        _errors.check(L.fn(name, L.c_int, *argtypes)(*args), name, "rand")

    def _handle(self):
        if self._gen != _runtime.generation():
            raise _errors.TrnsciError("rand", "trnsci.random", 101,
                                      "TRNRAND_STATUS_NOT_INITIALIZED",
                                      "the generator's session was closed")
        return self._h

    def __del__(self):
        try:
            if self._h is not None and self._gen == _runtime.generation():
                L.fn("trnrandDestroyGenerator", L.c_int, _v)(self._h)
        except Exception:  # interpreter shutdown: the session ends with the process
            pass

    def _fill(self, name, dtype, size, params=(), ptypes=(), pairs=False):
        shape = _shape(size)
        h = self._handle()
        n = int(np.prod(shape, dtype=np.int64))
        count = n + (n % 2) if pairs else n
        buf = empty((count,), dtype)
        if count:
            self._call(name, (_v, _v, _sz) + tuple(ptypes), h, buf.ptr, count, *params)
            _errors.check(L.fn("trnsciStreamSynchronize", L.c_int, _v)(None),
                          "trnsciStreamSynchronize")
        return (buf[:n] if count != n else buf).reshape(shape)

    @staticmethod
    def _real(dtype):
        dt = np.dtype(dtype)
        if dt not in (np.float32, np.float64):
            raise TypeError(f"dtype must be float32 or float64, not {dt}")
        return dt, ("" if dt == np.float32 else "Double")

    def random(self, size=None, dtype=np.float64):
        """Uniform on (0, 1] (trnrandGenerateUniform[Double])."""
        dt, sfx = self._real(dtype)
        return self._fill("trnrandGenerateUniform" + sfx, dt, size)

    def bits(self, size=None):
        """Raw 32-bit words of the stream (trnrandGenerate), uint32."""
        return self._fill("trnrandGenerate", np.uint32, size)

    def standard_normal(self, size=None, dtype=np.float64):
        return self.normal(0.0, 1.0, size, dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=np.float64):
        """Normal(loc, scale) (trnrandGenerateNormal[Double])."""
        dt, sfx = self._real(dtype)
        real = _f if dt == np.float32 else _d
        return self._fill("trnrandGenerateNormal" + sfx, dt, size, (loc, scale), (real, real),
                          pairs=True)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=np.float64):
        """exp(Normal(mean, sigma)) (trnrandGenerateLogNormal[Double])."""
        dt, sfx = self._real(dtype)
        real = _f if dt == np.float32 else _d
        return self._fill("trnrandGenerateLogNormal" + sfx, dt, size, (mean, sigma),
                          (real, real), pairs=True)

    def poisson(self, lam=1.0, size=None):
        """Poisson(lam) as uint32 (trnrandGeneratePoisson)."""
        return self._fill("trnrandGeneratePoisson", np.uint32, size, (lam,), (_d,))

    def exponential(self, scale=1.0, size=None, dtype=np.float64):
        """Exponential of mean `scale` (trnrandGenerateExponential[Double], rate 1/scale)."""
        dt, sfx = self._real(dtype)
        if not scale > 0:
            raise ValueError("scale must be > 0")
        return self._fill("trnrandGenerateExponential" + sfx, dt, size, (1.0 / scale,), (_d,))

    def standard_exponential(self, size=None, dtype=np.float64):
        return self.exponential(1.0, size, dtype)

    def gamma(self, shape, scale=1.0, size=None, dtype=np.float64):
        """Gamma(shape, scale) (trnrandGenerateGamma[Double])."""
        dt, sfx = self._real(dtype)
        return self._fill("trnrandGenerateGamma" + sfx, dt, size, (shape, scale), (_d, _d))

    def standard_gamma(self, shape, size=None, dtype=np.float64):
        return self.gamma(shape, 1.0, size, dtype)

    def beta(self, a, b, size=None, dtype=np.float64):
        """Beta(a, b) (trnrandGenerateBeta[Double])."""
        dt, sfx = self._real(dtype)
        return self._fill("trnrandGenerateBeta" + sfx, dt, size, (a, b), (_d, _d))

    def truncated_normal(self, loc=0.0, scale=1.0, low=-np.inf, high=np.inf, size=None,
                         dtype=np.float64):
        """Normal(loc, scale) restricted to [low, high] (trnrandGenerateTruncatedNormal[Double])."""
        dt, sfx = self._real(dtype)
        real = _f if dt == np.float32 else _d
        return self._fill("trnrandGenerateTruncatedNormal" + sfx, dt, size,
                          (loc, scale, low, high), (real,) * 4)


def default_rng(seed=None):
    """A Generator; seed None draws one from the operating system."""
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    return Generator(seed)
