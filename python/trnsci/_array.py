"""Device arrays: NumPy-like metadata over a daemon buffer.

Role: `ndarray` is (Buffer, byte offset, shape, dtype, byte strides), as a
NumPy array is (memory, offset, shape, dtype, strides). Views (slicing,
`.T`, reshape of a contiguous array) share the Buffer; data moves only
through trnsciMemcpy, or, where device pointers are host memory (the CPU
backend's local transport), through the shared pages themselves.
Invariants: every element a view names lies inside its Buffer (views are
made by NumPy's own index arithmetic, never by hand); an array whose
session closed raises instead of touching memory; results of trnsci
operations are complete when the operation returns (each one synchronises),
so host views never see a half-written result.
"""
import numpy as np

from . import _errors
from . import _lib as L
from . import _runtime
from ._memory import Buffer

_H2D, _D2H, _D2D = 1, 2, 3


def _memcpy(dst, src, n, kind):
    if n:
        _errors.check(L.fn("trnsciMemcpy", L.c_int, L.c_void_p, L.c_void_p, L.c_size_t,
                           L.c_int)(dst, src, n, kind), "trnsciMemcpy")


def _norm_dtype(dtype):
    dt = np.dtype(dtype)
    if dt.kind not in "biufc" or dt.hasobject:
        raise TypeError(f"trnsci arrays hold numbers only, not {dt}")
    return dt.newbyteorder("=") if not dt.isnative else dt


def _contig_strides(shape, itemsize, order):
    strides, acc = [0] * len(shape), itemsize
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for i in dims:
        strides[i] = acc
        acc *= max(shape[i], 1)
    return tuple(strides)


def _norm_shape(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"negative dimension in shape {shape}")
    return shape


class _HostView:
    """Lends the buffer's host mapping to NumPy; keeps the Buffer alive.
    Each live one is in _runtime.host_views, so that closing the session
    (which unmaps the pages) can refuse while NumPy still points into them."""
    __slots__ = ("__array_interface__", "owner", "__weakref__")

    def __init__(self, owner, ptr, shape, dtype, strides):
        self.owner = owner
        _runtime.host_views.add(self)
        self.__array_interface__ = {"data": (ptr, False), "shape": shape,
                                    "typestr": dtype.str, "strides": strides, "version": 3}


