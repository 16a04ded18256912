"""Loading libtrnsci and declaring the C functions the package calls.

Role: the one place that touches ctypes' library object. Every other module
asks `fn(name, restype, *argtypes)` for a prepared foreign function; the
prototype is set once and cached, so a call costs one ctypes dispatch.

Where libtrnsci comes from, first match wins:
  1. $TRNSCI_LIB, a path to libtrnsci.so (a build tree, or any copy);
  2. the library installed with this package (`_install.py`, written by
     `cmake --install`, names it relative to the package directory);
  3. the dynamic loader's search for libtrnsci.so.0.
Invariant: the library is loaded once per process (libtrnsci keeps one
session per process, so two copies would open two sessions).
"""
import ctypes
import os

_lib = None
_fns = {}


def _candidates():
    env = os.environ.get("TRNSCI_LIB")
    if env:
        yield env
    try:
        from . import _install  # written by cmake --install
        here = os.path.dirname(os.path.abspath(__file__))
        yield os.path.normpath(os.path.join(here, _install.LIBRARY))
    except ImportError:
        pass
    yield "libtrnsci.so.0"


def lib():
    """The loaded libtrnsci (ctypes.CDLL); loads it on first use."""
    global _lib
    if _lib is None:
        errors = []
        for path in _candidates():
            try:
                _lib = ctypes.CDLL(path)
                break
            except OSError as e:
                errors.append(f"{path}: {e}")
        if _lib is None:
            raise ImportError("cannot load libtrnsci (set TRNSCI_LIB to its path): " +
                              "; ".join(errors))
    return _lib


def fn(name, restype, *argtypes):
    """The C function `name` with its prototype set (cached)."""
    f = _fns.get(name)
    if f is None:
        f = getattr(lib(), name)
        f.restype = restype
        f.argtypes = list(argtypes)
        _fns[name] = f
    return f


c_int, c_uint, c_size_t, c_void_p, c_char_p = (ctypes.c_int, ctypes.c_uint, ctypes.c_size_t,
                                               ctypes.c_void_p, ctypes.c_char_p)
c_double, c_float, c_ulonglong = ctypes.c_double, ctypes.c_float, ctypes.c_ulonglong
P = ctypes.POINTER
byref = ctypes.byref
