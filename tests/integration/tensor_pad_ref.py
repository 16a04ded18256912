#!/usr/bin/python3
"""Independent references for tests/integration/test_tensor_pad.c, computed
with Debian's numpy (must run under /usr/bin/python3).

    tensor_pad_ref.py all DIR

DIR/manifest.txt lists one padded permutation a line:

    pad NAME TA TB TC ALPHA PADVALUE EXTA PERM LEFT RIGHT

NAME.a holds A (raw TA values, 32 or 64: float32 / float64, first mode
fastest). B's mode i is A's mode PERM[i]; B = ALPHA A formed in TC
(A converted to TC, the product in TC's numpy arithmetic), converted to TB,
then numpy.pad'ded with LEFT[i] / RIGHT[i] copies of PADVALUE (converted to
TB) along mode i. NAME.ref: the padded B, raw TB values, Fortran order.

Exit status 0 on success, 1 with a message on failure.
"""
import os
import sys

import numpy as np

TYPES = {"32": np.float32, "64": np.float64}


def ints(s):
    return [int(x) for x in s.split(",")]


def pad(d, f):
    name, ta, tb, tc = f[0], TYPES[f[1]], TYPES[f[2]], TYPES[f[3]]
    alpha, value = float(f[4]), float(f[5])
    ext, perm, left, right = ints(f[6]), ints(f[7]), ints(f[8]), ints(f[9])
    a = np.fromfile(os.path.join(d, name + ".a"), dtype=ta).reshape(ext, order="F")
    inner = (tc(alpha) * a.astype(tc)).astype(tc).astype(tb)
    inner = np.transpose(inner, perm)
    out = np.pad(inner, list(zip(left, right)), mode="constant", constant_values=tb(value))
    assert out.dtype == tb
    out.ravel(order="F").tofile(os.path.join(d, name + ".ref"))


def main(argv):
    if len(argv) != 3 or argv[1] != "all":
        print(__doc__)
        return 1
    d = argv[2]
    with open(os.path.join(d, "manifest.txt")) as m:
        for line in m:
            f = line.split()
            if not f:
                continue
            if f[0] != "pad":
                print("unknown problem kind", f[0])
                return 1
            pad(d, f[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