class ndarray:
    """An array in the daemon's memory (see the module docstring)."""
    __slots__ = ("_buf", "_off", "shape", "dtype", "strides", "__weakref__")
    __array_priority__ = 100  # numpy @ trnsci → trnsci's __rmatmul__

    def __init__(self, buf, off, shape, dtype, strides):
        self._buf, self._off = buf, off
        self.shape, self.dtype, self.strides = shape, dtype, strides

    # ---- metadata ---------------------------------------------------------
    @property
    def ptr(self):
        """The device pointer of element 0 (checks the session is open)."""
        self._buf.check()
        return self._buf.ptr + self._off

    ndim = property(lambda self: len(self.shape))
    itemsize = property(lambda self: self.dtype.itemsize)
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))
    nbytes = property(lambda self: self.size * self.dtype.itemsize)

    def _contiguous(self, order):
        # As NumPy: the stride of an axis of length 1 does not matter.
        want = _contig_strides(self.shape, self.itemsize, order)
        return self.size <= 1 or all(n == 1 or s == w
                                     for n, s, w in zip(self.shape, self.strides, want))

    c_contiguous = property(lambda self: self._contiguous("C"))
    f_contiguous = property(lambda self: self._contiguous("F"))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __repr__(self):
        return f"trnsci.ndarray(shape={self.shape}, dtype={self.dtype}, strides={self.strides})"

    # ---- views ------------------------------------------------------------
    def _dummy(self):
        # NumPy does the view arithmetic on an array of the same layout whose
        # memory is never read: only slices and None reach it, which make
        # views without loading an element.
        base = np.zeros(1, self.dtype)
        return np.lib.stride_tricks.as_strided(base, self.shape, self.strides)

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        for k in key:
            if isinstance(k, (bool, np.bool_)) or not (
                    k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer))):
                raise IndexError("trnsci arrays take basic indexing only (integers, slices, "
                                 "None, ...); for other indexing use .get() first")
        # Integers become one-element slices (then the axis is dropped), so
        # that NumPy never loads an element of the dummy.
        n_axes = sum(1 for k in key if k is not None and k is not Ellipsis)
        if n_axes > self.ndim:
            raise IndexError(f"too many indices for a {self.ndim}-d array")
        if sum(1 for k in key if k is Ellipsis) > 1:
            raise IndexError("an index can only have a single ellipsis")
        full, axis, drop = [], 0, []
        for k in key:
            if k is Ellipsis:
                for _ in range(self.ndim - n_axes):
                    full.append(slice(None))
                    axis += 1
            elif k is None:
                full.append(None)
            elif isinstance(k, slice):
                full.append(k)
                axis += 1
            else:
                i, n = int(k), self.shape[axis]
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
                i = i + n if i < 0 else i
                drop.append(len(full))
                full.append(slice(i, i + 1))
                axis += 1
        if not full:  # a[...] of a 0-d array: NumPy would give a scalar, not a view
            return ndarray(self._buf, self._off, self.shape, self.dtype, self.strides)
        d = self._dummy()
        base = d.__array_interface__["data"][0]
        v = d[tuple(full)]
        if drop:
            v = np.squeeze(v, axis=tuple(drop))
        delta = v.__array_interface__["data"][0] - base if v.size else 0
        return ndarray(self._buf, self._off + delta, v.shape, self.dtype, v.strides)

    def __setitem__(self, key, value):
        self[key].set(value)

    @property
    def T(self):
        return self.transpose()

    def transpose(self, *axes):
        if not axes:  # reversed axes: metadata only (the fast path of .T)
            return ndarray(self._buf, self._off, self.shape[::-1], self.dtype, self.strides[::-1])
        d = self._dummy()
        v = d.transpose(*axes) if axes else d.T
        return ndarray(self._buf, self._off, v.shape, self.dtype, v.strides)

    def reshape(self, *shape, order="C"):
        """A view with another shape; the array must be contiguous in `order`."""
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        shape = tuple(int(s) for s in shape)
        if (order == "C" and not self.c_contiguous) or (order == "F" and not self.f_contiguous):
            raise ValueError(f"reshape needs an array contiguous in order {order!r}; "
                             "use .copy() first")
        if -1 in shape:
            known = int(np.prod([s for s in shape if s != -1]))
            shape = tuple(self.size // max(known, 1) if s == -1 else s for s in shape)
        if int(np.prod(shape)) != self.size:
            raise ValueError(f"cannot reshape an array of size {self.size} into shape {shape}")
        return ndarray(self._buf, self._off, shape, self.dtype,
                       _contig_strides(shape, self.itemsize, order))

    # ---- data movement ----------------------------------------------------
    def _span(self):
        """Byte range [lo, hi) of the buffer, relative to element 0, that the view touches."""
        lo = hi = 0
        for n, s in zip(self.shape, self.strides):
            if n > 1:
                if s < 0:
                    lo += (n - 1) * s
                else:
                    hi += (n - 1) * s
        return lo, hi + self.itemsize

    def _host_array(self):
        """The array as host memory: its own pages when they are host-addressable
        (no copy), else a copy."""
        ptr = self.ptr
        if self.size == 0 or not _runtime.host_addressable():
            return self.get()
        return np.asarray(_HostView(self._buf, ptr, self.shape, self.dtype, self.strides))

    def get(self, order="K"):
        """A NumPy copy of the array (C order, or F for F-contiguous arrays with
        order "K"; "C"/"F" force it)."""
        ptr = self.ptr
        if order == "K":
            order = "F" if self.f_contiguous and not self.c_contiguous else "C"
        out = np.empty(self.shape, self.dtype, order=order)
        if self.size == 0:
            return out
        if (order == "C" and self.c_contiguous) or (order == "F" and self.f_contiguous):
            _memcpy(out.ctypes.data, ptr, self.nbytes, _D2H)
            return out
        lo, hi = self._span()
        raw = np.empty(hi - lo, np.uint8)
        _memcpy(raw.ctypes.data, ptr + lo, hi - lo, _D2H)
        out[...] = np.lib.stride_tricks.as_strided(_strided(raw, -lo, self), self.shape,
                                                   self.strides)
        return out

    def set(self, value):
        """Writes `value` (broadcast to the array's shape, cast safely within its kind)
        into the array."""
        ptr = self.ptr
        if isinstance(value, ndarray):
            value = value.get()
        src = np.asarray(value)
        if not np.can_cast(src.dtype, self.dtype, "same_kind"):
            raise TypeError(f"cannot write {src.dtype} values into a {self.dtype} array")
        try:
            src = np.broadcast_to(src, self.shape)
        except ValueError:
            raise ValueError(f"shape mismatch: {src.shape} into {self.shape}") from None
        if self.size == 0:
            return
        if self.c_contiguous or self.f_contiguous:
            order = "C" if self.c_contiguous else "F"
            host = np.require(src.astype(self.dtype, copy=False), requirements=[order])
            _memcpy(ptr, host.ctypes.data, self.nbytes, _H2D)
            return
        if _runtime.host_addressable():
            self._host_array()[...] = src
            return
        lo, hi = self._span()
        raw = np.empty(hi - lo, np.uint8)
        _memcpy(raw.ctypes.data, ptr + lo, hi - lo, _D2H)
        np.lib.stride_tricks.as_strided(_strided(raw, -lo, self), self.shape,
                                        self.strides)[...] = src
        _memcpy(ptr + lo, raw.ctypes.data, hi - lo, _H2D)

    def copy(self, order="C"):
        """A new device array with the same values (contiguous in `order`)."""
        out = empty(self.shape, self.dtype, order)
        if (order == "C" and self.c_contiguous) or (order == "F" and self.f_contiguous):
            _memcpy(out.ptr, self.ptr, self.nbytes, _D2D)
        else:
            out.set(self.get())
        return out

    def __array__(self, dtype=None, copy=None):
        a = self.get() if copy else self._host_array()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __dlpack__(self, stream=None):
        if stream not in (None, -1):
            raise BufferError("trnsci arrays are host memory to DLPack: stream must be None")
        return self._host_array().__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU: consumers get host memory (shared, or a copy)

    def __matmul__(self, other):
        from . import linalg
        return linalg.matmul(self, other)

    def __rmatmul__(self, other):
        from . import linalg
        return linalg.matmul(other, self)


def _strided(raw, start, arr):
    """The dtype view of raw bytes from `start` on (as_strided's base)."""
    n = (raw.size - start) // arr.itemsize
    return raw[start:start + n * arr.itemsize].view(arr.dtype)


def empty(shape, dtype=np.float64, order="C"):
    """A new device array. The daemon zero-fills new buffers, so it is zeros."""
    shape, dt = _norm_shape(shape), _norm_dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    nbytes = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
    return ndarray(Buffer(nbytes), 0, shape, dt, _contig_strides(shape, dt.itemsize, order))


zeros = empty


def asarray(obj, dtype=None, order="K"):
    """A device array with obj's values (obj: a trnsci array, anything
    numpy.asarray takes, or a DLPack producer). A trnsci array of the same
    dtype is returned as is."""
    if isinstance(obj, ndarray):
        if dtype is None or np.dtype(dtype) == obj.dtype:
            return obj
        obj = obj.get()
    if not isinstance(obj, np.ndarray) and hasattr(obj, "__dlpack__"):
        obj = np.from_dlpack(obj)
    a = np.asarray(obj, dtype=dtype)
    dt = _norm_dtype(a.dtype)
    if order == "K" or order == "A":
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    out = empty(a.shape, dt, order)
    out.set(a)
    return out


def from_dlpack(x):
    """A device array copied from a DLPack producer (host memory)."""
    return asarray(np.from_dlpack(x))
