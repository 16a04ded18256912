#!/usr/bin/python3
"""The trnsci Python package's cost over libtrnsci and against NumPy/SciPy.

    python_overhead.py [--trnscid PATH] [--lib PATH] [--cores N] [--repeats R]
                       [--address ADDR]

Starts its own trnscid (the build tree's unless --trnscid; --cores N, default
1) on a private socket, or uses --address. Run it from the source tree with
TRNSCI_LIB (or --lib) naming libtrnsci.so, or after installing. Prints one
JSON object; every figure is the median over R repeats:
  overhead_1x1:  a 1×1 float32 matmul into a given output,
                 trnsci.linalg.matmul(a, b, out=c), against the same C calls
                 (trnblasGemmEx, trnsciStreamSynchronize) made through ctypes
                 with prepared prototypes; overhead_us is the difference. The
                 cost of one ctypes call (a trivial C function) is reported
                 too, as it is inside both figures.
  matmul_2048:   `a @ b` on 2048×2048 float32 device arrays (a new output
                 each time, as NumPy's) against NumPy's `@` in this process
                 with OPENBLAS_NUM_THREADS = N (the daemon's cores): ratio is
                 numpy_ms / trnsci_ms (≥ 1: trnsci is as fast or faster).
  fft_2^20:      trnsci.fft.fft of 2^20 complex64 against numpy.fft.fft (which
                 computes in complex128) and scipy.fft.fft (complex64).
Pin it with taskset for comparable figures.
"""
import argparse
import json
import os
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("--trnscid", default=None)
ap.add_argument("--lib", default=None)
ap.add_argument("--cores", type=int, default=1)
ap.add_argument("--repeats", type=int, default=7)
ap.add_argument("--address", default=None)
args = ap.parse_args()
# NumPy's OpenBLAS reads its thread count when it loads: set it first.
os.environ["OPENBLAS_NUM_THREADS"] = str(args.cores)
if args.lib:
    os.environ["TRNSCI_LIB"] = args.lib
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))

import ctypes  # noqa: E402
import subprocess  # noqa: E402

import numpy as np  # noqa: E402
import scipy.fft  # noqa: E402

import trnsci  # noqa: E402
from trnsci import _handles, _lib as L, linalg  # noqa: E402


def median_s(fn, repeats, inner=1):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return float(np.median(times))


def openblas_corename():
    try:
        lib = ctypes.CDLL("libopenblas.so.0")
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return lib.openblas_get_corename().decode()
    except (OSError, AttributeError):
        return "unknown"


class _SelfTestSummary(ctypes.Structure):
    _fields_ = [("checked", ctypes.c_uint), ("passed", ctypes.c_uint),
                ("replaced", ctypes.c_uint), ("refused", ctypes.c_uint),
                ("seconds", ctypes.c_double), ("processes", ctypes.c_uint),
                ("blasCore", ctypes.c_char * 32), ("blasConfig", ctypes.c_char * 160),
                ("blasWhy", ctypes.c_char * 256), ("finishedUnixMs", ctypes.c_uint64),
                ("onDemand", ctypes.c_int)]


def daemon_corename(addr):
    """The OpenBLAS kernel set the daemon runs (its self-test summary)."""
    s, n = _SelfTestSummary(), ctypes.c_int(0)
    f = L.fn("trnsciDaemonSelfTest", L.c_int, L.c_char_p, L.c_int, L.c_void_p, L.c_int,
             L.P(L.c_int), L.P(_SelfTestSummary))
    if f(addr.encode(), 0, None, 0, L.byref(n), L.byref(s)):
        return "unknown"
    return s.blasCore.decode()


def start_daemon():
    exe = args.trnscid or os.path.join(here, "..", "build", "trnscid")
    tmp = tempfile.mkdtemp(prefix="trnsci-bench-py-")
    addr = "unix:" + os.path.join(tmp, "trnscid.sock")
    proc = subprocess.Popen([exe, "--listen", addr, "--cores", str(args.cores)],
                            stderr=open(os.path.join(tmp, "trnscid.log"), "w"))
    for _ in range(600):
        try:
            trnsci.status(addr)
            return proc, addr
        except trnsci.TrnsciError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("trnscid did not come up")


