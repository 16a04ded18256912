#!/usr/bin/python3
"""Independent references for tests/integration/test_blas_rot.c: reference
BLAS's rotg and rotmg as scipy.linalg.blas has them (Debian's scipy, over
its BLAS; must run under /usr/bin/python3).

    blas_rot_ref.py IN OUT

IN has one problem a line, numbers as C's %a hexadecimal floats:

    rotg T ARE AIM BRE BIM     T in s d c z (AIM, BIM ignored for s, d)
    rotmg T D1 D2 X1 Y1        T in s d

OUT gets one line per problem, values as Python's float.hex():

    rotg: C SRE SIM            (SIM 0 for s, d)
    rotmg: FLAG H11 H21 H12 H22 (param as returned)

Exit status 0 on success, 1 with a message on failure.
"""
import sys

import numpy as np
from scipy.linalg import blas

REAL = {"s": np.float32, "d": np.float64, "c": np.float32, "z": np.float64}


def rotg(t, w):
    ar, ai, br, bi = (float.fromhex(v) for v in w)
    f = getattr(blas, t + "rotg")
    if t in "sd":
        c, s = f(REAL[t](ar), REAL[t](br))
        return [float(c), float(s), 0.0]
    ct = np.complex64 if t == "c" else np.complex128
    c, s = f(ct(complex(ar, ai)), ct(complex(br, bi)))
    s = complex(s)
    return [float(np.real(c)), s.real, s.imag]


def rotmg(t, w):
    d1, d2, x1, y1 = (REAL[t](float.fromhex(v)) for v in w)
    p = getattr(blas, t + "rotmg")(d1, d2, x1, y1)
    return [float(v) for v in p]


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 1
    out = []
    with open(argv[1]) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "rotg":
                vals = rotg(w[1], w[2:6])
            elif w[0] == "rotmg":
                vals = rotmg(w[1], w[2:6])
            else:
                print(f"unknown problem {w[0]}")
                return 1
            out.append(" ".join(float(v).hex() for v in vals))
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
