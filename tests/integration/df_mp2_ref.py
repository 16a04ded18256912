#!/usr/bin/python3
"""A numpy DF-MP2 reference for examples/df_mp2 (run it under Debian's
/usr/bin/python3), on the same .npy inputs the example reads:

    df_mp2_ref.py DIR NOCC [SCREEN]

DIR/Lpq.npy (naux, nbf, nbf) = (P|mu nu), DIR/metric.npy (naux, naux) = (P|Q),
DIR/C.npy (nbf, nmo), DIR/eps.npy (nmo). Prints one line:
"E S T kappa": the DF-MP2 correlation energy in float64,

    B_raw[i,a,Q] = sum C[mu,i] C[nu,a] (Q|mu nu)      (numpy.einsum)
    B = L^-1 B_raw, J = L L^T                          (numpy.linalg.cholesky, solve)
    E = sum (ia|jb) (2 (ia|jb) - (ib|ja)) / (e_i + e_j - e_a - e_b),

S = sum ((4|v| + |v'|) W + |v| W') / |D| (v = (ia|jb), v' = (ib|ja),
W = sum_P |B_iaP||B_jbP|), T = sum |terms| and kappa = cond_2(J): what the
test's error bound needs.

With SCREEN > 0 it applies the example's AO-pair screen (docs/df_mp2.md,
examples/df_mp2/screen.c), written again here from its definition: with
p_P = sqrt(|J_PP|), q_mu,nu = max_P |(P|mu nu)| / p_P and c_mu = max_k
|C[mu,k]|, the pair (mu, nu) is kept when q p_max c_mu c_nu >= SCREEN. It
then prints "E S T kappa E_screened kept bound": the energy over the kept
pairs, their number, and a first-order bound on |E_screened - E| from the
screen's guarantee |dB_raw| <= beta = (pairs dropped) SCREEN on every entry:
|dB| <= delta = beta ||L^-1||_inf, |dv_iajb| <= delta (|B_ia|_1 + |B_jb|_1)
+ naux delta^2, and |dE| <= sum (dv (4|v| + |v'|) + |v| dv' + dv (2 dv + dv'))/|D|.
"""
import os
import sys

import numpy as np


def pair_energy_terms(b, eps, nocc):
    """v = (ia|jb), v' and the denominators for B[i,a,P]."""
    v = np.einsum("iaP,jbP->iajb", b, b, optimize=True)
    eo, ev = eps[:nocc], eps[nocc:]
    den = eo[:, None, None, None] + eo[None, None, :, None] - ev[None, :, None, None] \
        - ev[None, None, None, :]
    return v, v.transpose(0, 3, 2, 1), den


def fitted(lpq, low, co, cv):
    """B[i,a,P] = L^-1 (sum C C (Q|mu nu))."""
    naux = lpq.shape[0]
    nocc, nvir = co.shape[1], cv.shape[1]
    braw = np.einsum("Pmn,mi,na->Pia", lpq, co, cv, optimize=True)
    b = np.linalg.solve(low, braw.reshape(naux, nocc * nvir)).reshape(naux, nocc, nvir)
    return np.ascontiguousarray(b.transpose(1, 2, 0))


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: df_mp2_ref.py DIR NOCC [SCREEN]")
        return 1
    d, nocc = sys.argv[1], int(sys.argv[2])
    screen = float(sys.argv[3]) if len(sys.argv) == 4 else 0.0
    lpq = np.load(os.path.join(d, "Lpq.npy")).astype(np.float64)
    j = np.load(os.path.join(d, "metric.npy")).astype(np.float64)
    c = np.load(os.path.join(d, "C.npy")).astype(np.float64)
    eps = np.load(os.path.join(d, "eps.npy")).astype(np.float64)
    naux = lpq.shape[0]
    co, cv = c[:, :nocc], c[:, nocc:]
    low = np.linalg.cholesky(j)
    b = fitted(lpq, low, co, cv)
    v, vt, den = pair_energy_terms(b, eps, nocc)
    w = np.einsum("iaP,jbP->iajb", abs(b), abs(b), optimize=True)
    wt = w.transpose(0, 3, 2, 1)
    t = v * (2.0 * v - vt) / den
    s = (((4.0 * abs(v) + abs(vt)) * w + abs(v) * wt) / abs(den)).sum()
    out = "%.17g %.17g %.17g %.17g" % (t.sum(), s, abs(t).sum(), np.linalg.cond(j))
    if screen > 0:
        p = np.sqrt(abs(np.diag(j)))
        q = (abs(lpq) / p[:, None, None]).max(axis=0)          # q[mu, nu]
        cmax = abs(c).max(axis=1)
        keep = q * p.max() * cmax[:, None] * cmax[None, :] >= screen
        bs = fitted(lpq * keep[None, :, :], low, co, cv)
        vs, vts, _ = pair_energy_terms(bs, eps, nocc)
        es = (vs * (2.0 * vs - vts) / den).sum()
        beta = (keep.size - keep.sum()) * screen
        delta = beta * abs(np.linalg.inv(low)).sum(axis=1).max()
        n1 = abs(b).sum(axis=2)                                 # |B_ia|_1
        dv = delta * (n1[:, :, None, None] + n1[None, None, :, :]) + naux * delta ** 2
        dvt = dv.transpose(0, 3, 2, 1)
        bound = ((dv * (4.0 * abs(v) + abs(vt)) + abs(v) * dvt + dv * (2.0 * dv + dvt))
                 / abs(den)).sum()
        out += " %.17g %d %.17g" % (es, int(keep.sum()), bound)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
