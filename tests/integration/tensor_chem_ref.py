#!/usr/bin/python3
"""Independent references for the trntensor fused chemistry tests
(test_tensor_chem.c), computed with Debian's numpy (run it under
/usr/bin/python3). All arrays are raw float64 files.

    tensor_chem_ref.py aotomo DIR
        DIR/meta.txt: "nbf nocc nvir naux"; Cocc (nbf x nocc) and Cvir
        (nbf x nvir) column-major and packed; L: (P|mu nu) at
        mu + nu*nbf + P*nbf*nbf. Writes B (numpy.einsum, shape (nocc, nvir,
        naux), C order: B[i,a,P] with P fastest) and Bmag (the same
        contraction of the absolute values, for the error bound).

    tensor_chem_ref.py mp2 DIR
        DIR/meta.txt: "nocc nvir naux"; B as above; eo (nocc), ev (nvir).
        Writes E.txt: "E S T" with E the DF-MP2 energy
        sum (ia|jb)(2(ia|jb) - (ib|ja)) / (e_i + e_j - e_a - e_b),
        S = sum ((4|v| + |v'|) W + |v| W') / |D| (v = (ia|jb), v' =
        (ib|ja), W = sum_P |B_iaP||B_jbP|, W' the same for v') and
        T = sum |terms|: the quantities the test's error bound needs.

Exit status 0, or 1 with a message.
"""
import os
import sys

import numpy as np


def load(d, name, shape):
    return np.fromfile(os.path.join(d, name), dtype=np.float64).reshape(shape)


def meta(d):
    with open(os.path.join(d, "meta.txt")) as f:
        return [int(x) for x in f.read().split()]


def aotomo(d):
    nbf, nocc, nvir, naux = meta(d)
    co = load(d, "Cocc", (nocc, nbf)).T  # co[mu, i]
    cv = load(d, "Cvir", (nvir, nbf)).T
    lr = load(d, "L", (naux, nbf, nbf))  # lr[P, nu, mu]
    b = np.einsum("mi,na,Pnm->iaP", co, cv, lr, optimize=True)
    bmag = np.einsum("mi,na,Pnm->iaP", abs(co), abs(cv), abs(lr), optimize=True)
    np.ascontiguousarray(b).tofile(os.path.join(d, "B.ref"))
    np.ascontiguousarray(bmag).tofile(os.path.join(d, "Bmag.ref"))


def mp2(d):
    nocc, nvir, naux = meta(d)
    b = load(d, "B", (nocc, nvir, naux))
    eo = load(d, "eo", (nocc,))
    ev = load(d, "ev", (nvir,))
    v = np.einsum("iaP,jbP->iajb", b, b, optimize=True)
    w = np.einsum("iaP,jbP->iajb", abs(b), abs(b), optimize=True)
    vt = v.transpose(0, 3, 2, 1)  # (ib|ja)
    wt = w.transpose(0, 3, 2, 1)
    den = eo[:, None, None, None] + eo[None, None, :, None] - ev[None, :, None, None] \
        - ev[None, None, None, :]
    t = v * (2.0 * v - vt) / den
    e = t.sum()
    s = (((4.0 * abs(v) + abs(vt)) * w + abs(v) * wt) / abs(den)).sum()
    with open(os.path.join(d, "E.txt"), "w") as f:
        f.write("%.17g %.17g %.17g\n" % (e, s, abs(t).sum()))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("aotomo", "mp2"):
        print("usage: tensor_chem_ref.py aotomo|mp2 DIR")
        return 1
    {"aotomo": aotomo, "mp2": mp2}[sys.argv[1]](sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
