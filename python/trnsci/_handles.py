"""Per-session library handles (trnblasHandle_t, trnsolverDnHandle_t).

Role: one handle of each kind per session, made on first use and dropped
when the session closes (the daemon frees what it held), so that a call
costs no handle creation. Invariant: a handle is used only in the session
it was made in (`_runtime._on_reset` clears the cache before the reset).
"""
import ctypes

from . import _errors
from . import _lib as L
from . import _runtime

_cache = {}


def _drop():
    _cache.clear()  # the session's end releases them daemon-side


_runtime._on_reset.append(_drop)


def _get(kind, create, family):
    h = _cache.get(kind)
    if h is None:
        _runtime.ensure()
        p = ctypes.c_void_p()
        _errors.check(L.fn(create, L.c_int, L.P(L.c_void_p))(L.byref(p)), create, family)
        h = _cache[kind] = p
    return h


def blas():
    return _get("blas", "trnblasCreate", "blas")


def solver():
    return _get("solver", "trnsolverDnCreate", "solver")
