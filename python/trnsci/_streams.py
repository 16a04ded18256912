"""Streams, events and graphs as context managers (CuPy's shape of them).

Role: `with trnsci.Stream():` queues the calls of trnsci.sparse and
trnsci.tensor made inside it on a stream of its own, without waiting for
each (trnsciStreamCreate, the handles' SetStream); leaving the block
synchronises it, so a deferred error surfaces there. `Event` marks a point
in a stream (trnsciEventRecord) to wait for or time. `with trnsci.graph()
as g:` captures those calls instead of running them (trnsciStreamBeginCapture
in relaxed mode on a private stream, EndCapture and Instantiate at the
end); `g.launch()` then runs all of them as one message.
Invariants: the current stream is per thread and nests (an inner context
wins until it ends); an object of a closed session is never passed to the
library (its generation differs) and its __del__ frees nothing. Inside a
capture, arrays are allocated and uploaded at once (relaxed mode), so a
captured call's operands and results are fixed buffers: change an input
with `x.set(...)` and launch again. trnsci.linalg, fft and random always
run on the default stream, eagerly, even inside these blocks.
"""
import ctypes

from . import _errors
from . import _fam
from . import _lib as L
from . import _runtime

_v, _i = L.c_void_p, L.c_int
_NOT_READY = 600
_RELAXED = 2


def _rt(name, *argtypes):
    return L.fn(name, _i, *argtypes)


def _check(status, name):
    _errors.check(status, name)


class _Owned:
    """A library object of one session: freed by `destroy` once, if that session is open."""

    def __init__(self):
        self.handle = ctypes.c_void_p()
        self._gen = _runtime.generation()

    def _live(self):
        if self._gen != _runtime.generation():
            raise _errors.TrnsciError("runtime", "trnsci", 709, "trnsciErrorContextIsDestroyed",
                                      "the object's session was closed (trnsci.connect or reset)")
        return self.handle

    def _free(self, name):
        if self.handle.value and self._gen == _runtime.generation():
            try:
                _rt(name, _v)(self.handle)
            except Exception:  # interpreter shutdown
                pass
        self.handle = ctypes.c_void_p()

    def __del__(self):
        self.close()