def overhead_1x1(r):
    a = trnsci.asarray(np.ones((1, 1), np.float32))
    b = trnsci.asarray(np.ones((1, 1), np.float32))
    c = trnsci.zeros((1, 1), np.float32)
    gemm = L.fn("trnblasGemmEx", *([L.c_int] + [L.c_void_p] + [L.c_int] * 5 +
                                   [L.c_void_p] * 2 + [L.c_int] * 2 + [L.c_void_p, L.c_int,
                                   L.c_int, L.c_void_p, L.c_void_p, L.c_int, L.c_int, L.c_int,
                                   L.c_int]))
    sync = L.fn("trnsciStreamSynchronize", L.c_int, L.c_void_p)
    h = _handles.blas()
    one, zero = ctypes.c_float(1), ctypes.c_float(0)
    pa, pb, pc = a.ptr, b.ptr, c.ptr
    one_r, zero_r = ctypes.byref(one), ctypes.byref(zero)

    def c_calls():
        gemm(h, 0, 0, 1, 1, 1, one_r, pa, 0, 1, pb, 0, 1, zero_r, pc, 0, 1, 68, -1)
        sync(None)

    def py_call():
        linalg.matmul(a, b, out=c)

    peek = L.fn("trnsciPeekAtLastError", L.c_int)
    inner = 2000
    for f in (c_calls, py_call):
        f()
    # Interleave the two so that drift on a shared machine hits both alike.
    tc, tp = [], []
    for _ in range(r):
        tc.append(median_s(c_calls, 1, inner))
        tp.append(median_s(py_call, 1, inner))
    c_us, py_us = 1e6 * float(np.median(tc)), 1e6 * float(np.median(tp))
    assert c.get()[0, 0] == 1.0
    return {"c_calls_us": c_us, "trnsci_us": py_us, "overhead_us": py_us - c_us,
            "ctypes_call_us": 1e6 * median_s(peek, r, 20000), "inner": inner}


def matmul_2048(r):
    n = 2048
    rng = np.random.default_rng(1)
    A = rng.standard_normal((n, n)).astype(np.float32)
    B = rng.standard_normal((n, n)).astype(np.float32)
    a, b = trnsci.asarray(A), trnsci.asarray(B)
    a @ b
    A @ B
    t_np, t_tr = [], []
    for _ in range(r):
        t_np.append(median_s(lambda: A @ B, 1))
        t_tr.append(median_s(lambda: a @ b, 1))
    np_ms, tr_ms = 1e3 * float(np.median(t_np)), 1e3 * float(np.median(t_tr))
    return {"n": n, "trnsci_ms": tr_ms, "numpy_ms": np_ms, "ratio": np_ms / tr_ms,
            "trnsci_gflops": 2 * n**3 / tr_ms / 1e6}


def fft_2_20(r):
    n = 1 << 20
    rng = np.random.default_rng(2)
    X = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    x = trnsci.asarray(X)
    trnsci.fft.fft(x)  # plans (FFTW_MEASURE in the daemon) before timing
    np.fft.fft(X)
    scipy.fft.fft(X)
    t = {"trnsci": [], "numpy": [], "scipy": []}
    for _ in range(r):
        t["trnsci"].append(median_s(lambda: trnsci.fft.fft(x), 1))
        t["numpy"].append(median_s(lambda: np.fft.fft(X), 1))
        t["scipy"].append(median_s(lambda: scipy.fft.fft(X), 1))
    ms = {k: 1e3 * float(np.median(v)) for k, v in t.items()}
    return {"n": n, "trnsci_ms": ms["trnsci"], "numpy_ms": ms["numpy"], "scipy_ms": ms["scipy"],
            "ratio_numpy": ms["numpy"] / ms["trnsci"], "ratio_scipy": ms["scipy"] / ms["trnsci"]}


def main():
    proc = None
    addr = args.address
    if addr is None:
        proc, addr = start_daemon()
    try:
        trnsci.connect(addr)
        out = {"address_kind": "local" if addr.startswith("unix:") else "grpc",
               "cores": args.cores, "repeats": args.repeats,
               "openblas_corename": openblas_corename(),
               "daemon_openblas_corename": daemon_corename(addr),
               "openblas_coretype_env": os.environ.get("OPENBLAS_CORETYPE", ""),
               "numpy": np.__version__, "scipy": scipy.__version__,
               "overhead_1x1": overhead_1x1(args.repeats),
               "matmul_2048": matmul_2048(args.repeats),
               "fft_2^20": fft_2_20(args.repeats)}
        print(json.dumps(out, indent=1))
    finally:
        trnsci.reset()
        if proc:
            proc.terminate()
            proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
