#!/usr/bin/python3
"""Independent references for tests/integration/test_tensor.c, computed with
Debian's numpy (must run under /usr/bin/python3).

    tensor_ref.py all DIR

DIR/manifest.txt lists one problem a line (operands are raw float64 files
DIR/NAME.a, .b, .c holding the logical tensor, first mode fastest, i.e.
Fortran order; EXT is a comma list of extents, "-" for a scalar):

    einsum NAME SUBS ALPHA BETA EXTA [EXTB] EXTC
        NAME.ref = ALPHA einsum(SUBS, A[, B]) + BETA C and
        NAME.abs = |ALPHA| einsum(SUBS, |A|[, |B|]) + |BETA| |C|
        (the S of the error bounds), both in float64, Fortran order.
    ew NAME MA MB MC MD OPA OPB OPC OPAB OPABC ALPHA BETA GAMMA EXTD
        element-wise D = OPABC(OPAB(ALPHA opA(A), BETA opB(B)), GAMMA opC(C))
        (cutensorOperator_t numbers; modes as letters, "-" for an absent
        operand) broadcast over D's modes MD: NAME.ref.
    reduce NAME MA MD OPA OPRED ALPHA BETA EXTA
        D = ALPHA reduce_OPRED(opA(A)) over the modes of MA not in MD
        + BETA C: NAME.ref.
    convert NAME TA TB TC OPA ALPHA MA MB EXTA
        a permutation B = ALPHA opA(A) from type TA to TB (32 or 64: float32,
        float64) computed in TC: A (NAME.a holds values exact in TA) is
        converted to TC, ALPHA opA(A) formed in TC's numpy arithmetic and
        converted to TB: NAME.ref, raw TB values in B's modes MB, Fortran
        order. NAME.real: ALPHA opA(A) in float64 (for the error bounds).
    path NAME SUBS EXT...
        numpy.einsum_path(SUBS, optimize="optimal") on operands of those
        extents: NAME.path, the pairs as int32.

Exit status 0 on success, 1 with a message on failure.
"""
import os
import sys

import numpy as np


def ext(s):
    return () if s == "-" else tuple(int(x) for x in s.split(","))


def load(d, name, suffix, shape):
    a = np.fromfile(os.path.join(d, name + suffix), dtype=np.float64)
    return a.reshape(shape, order="F") if shape else a.reshape(())


def save(d, name, suffix, a):
    np.asarray(a, dtype=np.float64).ravel(order="F").tofile(os.path.join(d, name + suffix))


UNARY = {
    1: lambda x: x, 2: np.sqrt, 8: lambda x: np.maximum(x, 0), 9: lambda x: x,
    10: lambda x: 1 / x, 11: lambda x: 1 / (1 + np.exp(-x)), 12: np.tanh, 22: np.exp,
    23: np.log, 24: np.abs, 25: lambda x: -x, 26: np.sin, 27: np.cos,
}
BINARY = {3: np.add, 5: np.multiply, 6: np.maximum, 7: np.minimum}
REDUCE = {3: np.sum, 5: np.prod, 6: np.max, 7: np.min}


def expand(x, modes, dmodes):
    """x (axes named by modes) as an array broadcastable over dmodes."""
    order = [modes.index(m) for m in dmodes if m in modes]
    x = np.transpose(x, order) if order else x
    shape = [x.shape[order.index(modes.index(m))] if m in modes else 1 for m in dmodes]
    return x.reshape(shape)


def main(argv):
    d = argv[-1]
    with open(os.path.join(d, "manifest.txt")) as f:
        lines = [ln.split() for ln in f if ln.strip()]
    for w in lines:
        kind, name = w[0], w[1]
        if kind == "einsum":
            subs, alpha, beta = w[2], float(w[3]), float(w[4])
            exts = [ext(x) for x in w[5:]]
            ops = [load(d, name, s, e) for s, e in zip([".a", ".b"], exts[:-1])]
            c = load(d, name, ".c", exts[-1])
            ref = alpha * np.einsum(subs, *ops) + beta * c
            s = abs(alpha) * np.einsum(subs, *[np.abs(o) for o in ops]) + abs(beta) * np.abs(c)
            save(d, name, ".ref", ref)
            save(d, name, ".abs", s)
        elif kind == "ew":
            ma, mb, mc, md = w[2:6]
            opa, opb, opc, opab, opabc = (int(x) for x in w[6:11])
            alpha, beta, gamma = (float(x) for x in w[11:14])
            dext = ext(w[14])
            md = "" if md == "-" else md
            shape_of = lambda m: tuple(dext[md.index(ch)] for ch in m)
            v = alpha * UNARY[opa](expand(load(d, name, ".a", shape_of(ma)), ma, md))
            if mb != "-":
                b = expand(load(d, name, ".b", shape_of(mb)), mb, md)
                v = BINARY[opab](v, beta * UNARY[opb](b))
            if mc != "-":
                c = expand(load(d, name, ".c", shape_of(mc)), mc, md)
                v = BINARY[opabc](v, gamma * UNARY[opc](c))
            save(d, name, ".ref", np.broadcast_to(v, dext))
        elif kind == "reduce":
            ma, md = w[2], ("" if w[3] == "-" else w[3])
            opa, opred = int(w[4]), int(w[5])
            alpha, beta = float(w[6]), float(w[7])
            aext = ext(w[8])
            a = UNARY[opa](load(d, name, ".a", aext))
            axes = tuple(i for i, m in enumerate(ma) if m not in md)
            r = REDUCE[opred](a, axis=axes) if axes else a
            kept = "".join(m for m in ma if m in md)
            r = np.transpose(r, [kept.index(m) for m in md]) if md else r
            c = load(d, name, ".c", tuple(aext[ma.index(m)] for m in md))
            save(d, name, ".ref", alpha * r + beta * c)
        elif kind == "convert":
            dt = {"32": np.float32, "64": np.float64}
            ta, tb, tc = dt[w[2]], dt[w[3]], dt[w[4]]
            opa, alpha = int(w[5]), float(w[6])
            ma, mb = w[7], w[8]
            a = load(d, name, ".a", ext(w[9]))
            # Overflow to infinity and NaN are part of the cases.
            with np.errstate(over="ignore", invalid="ignore"):
                x = a.astype(ta).astype(tc)
                v = tc(alpha) * UNARY[opa](x)
                out = expand(v, ma, mb).astype(tb)
                real = expand(alpha * UNARY[opa](a), ma, mb)
            out.ravel(order="F").tofile(os.path.join(d, name + ".ref"))
            save(d, name, ".real", real)
        elif kind == "path":
            subs = w[2]
            ops = [np.zeros(ext(x)) for x in w[3:]]
            p, _ = np.einsum_path(subs, *ops, optimize="optimal")
            np.array([i for pair in p[1:] for i in pair], dtype=np.int32).tofile(
                os.path.join(d, name + ".path"))
        else:
            raise ValueError(f"unknown problem kind {kind}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 - report anything to the test
        print(f"tensor_ref.py: {e}", file=sys.stderr)
        sys.exit(1)
