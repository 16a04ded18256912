"""trnsci.fft — scipy.fft/numpy.fft-level transforms over trnfft.

Role: bring the transformed axes last and contiguous (a device copy when
they are not), make (or reuse) a trnfftPlanMany plan for the shape, run the
Exec* routine, scale for `norm` with trnblas *scal, and move the axes back
(a view). Plans are made once per (type, sizes, batch) in this session and
kept (the daemon's plan cache makes them cheap across processes too).
Invariants: inputs are never modified (C2R, which may overwrite its input,
runs on a copy); precision follows scipy.fft: float32/complex64 in,
complex64/float32 out; float64, integers → complex128/float64.
Transforms of up to 3 axes at once; more axes run as several passes.
"""
import collections
import ctypes

import numpy as np

from . import _errors
from . import _handles
from . import _lib as L
from . import _runtime
from ._array import asarray, empty, ndarray

_C2C, _R2C, _C2R, _Z2Z, _D2Z, _Z2D = 0x29, 0x2A, 0x2C, 0x69, 0x6A, 0x6C
_FORWARD, _INVERSE = -1, 1
_EXEC = {_C2C: "trnfftExecC2C", _Z2Z: "trnfftExecZ2Z", _R2C: "trnfftExecR2C",
         _D2Z: "trnfftExecD2Z", _C2R: "trnfftExecC2R", _Z2D: "trnfftExecZ2D"}
_MAX_PLANS = 32
_plans = collections.OrderedDict()


def _drop_plans():
    _plans.clear()  # the session's end destroys them daemon-side


_runtime._on_reset.append(_drop_plans)


def _plan(kind, dims, batch):
    key = (kind, dims, batch)
    h = _plans.get(key)
    if h is not None:
        _plans.move_to_end(key)
        return h
    _runtime.ensure()
    handle = ctypes.c_int(0)
    n = (ctypes.c_int * len(dims))(*dims)
    f = L.fn("trnfftPlanMany", L.c_int, L.P(L.c_int), L.c_int, L.P(L.c_int), L.c_void_p, L.c_int,
             L.c_int, L.c_void_p, L.c_int, L.c_int, L.c_int, L.c_int)
    _errors.check(f(L.byref(handle), len(dims), n, None, 1, 0, None, 1, 0, kind, batch),
                  "trnfftPlanMany", "fft")
    _plans[key] = handle.value
    if len(_plans) > _MAX_PLANS:
        _, old = _plans.popitem(last=False)
        L.fn("trnfftDestroy", L.c_int, L.c_int)(old)
    return handle.value


def _complex_dtype(dt):
    return np.dtype(np.complex64) if dt in (np.float32, np.complex64) else np.dtype(np.complex128)


def _real_dtype(dt):
    return np.dtype(np.float32) if dt in (np.float32, np.complex64) else np.dtype(np.float64)


def _resize(x, axes, sizes):
    """x cropped or zero-padded to `sizes` along `axes` (a new array if any change)."""
    shape = list(x.shape)
    for ax, s in zip(axes, sizes):
        if s < 1:
            raise ValueError(f"invalid number of data points ({s}) specified")
        shape[ax] = s
    if tuple(shape) == x.shape:
        return x
    out = empty(shape, x.dtype)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape))
    out[common] = x[common]
    return out


def _scale(x, kind_len, norm, inverse):
    """Applies numpy's normalisation `norm` to the fresh contiguous result x."""
    if norm in (None, "backward"):
        factor = 1.0 / kind_len if inverse else 1.0
    elif norm == "ortho":
        factor = 1.0 / np.sqrt(kind_len)
    elif norm == "forward":
        factor = 1.0 if inverse else 1.0 / kind_len
    else:
        raise ValueError(f'invalid norm {norm!r}: "backward", "ortho" or "forward"')
    if factor == 1.0 or x.size == 0:
        return
    name = {np.dtype(np.float32): "trnblasSscal", np.dtype(np.float64): "trnblasDscal",
            np.dtype(np.complex64): "trnblasCsscal", np.dtype(np.complex128): "trnblasZdscal"}[
        x.dtype]
    real = ctypes.c_float if x.dtype in (np.float32, np.complex64) else ctypes.c_double
    a = real(factor)
    f = L.fn(name, L.c_int, L.c_void_p, L.c_int, L.c_void_p, L.c_void_p, L.c_int)
    _errors.check(f(_handles.blas(), x.size, L.byref(a), x.ptr, 1), name, "blas")


