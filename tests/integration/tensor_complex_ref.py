#!/usr/bin/python3
"""Independent references for tests/integration/test_tensor_complex.c,
computed with Debian's numpy in complex128 (must run under /usr/bin/python3).

    tensor_complex_ref.py all DIR

DIR/manifest.txt lists one problem a line. Operands are raw complex128 files
DIR/NAME.a, .b, .c, first mode fastest (Fortran order). EXT gives each mode
letter's extent ("a=3,b=4"); an operand's modes are a string of letters, "-"
for an absent operand or a scalar. Scalars are RE IM pairs. Operators are
cutensorOperator_t numbers (1 IDENTITY, 9 CONJ; 3 ADD, 5 MUL).

    contract NAME MA MB MD EXT OPA OPB ALPHA BETA
        D = ALPHA einsum(MA,MB->MD, opA(A), opB(B)) + BETA C (C read when
        BETA != 0).
    ew NAME MA MB MC MD EXT OPA OPB OPC OPAB OPABC ALPHA BETA GAMMA
        D = OPABC(OPAB(ALPHA opA(A), BETA opB(B)), GAMMA opC(C)), inputs
        broadcast over D's modes; B and/or C may be absent ("-").
    reduce NAME MA MD EXT OPA OPRED ALPHA BETA
        D = ALPHA OPRED(opA(A)) over the modes of MA not in MD + BETA C.
    pad NAME MA MD EXT OPA ALPHA PADVALUE LEFT RIGHT
        the permutation D = ALPHA opA(A) padded by LEFT / RIGHT positions of
        PADVALUE per mode of D (comma lists).

Each writes NAME.ref (complex128) and NAME.abs (float64: the same formula on
the operands' and scalars' magnitudes, the S of the error bounds), Fortran
order over D's modes.

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


def save(d, name, ref, mag):
    np.asarray(ref, dtype=np.complex128).ravel(order="F").tofile(os.path.join(d, name + ".ref"))
    np.asarray(mag, dtype=np.float64).ravel(order="F").tofile(os.path.join(d, name + ".abs"))


def unary(op, x):
    return np.conj(x) if int(op) == 9 else x


def binary(op, x, y):
    return x * y if int(op) == 5 else x + y


def expand(x, m, md):
    """x (axes named by m) as an array broadcastable over md."""
    order = [m.index(c) for c in md if c in m]
    x = np.transpose(x, order) if order else x
    shape = [x.shape[order.index(m.index(c))] if c in m else 1 for c in md]
    return x.reshape(shape)


def scalar(re, im):
    return complex(float(re), float(im))


def contract(d, f):
    name, ma, mb, md, ext = f[0], modes(f[1]), modes(f[2]), modes(f[3]), extents(f[4])
    opa, opb = f[5], f[6]
    alpha, beta = scalar(f[7], f[8]), scalar(f[9], f[10])
    a, b = load(d, name, ".a", ma, ext), load(d, name, ".b", mb, ext)
    subs = ma + "," + mb + "->" + md
    ref = alpha * np.einsum(subs, unary(opa, a), unary(opb, b))
    mag = abs(alpha) * np.einsum(subs, np.abs(a), np.abs(b))
    if beta != 0:
        c = load(d, name, ".c", md, ext)
        ref = ref + beta * c
        mag = mag + abs(beta) * np.abs(c)
    save(d, name, ref, mag)


def ew(d, f):
    name, ma, mb, mc, md = f[0], modes(f[1]), f[2], f[3], modes(f[4])
    ext = extents(f[5])
    opa, opb, opc, opab, opabc = f[6:11]
    alpha, beta, gamma = scalar(f[11], f[12]), scalar(f[13], f[14]), scalar(f[15], f[16])
    a = expand(load(d, name, ".a", ma, ext), ma, md)
    ref, mag = alpha * unary(opa, a), abs(alpha) * np.abs(a)
    if mb != "-":
        b = expand(load(d, name, ".b", modes(mb), ext), modes(mb), md)
        ref = binary(opab, ref, beta * unary(opb, b))
        mag = binary(opab, mag, abs(beta) * np.abs(b))
    if mc != "-":
        c = expand(load(d, name, ".c", modes(mc), ext), modes(mc), md)
        ref = binary(opabc, ref, gamma * unary(opc, c))
        mag = binary(opabc, mag, abs(gamma) * np.abs(c))
    shape = tuple(ext[ch] for ch in md)
    save(d, name, np.broadcast_to(ref, shape), np.broadcast_to(mag, shape))


def reduce(d, f):
    name, ma, md, ext = f[0], modes(f[1]), modes(f[2]), extents(f[3])
    opa, opred = f[4], int(f[5])
    alpha, beta = scalar(f[6], f[7]), scalar(f[8], f[9])
    a = unary(opa, load(d, name, ".a", ma, ext))
    axes = tuple(i for i, ch in enumerate(ma) if ch not in md)
    red = np.prod if opred == 5 else np.sum
    kept = "".join(ch for ch in ma if ch in md)
    r = expand(red(a, axis=axes), kept, md)
    m = expand(red(np.abs(a), axis=axes), kept, md)
    shape = tuple(ext[ch] for ch in md)
    ref, mag = alpha * r.reshape(shape), abs(alpha) * m.reshape(shape)
    if beta != 0:
        c = load(d, name, ".c", md, ext)
        ref, mag = ref + beta * c, mag + abs(beta) * np.abs(c)
    save(d, name, ref, mag)


def pad(d, f):
    name, ma, md, ext = f[0], modes(f[1]), modes(f[2]), extents(f[3])
    opa, alpha, value = f[4], scalar(f[5], f[6]), scalar(f[7], f[8])
    left = [int(x) for x in f[9].split(",")]
    right = [int(x) for x in f[10].split(",")]
    a = load(d, name, ".a", ma, ext)
    inner = np.transpose(alpha * unary(opa, a), [ma.index(ch) for ch in md])
    mag = np.transpose(abs(alpha) * np.abs(a), [ma.index(ch) for ch in md])
    widths = list(zip(left, right))
    save(d, name, np.pad(inner, widths, constant_values=value),
         np.pad(mag, widths, constant_values=abs(value)))


def main(argv):
    if len(argv) != 3 or argv[1] != "all":
        print(__doc__)
        return 1
    d = argv[2]
    kinds = {"contract": contract, "ew": ew, "reduce": reduce, "pad": pad}
    with open(os.path.join(d, "manifest.txt")) as m:
        for line in m:
            f = line.split()
            if f:
                kinds[f[0]](d, f[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
