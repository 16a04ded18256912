#!/usr/bin/python3
"""Independent references for tests/integration/test_tensor_half.c, computed
with Debian's numpy (must run under /usr/bin/python3).

    tensor_half_ref.py all DIR

DIR/manifest.txt lists one problem a line. Operands are raw float32 files
DIR/NAME.a, .b, .c holding values exact in the 16-bit type TYPE (16F:
binary16, 16BF: bfloat16), first mode fastest. EXT gives each mode letter's
extent ("a=3,b=4").

    contract NAME TYPE MA MB MD EXT ALPHA BETA
        D = ALPHA einsum(MA,MB->MD, A, B) + BETA C in float64: NAME.ref, and
        NAME.abs the same on magnitudes (float64).
    binary NAME TYPE MA MC MD EXT ALPHA GAMMA
        D = ALPHA A + GAMMA C (A, C broadcast over MD) in float64: .ref, .abs.
    reduce NAME TYPE MA MD EXT ALPHA
        D = ALPHA sum of A over the modes not in MD, float64: .ref, .abs.
    permute NAME TYPE MA MD EXT ALPHA PADVALUE LEFT RIGHT
        D = ALPHA A in numpy's float32 arithmetic, rounded to TYPE (to nearest
        even: numpy's astype(float16); bfloat16 by rounding the float32 bits),
        numpy.pad'ded with PADVALUE: NAME.ref, the raw 16-bit patterns.

Exit status 0 on success, 1 with a message on failure.
"""
import os
import sys

import numpy as np


def extents(s):
    return {kv.split("=")[0]: int(kv.split("=")[1]) for kv in s.split(",")}


def load(d, name, suffix, m, ext):
    shape = tuple(ext[c] for c in m)
    a = np.fromfile(os.path.join(d, name + suffix), dtype=np.float32).astype(np.float64)
    return a.reshape(shape, order="F")


def save(d, name, ref, mag):
    np.asarray(ref, dtype=np.float64).ravel(order="F").tofile(os.path.join(d, name + ".ref"))
    np.asarray(mag, dtype=np.float64).ravel(order="F").tofile(os.path.join(d, name + ".abs"))


def expand(x, m, md):
    order = [m.index(c) for c in md if c in m]
    x = np.transpose(x, order) if order else x
    shape = [x.shape[order.index(m.index(c))] if c in m else 1 for c in md]
    return x.reshape(shape)


def bits16(x32, t):
    """float32 array -> uint16 patterns of TYPE, to nearest even."""
    x32 = np.asarray(x32, dtype=np.float32)
    if t == "16F":
        return x32.astype(np.float16).view(np.uint16)
    u = x32.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def contract(d, f):
    name, t, ma, mb, md, ext = f[0], f[1], f[2], f[3], f[4], extents(f[5])
    alpha, beta = float(f[6]), float(f[7])
    a, b = load(d, name, ".a", ma, ext), load(d, name, ".b", mb, ext)
    subs = ma + "," + mb + "->" + md
    ref = alpha * np.einsum(subs, a, b)
    mag = abs(alpha) * np.einsum(subs, np.abs(a), np.abs(b))
    if beta != 0:
        c = load(d, name, ".c", md, ext)
        ref, mag = ref + beta * c, mag + abs(beta) * np.abs(c)
    save(d, name, ref, mag)


def binary(d, f):
    name, t, ma, mc, md, ext = f[0], f[1], f[2], f[3], f[4], extents(f[5])
    alpha, gamma = float(f[6]), float(f[7])
    a = expand(load(d, name, ".a", ma, ext), ma, md)
    c = expand(load(d, name, ".c", mc, ext), mc, md)
    shape = tuple(ext[ch] for ch in md)
    save(d, name, np.broadcast_to(alpha * a + gamma * c, shape),
         np.broadcast_to(abs(alpha) * np.abs(a) + abs(gamma) * np.abs(c), shape))


def reduce(d, f):
    name, t, ma, md, ext, alpha = f[0], f[1], f[2], f[3], extents(f[4]), float(f[5])
    a = load(d, name, ".a", ma, ext)
    axes = tuple(i for i, ch in enumerate(ma) if ch not in md)
    kept = "".join(ch for ch in ma if ch in md)
    shape = tuple(ext[ch] for ch in md)
    ref = expand(alpha * np.sum(a, axis=axes), kept, md).reshape(shape)
    mag = expand(abs(alpha) * np.sum(np.abs(a), axis=axes), kept, md).reshape(shape)
    save(d, name, ref, mag)


def permute(d, f):
    name, t, ma, md, ext = f[0], f[1], f[2], f[3], extents(f[4])
    alpha, value = np.float32(f[5]), np.float32(f[6])
    left = [int(x) for x in f[7].split(",")]
    right = [int(x) for x in f[8].split(",")]
    a = load(d, name, ".a", ma, ext).astype(np.float32)
    inner = np.transpose(alpha * a, [ma.index(ch) for ch in md]).astype(np.float32)
    out = bits16(inner, t)
    out = np.pad(out, list(zip(left, right)), constant_values=bits16(np.array([value]), t)[0])
    out.ravel(order="F").tofile(os.path.join(d, name + ".ref"))


def main(argv):
    if len(argv) != 3 or argv[1] != "all":
        print(__doc__)
        return 1
    d = argv[2]
    kinds = {"contract": contract, "binary": binary, "reduce": reduce, "permute": permute}
    with open(os.path.join(d, "manifest.txt")) as m:
        for line in m:
            f = line.split()
            if f:
                kinds[f[0]](d, f[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
