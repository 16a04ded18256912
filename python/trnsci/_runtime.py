"""The session: connecting to trnscid and asking it how it is.

Role: `connect`, `status`, `session`, `synchronize`, and the facts the
array layer needs about the session (`generation`, `host_addressable`).
libtrnsci holds one session per process; `connect` to another address
closes the current one (trnsciDeviceReset), which frees every buffer of it.
Invariant: `generation` changes exactly when a session closes, so an object
made in an earlier session (a device array, a handle) can tell that what it
names is gone and refuse to be used, instead of passing a dead pointer.
"""
import ctypes
import gc
import os
import weakref

from . import _errors
from . import _lib as L

_state = {"generation": 0, "address": None, "host": None, "connected": False}
_on_reset = []  # callbacks that drop per-session handles (BLAS, FFT plans, ...)
host_views = weakref.WeakSet()  # NumPy arrays' windows onto this session's pages


class _DaemonStatus(ctypes.Structure):
    _fields_ = [("daemonVersion", ctypes.c_char * 32), ("backend", ctypes.c_char * 16),
                ("protocolMajor", ctypes.c_uint), ("protocolMinor", ctypes.c_uint),
                ("coreCount", ctypes.c_uint), ("sessions", ctypes.c_uint),
                ("opsQueued", ctypes.c_uint64), ("opsRunning", ctypes.c_uint64),
                ("opsCompleted", ctypes.c_uint64), ("bytesHeld", ctypes.c_uint64),
                ("buffers", ctypes.c_uint64), ("uptimeMs", ctypes.c_uint64),
                ("workers", ctypes.c_uint)]


class _Usage(ctypes.Structure):
    _fields_ = [("ops", ctypes.c_uint64), ("shards", ctypes.c_uint64),
                ("queueNs", ctypes.c_uint64), ("runNs", ctypes.c_uint64),
                ("cost", ctypes.c_double), ("expired", ctypes.c_uint64)]


class _SessionInfo(ctypes.Structure):
    _fields_ = [("number", ctypes.c_uint64), ("transport", ctypes.c_char * 8),
                ("clientName", ctypes.c_char * 64), ("pid", ctypes.c_uint),
                ("uid", ctypes.c_uint), ("bytes", ctypes.c_uint64),
                ("buffers", ctypes.c_uint64), ("priority", ctypes.c_int),
                ("opsPending", ctypes.c_uint), ("usage", _Usage)]


def _struct_dict(s):
    out = {}
    for name, _ in s._fields_:
        v = getattr(s, name)
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        elif isinstance(v, ctypes.Structure):
            v = _struct_dict(v)
        out[name] = v
    return out


def _encode(address):
    return None if address is None else address.encode()


def connect(address=None, token=None):
    """Opens a session with the daemon at `address`.

    address: as trnsciInit — None means $TRNSCI_ADDR, else the default local
    socket; "unix:/path" (local transport, shared memory), "host:port" or a
    comma list of them (gRPC). token: a bearer token for a daemon that asks
    for one (None: $TRNSCI_TOKEN / $TRNSCI_TOKEN_FILE, as the C library).
    If a session is open it is closed first (see `reset`): its arrays become
    unusable.
    """
    if _state["connected"]:
        reset()
    if token is not None:
        os.environ["TRNSCI_TOKEN"] = token  # libtrnsci reads it when it connects
    _errors.check(L.fn("trnsciInit", L.c_int, L.c_char_p)(_encode(address)), "trnsciInit")
    v = L.c_int(0)
    _errors.check(L.fn("trnsciDeviceGetAttribute", L.c_int, L.P(L.c_int), L.c_int, L.c_int)(
        L.byref(v), 18, 0), "trnsciDeviceGetAttribute")  # trnsciDevAttrIntegrated
    _state.update(address=address, host=bool(v.value), connected=True)


def ensure():
    """Connects with the defaults unless a session is open (CUDA's lazy init)."""
    if not _state["connected"]:
        connect()


def reset(force=False):
    """Closes the session (trnsciDeviceReset): the daemon frees all its buffers.

    The session's pages are unmapped, so while a NumPy array (from
    numpy.asarray or DLPack on the local transport) still shares one, this
    raises TrnsciError instead of leaving that array pointing at nothing;
    force=True closes anyway (touching such an array then crashes).
    """
    if _state["connected"] and not force and len(host_views):
        gc.collect()
        if len(host_views):
            raise _errors.TrnsciError(
                "runtime", "trnsci.reset", 801, "trnsciErrorNotSupported",
                f"{len(host_views)} NumPy array(s) share this session's memory: delete them "
                "before closing the session (or reset(force=True))")
    for cb in list(_on_reset):
        cb()
    L.fn("trnsciDeviceReset", L.c_int)()
    _state["generation"] += 1
    _state["connected"] = False
    _state["host"] = None


def generation():
    return _state["generation"]


def host_addressable():
    """True when device pointers are host memory here (local transport, CPU backend)."""
    ensure()
    return _state["host"]


def synchronize():
    """Waits for all queued work; raises its deferred error if any."""
    _errors.check(L.fn("trnsciDeviceSynchronize", L.c_int)(), "trnsciDeviceSynchronize")


def status(address=None):
    """The daemon's counters (trnsciDaemonGetStatus) as a dict.

    address None: the connected session's address, else as connect's default.
    """
    if address is None:
        address = _state["address"]
    st = _DaemonStatus()
    _errors.check(L.fn("trnsciDaemonGetStatus", L.c_int, L.c_char_p, L.P(_DaemonStatus))(
        _encode(address), L.byref(st)), "trnsciDaemonGetStatus")
    return _struct_dict(st)


def sessions(address=None):
    """The daemon's open sessions this caller may see, as a list of dicts."""
    if address is None:
        address = _state["address"]
    cap = 64
    while True:
        arr = (_SessionInfo * cap)()
        n = L.c_int(0)
        _errors.check(L.fn("trnsciDaemonGetSessions", L.c_int, L.c_char_p, L.P(_SessionInfo),
                           L.c_int, L.P(L.c_int))(_encode(address), arr, cap, L.byref(n)),
                      "trnsciDaemonGetSessions")
        if n.value <= cap:
            return [_struct_dict(arr[i]) for i in range(n.value)]
        cap = n.value


def mem_info():
    """(free, total) bytes of this session (trnsciMemGetInfo)."""
    ensure()
    free, total = L.c_size_t(0), L.c_size_t(0)
    _errors.check(L.fn("trnsciMemGetInfo", L.c_int, L.P(L.c_size_t), L.P(L.c_size_t))(
        L.byref(free), L.byref(total)), "trnsciMemGetInfo")
    return free.value, total.value
