"""Device buffers: one trnsciMalloc allocation, freed with its last reference.

Role: own a daemon buffer. Device arrays and their views hold a `Buffer`;
when the last of them (and the last NumPy array sharing its memory) goes,
Python drops the Buffer and `__del__` calls trnsciFree.
Invariants: a Buffer from a closed session (another `generation`) is never
freed nor used: its memory went with the session. `ptr` is 0 only for a
zero-byte buffer (trnsciMalloc gives NULL for size 0).
"""
import ctypes

from . import _errors
from . import _lib as L
from . import _runtime


class Buffer:
    __slots__ = ("ptr", "nbytes", "generation", "__weakref__")

    def __init__(self, nbytes):
        _runtime.ensure()
        p = ctypes.c_void_p(0)
        if nbytes:
            _errors.check(L.fn("trnsciMalloc", L.c_int, L.P(L.c_void_p), L.c_size_t)(
                L.byref(p), nbytes), "trnsciMalloc")
        self.ptr = p.value or 0
        self.nbytes = nbytes
        self.generation = _runtime.generation()

    def alive(self):
        return self.generation == _runtime.generation()

    def check(self):
        """Raises unless the buffer's session is still the open one."""
        if self.generation != _runtime.generation():
            raise _errors.TrnsciError(
                "runtime", "trnsci", 709, "trnsciErrorContextIsDestroyed",
                "the array's session was closed (trnsci.connect or reset): its memory is gone")

    def __del__(self):
        try:
            if self.ptr and self.generation == _runtime.generation():
                L.fn("trnsciFree", L.c_int, L.c_void_p)(self.ptr)
        except Exception:  # interpreter shutdown: the session ends with the process
            pass
        self.ptr = 0
