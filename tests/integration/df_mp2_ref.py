#!/usr/bin/python3
"""A numpy DF-MP2 reference for examples/df_mp2 (run it under Debian's
/usr/bin/python3), on the same .npy inputs the example reads:

    df_mp2_ref.py DIR NOCC

DIR/Lpq.npy (naux, nbf, nbf) = (P|mu nu), DIR/metric.npy (naux, naux) = (P|Q),
DIR/C.npy (nbf, nmo), DIR/eps.npy (nmo). Prints one line:
"E S T kappa": the DF-MP2 correlation energy in float64,

    B_raw[i,a,Q] = sum C[mu,i] C[nu,a] (Q|mu nu)      (numpy.einsum)
    B = L^-1 B_raw, J = L L^T                          (numpy.linalg.cholesky, solve)
    E = sum (ia|jb) (2 (ia|jb) - (ib|ja)) / (e_i + e_j - e_a - e_b),

S = sum ((4|v| + |v'|) W + |v| W') / |D| (v = (ia|jb), v' = (ib|ja),
W = sum_P |B_iaP||B_jbP|), T = sum |terms| and kappa = cond_2(J): what the
test's error bound needs.
"""
import os
import sys

import numpy as np


def main():
    if len(sys.argv) != 3:
        print("usage: df_mp2_ref.py DIR NOCC")
        return 1
    d, nocc = sys.argv[1], int(sys.argv[2])
    lpq = np.load(os.path.join(d, "Lpq.npy")).astype(np.float64)
    j = np.load(os.path.join(d, "metric.npy")).astype(np.float64)
    c = np.load(os.path.join(d, "C.npy")).astype(np.float64)
    eps = np.load(os.path.join(d, "eps.npy")).astype(np.float64)
    naux = lpq.shape[0]
    co, cv = c[:, :nocc], c[:, nocc:]
    nvir = cv.shape[1]
    braw = np.einsum("Pmn,mi,na->Pia", lpq, co, cv, optimize=True)
    low = np.linalg.cholesky(j)
    b = np.linalg.solve(low, braw.reshape(naux, nocc * nvir)).reshape(naux, nocc, nvir)
    b = np.ascontiguousarray(b.transpose(1, 2, 0))  # B[i,a,P]
    v = np.einsum("iaP,jbP->iajb", b, b, optimize=True)
    w = np.einsum("iaP,jbP->iajb", abs(b), abs(b), optimize=True)
    vt = v.transpose(0, 3, 2, 1)
    wt = w.transpose(0, 3, 2, 1)
    eo, ev = eps[:nocc], eps[nocc:]
    den = eo[:, None, None, None] + eo[None, None, :, None] - ev[None, :, None, None] \
        - ev[None, None, None, :]
    t = v * (2.0 * v - vt) / den
    s = (((4.0 * abs(v) + abs(vt)) * w + abs(v) * wt) / abs(den)).sum()
    print("%.17g %.17g %.17g %.17g" % (t.sum(), s, abs(t).sum(), np.linalg.cond(j)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
