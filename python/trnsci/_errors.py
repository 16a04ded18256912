"""Errors: every failed libtrnsci call becomes a `TrnsciError`.

Role: turn a non-zero status of any family (runtime, BLAS, FFT, RNG,
solver) into an exception that carries the CUDA-style status code, its enum
name and the daemon's (or the library's) explanation from
trnsciGetLastErrorMessage. Invariant: `check*` read the message on the
calling thread right after the failed call, before any other trnsci call.
"""
from . import _lib as L


class TrnsciError(RuntimeError):
    """A libtrnsci call failed.

    Attributes: `status` (the numeric code of the family's status enum, the
    CUDA value), `name` (its enum name, e.g. "trnsciErrorInvalidValue"),
    `family` ("runtime", "blas", "fft", "rand", "solver"), `function` (the
    C function) and `message` (the daemon's or the library's explanation).
    """

    def __init__(self, family, function, status, name, message):
        self.family, self.function, self.status = family, function, status
        self.name, self.message = name, message
        text = f"{function}: {name} ({status})"
        if message:
            text += f": {message}"
        super().__init__(text)


def last_message():
    m = L.fn("trnsciGetLastErrorMessage", L.c_char_p)()
    return m.decode("utf-8", "replace") if m else ""


_NAMERS = {
    "runtime": "trnsciGetErrorName",
    "blas": "trnblasGetStatusName",
    "fft": "trnfftGetStatusName",
    "solver": "trnsolverGetStatusName",
}
_RAND_NAMES = {0: "TRNRAND_STATUS_SUCCESS", 100: "TRNRAND_STATUS_VERSION_MISMATCH",
               101: "TRNRAND_STATUS_NOT_INITIALIZED", 102: "TRNRAND_STATUS_ALLOCATION_FAILED",
               103: "TRNRAND_STATUS_TYPE_ERROR", 104: "TRNRAND_STATUS_OUT_OF_RANGE",
               105: "TRNRAND_STATUS_LENGTH_NOT_MULTIPLE",
               106: "TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED",
               201: "TRNRAND_STATUS_LAUNCH_FAILURE", 202: "TRNRAND_STATUS_PREEXISTING_FAILURE",
               203: "TRNRAND_STATUS_INITIALIZATION_FAILED", 204: "TRNRAND_STATUS_ARCH_MISMATCH",
               999: "TRNRAND_STATUS_INTERNAL_ERROR"}


def raise_status(family, function, status, message=None):
    if message is None:
        message = last_message()
    if family == "rand":
        name = _RAND_NAMES.get(status, "TRNRAND_STATUS_UNKNOWN")
    else:
        n = L.fn(_NAMERS[family], L.c_char_p, L.c_int)(status)
        name = n.decode() if n else str(status)
    raise TrnsciError(family, function, status, name, message)


def check(status, function, family="runtime"):
    """Raises TrnsciError unless status is 0 (success)."""
    if status:
        raise_status(family, function, status)
