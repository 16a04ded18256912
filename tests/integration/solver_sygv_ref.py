#!/usr/bin/python3
"""Independent references for tests/integration/test_solver_sygv.c, computed
with Debian's numpy/scipy (must run under /usr/bin/python3).

    solver_sygv_ref.py DIR

DIR/manifest.txt lists one problem a line:

    geig NAME TYPE N ITYPE all               every eigenvalue of the pencil
    geig NAME TYPE N ITYPE index IL IU       the IL-th to IU-th (1-based)
    geig NAME TYPE N ITYPE value VL VU       those in the half-open (VL, VU]
        scipy.linalg.eigh(a, b, type=ITYPE, lower=True, subset_by_index /
        subset_by_value) on DIR/NAME.a and the positive definite DIR/NAME.b;
        written as the count, then the values ascending
    svd NAME TYPE M N BATCH                  the singular values of BATCH
        M x N matrices stored one after another in DIR/NAME.a
        (numpy.linalg.svd), descending, min(M, N) per matrix

TYPE is f32, f64, c64 or c128: the element type of the raw, column-major,
native-endian matrices, unpadded. Values are computed in double from the
stored values and written to DIR/NAME.out as float64. Exit status 0 on
success, 1 with a message on failure.
"""
import os
import sys

import numpy as np
from scipy import linalg

DTYPES = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def load(path, typ, rows, cols, count=1):
    a = np.fromfile(path, dtype=DTYPES[typ])
    if a.size != rows * cols * count:
        raise ValueError(f"{path}: {a.size} elements, expected {count} x {rows} x {cols}")
    wide = np.complex128 if typ.startswith("c") else np.float64
    return [a[k * rows * cols:(k + 1) * rows * cols].reshape((cols, rows)).T.astype(wide)
            for k in range(count)]


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 1
    d = argv[1]
    with open(os.path.join(d, "manifest.txt")) as f:
        lines = [ln.split() for ln in f if ln.strip()]
    for w in lines:
        kind, name, typ = w[0], w[1], w[2]
        base = os.path.join(d, name)
        if kind == "geig":
            n, itype, sel = int(w[3]), int(w[4]), w[5]
            a = load(base + ".a", typ, n, n)[0]
            b = load(base + ".b", typ, n, n)[0]
            extra = {}
            if sel == "index":
                extra["subset_by_index"] = [int(w[6]) - 1, int(w[7]) - 1]
            elif sel == "value":
                extra["subset_by_value"] = (float(w[6]), float(w[7]))
            vals = linalg.eigh(a, b, type=itype, lower=True, eigvals_only=True, **extra)
            out = np.concatenate(([float(len(vals))], np.asarray(vals, dtype=np.float64)))
        elif kind == "svd":
            m, n, batch = int(w[3]), int(w[4]), int(w[5])
            mats = load(base + ".a", typ, m, n, batch)
            out = np.concatenate([np.linalg.svd(x, compute_uv=False) for x in mats])
        else:
            raise ValueError(f"unknown problem kind {kind}")
        np.asarray(out, dtype=np.float64).tofile(base + ".out")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 - any failure is reported to the test
        print(f"solver_sygv_ref.py: {e}", file=sys.stderr)
        sys.exit(1)