def _norm_axes(x, axes, n, default_all):
    if axes is None:
        axes = tuple(range(x.ndim)) if default_all else (x.ndim - 1,)
        if n is not None and default_all:
            axes = axes[-len(n):]
    axes = tuple(a + x.ndim if a < 0 else a for a in axes)
    if any(not 0 <= a < x.ndim for a in axes) or len(set(axes)) != len(axes):
        raise ValueError(f"axes {axes} are not distinct axes of a {x.ndim}-d array")
    if n is None:
        n = tuple(x.shape[a] for a in axes)
    if len(n) != len(axes):
        raise ValueError("shape and axes have different lengths")
    return axes, tuple(int(s) for s in n)


def _run(x, axes, kind, direction, out_last):
    """The transform of `kind` over `axes` (≤ 3) of x; out_last is the length
    of the last transformed axis in the output. Returns the result with the
    axes in x's order."""
    rest = [a for a in range(x.ndim) if a not in axes]
    perm = rest + list(axes)
    xt = x.transpose(*perm) if perm != list(range(x.ndim)) else x
    if not xt.c_contiguous or kind in (_C2R, _Z2D):
        xt = xt.copy("C")  # contiguous, and private where the transform may overwrite it
    dims = tuple(xt.shape[len(rest):])
    batch = int(np.prod(xt.shape[:len(rest)], dtype=np.int64))
    logical = dims if kind not in (_C2R, _Z2D) else dims[:-1] + (out_last,)
    odt = _real_dtype(x.dtype) if kind in (_C2R, _Z2D) else _complex_dtype(x.dtype)
    out_shape = xt.shape[:-1] + (out_last,)
    out = empty(out_shape, odt)
    if out.size and xt.size:
        h = _plan(kind, logical, batch)
        name = _EXEC[kind]
        if kind in (_C2C, _Z2Z):
            f = L.fn(name, L.c_int, L.c_int, L.c_void_p, L.c_void_p, L.c_int)
            st = f(h, xt.ptr, out.ptr, direction)
        else:
            f = L.fn(name, L.c_int, L.c_int, L.c_void_p, L.c_void_p)
            st = f(h, xt.ptr, out.ptr)
        _errors.check(st, name, "fft")
    inv = np.argsort(perm)
    return out, tuple(int(i) for i in inv)


def _sync():
    _errors.check(L.fn("trnsciStreamSynchronize", L.c_int, L.c_void_p)(None),
                  "trnsciStreamSynchronize")


def _as(x, dtype_of):
    """x as a device array of dtype_of(its dtype): host input is converted
    before it is copied in; a device array of another dtype goes through
    the host once."""
    if not isinstance(x, ndarray):
        h = np.asarray(x)
        if h.dtype.kind not in "biufc":
            raise TypeError(f"a transform of {h.dtype}")
        return asarray(h.astype(dtype_of(h.dtype), copy=False))
    dt = dtype_of(x.dtype)
    return x if x.dtype == dt else asarray(x.get().astype(dt))


def _c2c(x, n, axes, norm, inverse, default_all):
    x = _as(x, _complex_dtype)
    axes, n = _norm_axes(x, axes, n, default_all)
    x = _resize(x, axes, n)
    kind = _C2C if x.dtype == np.complex64 else _Z2Z
    direction = _INVERSE if inverse else _FORWARD
    # Up to three axes per plan; more as several passes (the last three first).
    todo = list(axes)
    while todo:
        group, todo = todo[-3:], todo[:-3]
        r, inv = _run(x, group, kind, direction, x.shape[group[-1]])
        x = r.transpose(*inv)
    total = int(np.prod(n, dtype=np.int64))
    x = x.copy("C") if not x.c_contiguous else x
    _scale(x, total, norm, inverse)
    _sync()
    return x