class Stream(_Owned):
    """A stream (trnsciStreamCreateWithFlags). As a context manager it is the
    stream trnsci.sparse and trnsci.tensor queue on; leaving the block
    synchronises it (raising the first deferred error of its work)."""

    def __init__(self, non_blocking=False):
        super().__init__()
        _runtime.ensure()
        self._gen = _runtime.generation()
        _check(_rt("trnsciStreamCreateWithFlags", L.P(_v), L.c_uint)(
            L.byref(self.handle), 1 if non_blocking else 0), "trnsciStreamCreateWithFlags")
        self.kept = []  # operands of queued calls, until the next synchronize

    def __enter__(self):
        self._live()
        _fam.stack().append(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        s = _fam.stack()
        if s and s[-1] is self:
            s.pop()
        if exc_type is None:
            self.synchronize()
        else:
            _rt("trnsciStreamSynchronize", _v)(self.handle)  # its error would hide exc
            self.kept.clear()
        return False

    def synchronize(self):
        """Waits for the stream's work; raises its deferred error if any."""
        try:
            _check(_rt("trnsciStreamSynchronize", _v)(self._live()), "trnsciStreamSynchronize")
        finally:
            self.kept.clear()

    def query(self):
        """True when all the stream's work has completed (does not wait)."""
        st = _rt("trnsciStreamQuery", _v)(self._live())
        if st == _NOT_READY:
            return False
        _check(st, "trnsciStreamQuery")
        return True

    def wait_event(self, event):
        """Later work on this stream waits for event's latest record."""
        _check(_rt("trnsciStreamWaitEvent", _v, _v, L.c_uint)(self._live(), event._live(), 0),
               "trnsciStreamWaitEvent")

    def record(self, event=None):
        """Records event (a new one if None) on this stream; returns it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def close(self):
        self._free("trnsciStreamDestroy")


class Event(_Owned):
    """An event (trnsciEventCreateWithFlags); timing=False disables elapsed_time."""

    def __init__(self, timing=True, blocking=False):
        super().__init__()
        _runtime.ensure()
        self._gen = _runtime.generation()
        flags = (0 if timing else 2) | (1 if blocking else 0)
        _check(_rt("trnsciEventCreateWithFlags", L.P(_v), L.c_uint)(L.byref(self.handle), flags),
               "trnsciEventCreateWithFlags")

    def record(self, stream=None):
        """Records the event on stream (None: the current one of this thread)."""
        s = stream._live() if stream is not None else _fam.stream()
        _check(_rt("trnsciEventRecord", _v, _v)(self._live(), s), "trnsciEventRecord")
        return self

    def synchronize(self):
        _check(_rt("trnsciEventSynchronize", _v)(self._live()), "trnsciEventSynchronize")

    def query(self):
        """True when the latest record has completed (or there was none)."""
        st = _rt("trnsciEventQuery", _v)(self._live())
        if st == _NOT_READY:
            return False
        _check(st, "trnsciEventQuery")
        return True

    def elapsed_time(self, end):
        """Milliseconds between this event's completion and end's (both recorded and done)."""
        ms = ctypes.c_float()
        _check(_rt("trnsciEventElapsedTime", L.P(ctypes.c_float), _v, _v)(
            L.byref(ms), self._live(), end._live()), "trnsciEventElapsedTime")
        return float(ms.value)

    def close(self):
        self._free("trnsciEventDestroy")


class Graph(_Owned):
    """An executable graph made by `with trnsci.graph() as g:` (see graph())."""
    capturing = True

    def __init__(self):
        super().__init__()
        self._stream = Stream()
        self.handle = self._stream.handle  # the stream calls are captured on
        self._exec = ctypes.c_void_p()
        self.num_nodes = 0
        self.kept = []  # operands of the captured calls (see _fam.keep)

    def __enter__(self):
        _check(_rt("trnsciStreamBeginCapture", _v, _i)(self._stream._live(), _RELAXED),
               "trnsciStreamBeginCapture")
        _fam.stack().append(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        s = _fam.stack()
        if s and s[-1] is self:
            s.pop()
        self.capturing = False
        g = ctypes.c_void_p()
        st = _rt("trnsciStreamEndCapture", _v, L.P(_v))(self._stream._live(), L.byref(g))
        try:
            if exc_type is not None:
                return False
            _check(st, "trnsciStreamEndCapture")
            n = ctypes.c_size_t(0)
            _check(_rt("trnsciGraphGetNodes", _v, _v, L.P(ctypes.c_size_t))(g, None, L.byref(n)),
                   "trnsciGraphGetNodes")
            self.num_nodes = n.value
            _check(_rt("trnsciGraphInstantiate", L.P(_v), _v, ctypes.c_ulonglong)(
                L.byref(self._exec), g, 0), "trnsciGraphInstantiate")
        finally:
            if g.value:
                _rt("trnsciGraphDestroy", _v)(g)
        return False

    def launch(self, stream=None):
        """Runs the graph: on stream, or the current stream of this thread;
        outside any Stream block it waits for the graph to finish."""
        if not self._exec.value:
            raise _errors.TrnsciError("runtime", "trnsciGraphLaunch", 400,
                                      "trnsciErrorInvalidResourceHandle",
                                      "the graph was not instantiated (its capture failed or "
                                      "has not ended)")
        self._live()
        s = stream._live() if stream is not None else _fam.stream()
        _check(_rt("trnsciGraphLaunch", _v, _v)(self._exec, s), "trnsciGraphLaunch")
        if stream is None and _fam.current() is None:
            _check(_rt("trnsciStreamSynchronize", _v)(None), "trnsciStreamSynchronize")

    def close(self):
        if self._exec.value and self._gen == _runtime.generation():
            try:
                _rt("trnsciGraphExecDestroy", _v)(self._exec)
            except Exception:
                pass
        self._exec = ctypes.c_void_p()
        self.kept = []  # after the executable graph: plans its nodes named
        if getattr(self, "_stream", None) is not None:
            self._stream.close()
        self.handle = ctypes.c_void_p()


def graph():
    """`with trnsci.graph() as g: ...; g.launch()`: the trnsci.sparse and
    trnsci.tensor calls in the block are captured, not run, into g."""
    return Graph()
