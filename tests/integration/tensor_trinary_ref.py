#!/usr/bin/python3
"""Independent references for tests/integration/test_tensor_trinary.c,
computed with Debian's numpy in complex128 (must run under /usr/bin/python3).

    tensor_trinary_ref.py all DIR

DIR/manifest.txt lists one problem a line. Operands are raw complex128 files
DIR/NAME.0, .1, .2 (inputs in order) and NAME.d (the addend), first mode
fastest (Fortran order). EXT gives each mode letter's extent ("a=3,b=4").

    con NAME ME EXT ARE AIM BRE BIM M0:OP0[,M1:OP1[,M2:OP2]]
        E = ALPHA einsum(M0,M1,M2->ME, op0(X0), ...) + BETA D (D read when
        BETA != 0); OP is a cutensorOperator_t number (1 IDENTITY, 9 CONJ).
        One input is a reduction (a sum), two a binary contraction, three a
        trinary one.
    ew NAME ME EXT ARE AIM GRE GIM MA MC
        E = ALPHA A + GAMMA C, A and C broadcast over E's modes.

Each writes NAME.ref (complex128), NAME.abs (float64: the same formula on
the operands' and scalars' magnitudes, the S of the error bounds), Fortran
order over E's modes, and NAME.k (float64, one value: the number of terms
an element's error bound counts: for three inputs the largest k1 + k2 over
the three pairwise orders, k1 and k2 the products of the extents summed by
the first and the second step; else the product of the summed extents).

Exit status 0 on success, 1 with a message on failure.
"""
import os
import sys

import numpy as np


def extents(s):
    return {kv.split("=")[0]: int(kv.split("=")[1]) for kv in s.split(",")}


def modes(s):
    return "" if s == "-" else s


def load(d, name, suffix, m, ext):
    shape = tuple(ext[c] for c in m)
    a = np.fromfile(os.path.join(d, name + suffix), dtype=np.complex128)
    return a.reshape(shape, order="F") if shape else a.reshape(())


def save(d, name, ref, mag, k):
    np.asarray(ref, dtype=np.complex128).ravel(order="F").tofile(os.path.join(d, name + ".ref"))
    np.asarray(mag, dtype=np.float64).ravel(order="F").tofile(os.path.join(d, name + ".abs"))
    np.asarray([k], dtype=np.float64).tofile(os.path.join(d, name + ".k"))


def prod(ext, letters):
    p = 1
    for c in set(letters):
        p *= ext[c]
    return p


def terms(ms, me, ext):
    """The k of the bound (see the module's comment)."""
    if len(ms) < 3:
        return prod(ext, [c for c in "".join(ms) if c not in me])
    worst = 0
    for x, y, z in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
        pair = set(ms[x]) | set(ms[y])
        t = {c for c in pair if c in ms[z] or c in me}
        k1 = prod(ext, [c for c in pair if c not in t])
        k2 = prod(ext, [c for c in t | set(ms[z]) if c not in me])
        worst = max(worst, k1 + k2)
    return worst


def con(d, f):
    name, me, ext = f[0], modes(f[1]), extents(f[2])
    alpha, beta = complex(float(f[3]), float(f[4])), complex(float(f[5]), float(f[6]))
    ms, xs = [], []
    for i, part in enumerate(f[7].split(",")):
        m, op = part.split(":")
        m = modes(m)
        x = load(d, name, ".%d" % i, m, ext)
        ms.append(m)
        xs.append(np.conj(x) if int(op) == 9 else x)
    spec = ",".join(ms) + "->" + me
    ref = alpha * np.einsum(spec, *xs)
    mag = abs(alpha) * np.einsum(spec, *[np.abs(x) for x in xs])
    if beta != 0:
        dd = load(d, name, ".d", me, ext)
        ref = ref + beta * dd
        mag = mag + abs(beta) * np.abs(dd)
    save(d, name, ref, mag, terms(ms, me, ext))


def expand(x, m, md):
    order = [m.index(c) for c in md if c in m]
    x = np.transpose(x, order) if order else x
    shape = [x.shape[order.index(m.index(c))] if c in m else 1 for c in md]
    return x.reshape(shape)


def ew(d, f):
    name, me, ext = f[0], modes(f[1]), extents(f[2])
    alpha, gamma = complex(float(f[3]), float(f[4])), complex(float(f[5]), float(f[6]))
    ma, mc = modes(f[7]), modes(f[8])
    a = expand(load(d, name, ".0", ma, ext), ma, me)
    c = expand(load(d, name, ".1", mc, ext), mc, me)
    shape = tuple(ext[x] for x in me)
    ref = np.broadcast_to(alpha * a + gamma * c, shape)
    mag = np.broadcast_to(abs(alpha) * np.abs(a) + abs(gamma) * np.abs(c), shape)
    save(d, name, ref, mag, 1)


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "all":
        print(__doc__, file=sys.stderr)
        return 1
    d = sys.argv[2]
    with open(os.path.join(d, "manifest.txt")) as m:
        for line in m:
            f = line.split()
            if not f:
                continue
            {"con": con, "ew": ew}[f[0]](d, f[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