def fft(x, n=None, axis=-1, norm=None):
    """The 1-d discrete Fourier transform along `axis` (numpy.fft.fft)."""
    return _c2c(x, None if n is None else (n,), (axis,), norm, False, False)


def ifft(x, n=None, axis=-1, norm=None):
    """The inverse of fft (numpy.fft.ifft)."""
    return _c2c(x, None if n is None else (n,), (axis,), norm, True, False)


def fftn(x, s=None, axes=None, norm=None):
    """The n-d transform over `axes` (default: all, or the last len(s))."""
    return _c2c(x, s, axes, norm, False, True)


def ifftn(x, s=None, axes=None, norm=None):
    return _c2c(x, s, axes, norm, True, True)


def fft2(x, s=None, axes=(-2, -1), norm=None):
    return _c2c(x, s, axes, norm, False, True)


def ifft2(x, s=None, axes=(-2, -1), norm=None):
    return _c2c(x, s, axes, norm, True, True)


def _real_only(dt):
    if dt.kind == "c":
        raise TypeError("rfft takes real input (use fft for complex)")
    return _real_dtype(dt)


def _r2c(x, s, axes, norm, default_all):
    x = _as(x, _real_only)
    rdt = x.dtype
    axes, s = _norm_axes(x, axes, s, default_all)
    x = _resize(x, axes, s)
    if len(axes) > 3:
        raise ValueError("rfftn over more than 3 axes is not taken yet")
    kind = _R2C if rdt == np.float32 else _D2Z
    r, inv = _run(x, axes, kind, _FORWARD, s[-1] // 2 + 1)
    _scale(r, int(np.prod(s, dtype=np.int64)), norm, False)
    _sync()
    return r.transpose(*inv)


def _c2r(x, s, axes, norm, default_all):
    x = _as(x, _complex_dtype)
    if axes is None:
        axes = tuple(range(x.ndim)) if default_all else (x.ndim - 1,)
        if s is not None and default_all:
            axes = axes[-len(s):]
    axes = tuple(a + x.ndim if a < 0 else a for a in axes)
    if s is None:
        s = tuple(x.shape[a] for a in axes[:-1]) + (2 * (x.shape[axes[-1]] - 1),)
    s = tuple(int(v) for v in s)
    if len(axes) > 3:
        raise ValueError("irfftn over more than 3 axes is not taken yet")
    x = _resize(x, axes, s[:-1] + (s[-1] // 2 + 1,))
    kind = _C2R if x.dtype == np.complex64 else _Z2D
    r, inv = _run(x, axes, kind, _INVERSE, s[-1])
    _scale(r, int(np.prod(s, dtype=np.int64)), norm, True)
    _sync()
    return r.transpose(*inv)


def rfft(x, n=None, axis=-1, norm=None):
    """The transform of real input, the n//2 + 1 non-negative frequencies."""
    return _r2c(x, None if n is None else (n,), (axis,), norm, False)


def irfft(x, n=None, axis=-1, norm=None):
    """The inverse of rfft: n real points (default 2 (m - 1))."""
    return _c2r(x, None if n is None else (n,), (axis,), norm, False)


def rfftn(x, s=None, axes=None, norm=None):
    return _r2c(x, s, axes, norm, True)


def irfftn(x, s=None, axes=None, norm=None):
    return _c2r(x, s, axes, norm, True)


def rfft2(x, s=None, axes=(-2, -1), norm=None):
    return _r2c(x, s, axes, norm, True)


def irfft2(x, s=None, axes=(-2, -1), norm=None):
    return _c2r(x, s, axes, norm, True)


def fftfreq(n, d=1.0):
    """numpy.fft.fftfreq (host values: no transform)."""
    return np.fft.fftfreq(n, d)


def rfftfreq(n, d=1.0):
    return np.fft.rfftfreq(n, d)
