"""What trnsci.sparse, trnsci.tensor and the stream layer share.

Role: the trnsparse and trntensor handles of the session (made on first
use, dropped when the session closes, as _handles does for BLAS and the
solver), errors of those two families as TrnsciError, and the stream the
families queue their work on.
Invariants: a family call made outside any `trnsci.Stream` context runs on
the default stream and returns once complete (`finish` synchronises, so a
deferred error surfaces at the call that caused it); inside a Stream
context it is queued on that stream and `finish` does not wait (the
context's exit does), and inside a graph capture it is recorded, never run.
"""
import ctypes
import threading

from . import _errors
from . import _lib as L
from . import _runtime

_cache = {}
_tls = threading.local()


def _drop():
    _cache.clear()  # the session's end releases them daemon-side


_runtime._on_reset.append(_drop)

# ---- errors -------------------------------------------------------------------
_SPARSE_NAMES = ["TRNSPARSE_STATUS_SUCCESS", "TRNSPARSE_STATUS_NOT_INITIALIZED",
                 "TRNSPARSE_STATUS_ALLOC_FAILED", "TRNSPARSE_STATUS_INVALID_VALUE",
                 "TRNSPARSE_STATUS_ARCH_MISMATCH", "TRNSPARSE_STATUS_MAPPING_ERROR",
                 "TRNSPARSE_STATUS_EXECUTION_FAILED", "TRNSPARSE_STATUS_INTERNAL_ERROR",
                 "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "TRNSPARSE_STATUS_ZERO_PIVOT",
                 "TRNSPARSE_STATUS_NOT_SUPPORTED", "TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES"]
_TENSOR_NAMES = {1: "TRNTENSOR_STATUS_NOT_INITIALIZED", 3: "TRNTENSOR_STATUS_ALLOC_FAILED",
                 7: "TRNTENSOR_STATUS_INVALID_VALUE", 8: "TRNTENSOR_STATUS_ARCH_MISMATCH",
                 11: "TRNTENSOR_STATUS_MAPPING_ERROR", 13: "TRNTENSOR_STATUS_EXECUTION_FAILED",
                 14: "TRNTENSOR_STATUS_INTERNAL_ERROR", 15: "TRNTENSOR_STATUS_NOT_SUPPORTED",
                 17: "TRNTENSOR_STATUS_TRNBLAS_ERROR", 18: "TRNTENSOR_STATUS_TRNSCI_ERROR",
                 19: "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE",
                 20: "TRNTENSOR_STATUS_INSUFFICIENT_DRIVER", 21: "TRNTENSOR_STATUS_IO_ERROR"}


def check(status, function, family):
    """Raises TrnsciError unless status is 0; family "sparse", "tensor" or
    one _errors knows ("runtime", "blas", "solver", ...)."""
    if not status:
        return
    if family == "sparse":
        name = _SPARSE_NAMES[status] if 0 <= status < len(_SPARSE_NAMES) else str(status)
    elif family == "tensor":
        name = _TENSOR_NAMES.get(status, str(status))
    else:
        _errors.raise_status(family, function, status)
    raise _errors.TrnsciError(family, function, status, name, _errors.last_message())


# ---- handles ------------------------------------------------------------------
def _handle(kind, create, family):
    h = _cache.get(kind)
    if h is None:
        _runtime.ensure()
        p = ctypes.c_void_p()
        check(L.fn(create, L.c_int, L.P(L.c_void_p))(L.byref(p)), create, family)
        h = _cache[kind] = p
    return h


def sparse_handle():
    """The session's trnsparseHandle_t, bound to the current stream."""
    h = _handle("sparse", "trnsparseCreate", "sparse")
    check(L.fn("trnsparseSetStream", L.c_int, L.c_void_p, L.c_void_p)(h, stream()),
          "trnsparseSetStream", "sparse")
    return h


def tensor_handle():
    """The session's trntensorHandle_t, bound to the current stream."""
    h = _handle("tensor", "trntensorCreate", "tensor")
    check(L.fn("trntensorSetStream", L.c_int, L.c_void_p, L.c_void_p)(h, stream()),
          "trntensorSetStream", "tensor")
    return h


def solver_handle():
    """The session's trnsolverDnHandle_t (_handles'), bound to the current stream."""
    from . import _handles
    h = _handles.solver()
    check(L.fn("trnsolverDnSetStream", L.c_int, L.c_void_p, L.c_void_p)(h, stream()),
          "trnsolverDnSetStream", "solver")
    return h


# ---- the current stream -------------------------------------------------------
def stack():
    s = getattr(_tls, "stack", None)
    if s is None:
        s = _tls.stack = []
    return s


def current():
    """The innermost Stream (or graph) context object of this thread, or None."""
    s = stack()
    return s[-1] if s else None


def stream():
    """The trnsciStream_t value family calls are queued on (None: the default stream)."""
    c = current()
    return None if c is None else c.handle.value


def capturing():
    c = current()
    return c is not None and getattr(c, "capturing", False)


def keep(*objs):
    """Keeps objs (the arrays a queued or captured call names) alive: in a
    graph as long as the graph (their buffers must outlive every launch), in
    a Stream block until it synchronises (so that freeing a temporary does
    not wait for the stream, as trnsciFree would)."""
    c = current()
    if c is not None:
        c.kept.extend(objs)


def finish():
    """Ends a family call: on the default stream waits for it and raises its
    deferred error; in a Stream or graph context returns at once."""
    if current() is not None:
        return
    check(L.fn("trnsciStreamSynchronize", L.c_int, L.c_void_p)(None),
          "trnsciStreamSynchronize", "runtime")
