"""trnsci — NumPy/SciPy-level Python interface to the trnscid daemon.

A thin layer over libtrnsci (loaded with ctypes; see docs/python.md): device
arrays in the daemon's memory and the families trnsci.linalg, trnsci.fft and
trnsci.random, each function one or a few calls into the C API. Every
operation returns once its result is complete; failures raise TrnsciError
with the CUDA-style status and the daemon's message.
"""
from ._array import asarray, empty, from_dlpack, ndarray, zeros
from ._errors import TrnsciError
from ._runtime import connect, mem_info, reset, sessions, status, synchronize
from ._streams import Event, Stream, graph

__all__ = ["TrnsciError", "asarray", "connect", "empty", "from_dlpack", "mem_info", "ndarray",
           "reset", "sessions", "status", "synchronize", "zeros", "linalg", "fft", "random",
           "sparse", "tensor", "Stream", "Event", "graph"]


def __getattr__(name):
    # The families load on first use: `import trnsci` stays cheap.
    if name in ("linalg", "fft", "random", "sparse", "tensor"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'trnsci' has no attribute {name!r}")
