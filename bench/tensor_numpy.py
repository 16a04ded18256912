#!/usr/bin/python3
"""The numpy side of bench/tensor.c: times numpy.einsum(SUBS, A, B,
optimize=True) on the operands the benchmark wrote, single-threaded
(OPENBLAS_NUM_THREADS=1, set before numpy loads) and pinned to one CPU.
Runs under Debian's /usr/bin/python3.

    tensor_numpy.py DIR CPU REPS

DIR/cases.txt: one case a line, "NAME SUBS EXTA EXTB" (comma lists);
DIR/NAME.a and NAME.b hold float32 operands, first mode fastest. Prints one
JSON object: {NAME: [ms, ...], ...}; each repetition is one einsum call
(allocating its result, as numpy code does). Writes DIR/NAME.numpy (the
result, float32, first mode fastest) for the benchmark to compare.
"""
import os
import sys

os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"

import json  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402


def main(argv):
    d, cpu, reps = argv[1], int(argv[2]), int(argv[3])
    if cpu >= 0:
        os.sched_setaffinity(0, {cpu})
    out = {}
    with open(os.path.join(d, "cases.txt")) as f:
        cases = [ln.split() for ln in f if ln.strip()]
    for name, subs, ea, eb in cases:
        sa = tuple(int(x) for x in ea.split(","))
        sb = tuple(int(x) for x in eb.split(","))
        a = np.fromfile(os.path.join(d, name + ".a"), dtype=np.float32).reshape(sa, order="F")
        b = np.fromfile(os.path.join(d, name + ".b"), dtype=np.float32).reshape(sb, order="F")
        r = np.einsum(subs, a, b, optimize=True)  # warm-up
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            r = np.einsum(subs, a, b, optimize=True)
            times.append((time.perf_counter() - t0) * 1e3)
        np.asarray(r, dtype=np.float32).ravel(order="F").tofile(os.path.join(d, name + ".numpy"))
        out[name] = times
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
