#!/usr/bin/python3
"""The DF-MP2 correlation energy from Psi4's .npy inputs, with trnsci.

    df_mp2.py DIR     (DIR: Lpq.npy, metric.npy, C.npy, eps.npy and meta.json's
                       nocc, as tests/data/df_mp2_psi4/h2o)

The AO -> MO transformation and the energy are trntensor's fused kernels;
the fit B = L^-1 B_raw (J = L L^T) is trnsci.linalg. Connects to
$TRNSCI_ADDR (or the default local socket). Prints the energy in hartree.
"""
import json
import os
import sys

import numpy as np

from trnsci import linalg as la, tensor as T

d = sys.argv[1]
nocc = json.load(open(os.path.join(d, "meta.json")))["nocc"]
Lpq, J, C, eps = (np.load(os.path.join(d, f + ".npy")) for f in ("Lpq", "metric", "C", "eps"))
B = T.ao_to_mo(C[:, :nocc], C[:, nocc:], Lpq)                # B[i,a,P], unfitted
B = la.solve(la.cholesky(J), B.reshape(-1, len(J)).T).T.reshape(B.shape)  # L^-1 on P
E = T.mp2_energy(B, eps[:nocc], eps[nocc:])
print(f"DF-MP2 correlation energy: {E:.12f} Eh")
