#!/usr/bin/python3
"""Real-molecule inputs and reference energies for examples/df_mp2, made by Psi4.

    /usr/bin/python3 tests/data/df_mp2_psi4/generate.py [--out DIR] [--check] [MOLECULE ...]

For H2O, CH4 and NH3 (or the molecules named) at the fixed geometries below, in
cc-pVDZ (spherical), this runs a conventional RHF (scf_type pk, e_convergence 1e-12,
d_convergence 1e-10) and Psi4's DF-MP2 (mp2_type df, df_basis_mp2 cc-pVDZ-RI,
all electrons correlated), and writes into DIR/<molecule>/ (DIR defaults to the
folder of this script):

    Lpq.npy     (naux, nbf, nbf) float64, C order: (P|mu nu) over cc-pVDZ-RI
    metric.npy  (naux, naux)     float64: the Coulomb metric (P|Q)
    C.npy       (nbf, nmo)       float64, C order: RHF MO coefficients, AO basis
    eps.npy     (nmo,)           float64: RHF orbital energies, ascending
    meta.json   sizes, geometry, Psi4's SCF and DF-MP2 energies, how it was made

The integrals are computed by Psi4's MintsHelper over the very auxiliary basis
object that Psi4's DF-MP2 used (the wavefunction's DF_BASIS_MP2), so the energy a
DF-MP2 on these files computes is Psi4's 'MP2 CORRELATION ENERGY' up to the fitting
(Psi4's DF-MP2 fits with J^-1/2 from an eigendecomposition of (P|Q) that drops
eigenvalues below 1e-10 of the largest, this project with a Cholesky factor; the
smallest eigenvalue of these metrics is 3-4e-6 of the largest, none is dropped,
and the two agree to rounding).

--check runs tests/integration/df_mp2_ref.py on each molecule written and prints
its energy beside Psi4's.

Needs Debian 12's psi4 package (1.3.2), whose Python module lives outside the
default sys.path of /usr/bin/python3 (in /usr/lib/x86_64-linux-gnu); this script
adds that folder itself.
"""
import argparse
import atexit
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PSI4_PYTHON_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/psi4"]

BASIS = "cc-pVDZ"
AUX_BASIS = "cc-pVDZ-RI"
SCF_TYPE = "pk"
E_CONVERGENCE = 1e-12
D_CONVERGENCE = 1e-10

# Experimental equilibrium / average structures, Angstrom and degrees.
#   H2O: r(OH) 0.9572 A, angle(HOH) 104.52 deg (Benedict, Gailar & Plyler 1956;
#        the classic experimental water geometry).
#   CH4: r(CH) 1.087 A, tetrahedral (NIST CCCBDB experimental geometry).
#   NH3: r(NH) 1.012 A, angle(HNH) 106.7 deg (NIST CCCBDB experimental geometry).
R_OH, A_HOH = 0.9572, 104.52
R_CH = 1.087
R_NH, A_HNH = 1.012, 106.7


def _h2o():
    half = math.radians(A_HOH) / 2.0
    y, z = R_OH * math.sin(half), R_OH * math.cos(half)
    return [("O", 0.0, 0.0, 0.0), ("H", 0.0, -y, z), ("H", 0.0, y, z)]


def _ch4():
    s = R_CH / math.sqrt(3.0)
    return [("C", 0.0, 0.0, 0.0), ("H", s, s, s), ("H", -s, -s, s),
            ("H", -s, s, -s), ("H", s, -s, -s)]


def _nh3():
    # H atoms at polar angle beta from -z, 120 degrees apart in azimuth:
    # cos(HNH) = 1 - 1.5 sin^2(beta).
    sb = math.sqrt((1.0 - math.cos(math.radians(A_HNH))) / 1.5)
    cb = math.sqrt(1.0 - sb * sb)
    atoms = [("N", 0.0, 0.0, 0.0)]
    for k in range(3):
        phi = math.radians(120.0 * k)
        atoms.append(("H", R_NH * sb * math.cos(phi), R_NH * sb * math.sin(phi),
                      -R_NH * cb))
    return atoms


MOLECULES = {
    "h2o": ("H2O", _h2o, "r(OH) = %.4f A, angle(HOH) = %.2f deg" % (R_OH, A_HOH)),
    "ch4": ("CH4", _ch4, "r(CH) = %.3f A, tetrahedral" % R_CH),
    "nh3": ("NH3", _nh3, "r(NH) = %.3f A, angle(HNH) = %.1f deg" % (R_NH, A_HNH)),
}


def import_psi4():
    try:
        import psi4  # noqa: F401
    except ImportError:
        for d in PSI4_PYTHON_DIRS:
            if os.path.isfile(os.path.join(d, "psi4", "__init__.py")) and d not in sys.path:
                sys.path.append(d)
        import psi4  # noqa: F401
    return sys.modules["psi4"]


def geometry_string(atoms):
    lines = ["%-2s %20.12f %20.12f %20.12f" % a for a in atoms]
    return "\n".join(lines + ["units angstrom", "symmetry c1", "no_reorient", "no_com"])


def run_one(psi4, key, outdir, command):
    formula, build, description = MOLECULES[key]
    # Rounded to the 12 decimals written into Psi4's input, so that the geometry
    # recorded is the one used.
    atoms = [(a[0],) + tuple(round(x, 12) + 0.0 for x in a[1:]) for a in build()]
    t0 = time.time()
    psi4.core.clean()
    psi4.core.clean_options()
    mol = psi4.geometry(geometry_string(atoms), name=key)
    psi4.set_options({
        "basis": BASIS,
        "scf_type": SCF_TYPE,
        "reference": "rhf",
        "e_convergence": E_CONVERGENCE,
        "d_convergence": D_CONVERGENCE,
        "mp2_type": "df",
        "df_basis_mp2": AUX_BASIS,
        "freeze_core": False,
    })
    e_total, wfn = psi4.energy("mp2", molecule=mol, return_wfn=True)
    e_scf = psi4.variable("SCF TOTAL ENERGY")
    e_corr = psi4.variable("MP2 CORRELATION ENERGY")
    e_ss = psi4.variable("MP2 SAME-SPIN CORRELATION ENERGY")
    e_os = psi4.variable("MP2 OPPOSITE-SPIN CORRELATION ENERGY")
    e_mp2_total = psi4.variable("MP2 TOTAL ENERGY")
    # The correlation energy, not the total: check the two against each other.
    if abs(e_corr - (e_ss + e_os)) > 1e-12 or abs(e_mp2_total - e_scf - e_corr) > 1e-10:
        raise RuntimeError("%s: inconsistent Psi4 MP2 energies: corr %r ss %r os %r "
                           "total %r scf %r" % (key, e_corr, e_ss, e_os, e_mp2_total, e_scf))
    if abs(e_total - e_mp2_total) > 1e-10:
        raise RuntimeError("%s: energy() returned %r, MP2 TOTAL ENERGY is %r"
                           % (key, e_total, e_mp2_total))

    orb = wfn.basisset()
    aux = wfn.get_basisset("DF_BASIS_MP2")  # the very basis Psi4's DF-MP2 used
    if aux.name().upper() != AUX_BASIS.upper():
        raise RuntimeError("%s: DF_BASIS_MP2 is %s" % (key, aux.name()))
    if not orb.has_puream() or not aux.has_puream():
        raise RuntimeError("%s: expected spherical basis sets" % key)
    zero = psi4.core.BasisSet.zero_ao_basis_set()
    mints = psi4.core.MintsHelper(orb)
    nbf, naux = orb.nbf(), aux.nbf()
    lpq = np.asarray(mints.ao_eri(aux, zero, orb, orb)).reshape(naux, nbf, nbf)
    metric = np.asarray(mints.ao_eri(aux, zero, aux, zero)).reshape(naux, naux)
    # symmetry c1: SO basis = AO basis, but ask for the AO representation anyway.
    c = np.asarray(wfn.Ca_subset("AO", "ALL"))
    eps = np.asarray(wfn.epsilon_a_subset("AO", "ALL"))
    nmo = c.shape[1]
    nocc = wfn.nalpha()
    if wfn.nalpha() != wfn.nbeta() or wfn.nfrzc() != 0:
        raise RuntimeError("%s: expected closed shell, no frozen core" % key)
    if np.any(np.diff(eps) < 0):
        raise RuntimeError("%s: orbital energies not ascending" % key)
    if c.shape != (nbf, nmo) or eps.shape != (nmo,):
        raise RuntimeError("%s: unexpected shapes C %s eps %s" % (key, c.shape, eps.shape))
    # The RHF orbitals are orthonormal in the overlap metric.
    s = np.asarray(mints.ao_overlap())
    orth = abs(c.T @ s @ c - np.eye(nmo)).max()

    d = os.path.join(outdir, key)
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "Lpq.npy"), np.ascontiguousarray(lpq, dtype=np.float64))
    np.save(os.path.join(d, "metric.npy"), np.ascontiguousarray(metric, dtype=np.float64))
    np.save(os.path.join(d, "C.npy"), np.ascontiguousarray(c, dtype=np.float64))
    np.save(os.path.join(d, "eps.npy"), np.ascontiguousarray(eps, dtype=np.float64))

    geom_bohr = np.asarray(mol.geometry())
    meta = {
        "molecule": formula,
        "geometry_angstrom": [[a[0], a[1], a[2], a[3]] for a in atoms],
        "geometry_description": description,
        "geometry_bohr_as_used": [[mol.symbol(i)] + [float(x) for x in geom_bohr[i]]
                                  for i in range(mol.natom())],
        "charge": mol.molecular_charge(),
        "multiplicity": mol.multiplicity(),
        "basis": orb.name(),
        "aux_basis": aux.name(),
        "puream": True,
        "nbf": nbf,
        "naux": naux,
        "nocc": nocc,
        "nvir": nmo - nocc,
        "nmo": nmo,
        "frozen_core": 0,
        "scf_type": SCF_TYPE,
        "mp2_type": "df",
        "e_convergence": E_CONVERGENCE,
        "d_convergence": D_CONVERGENCE,
        "scf_energy": float(e_scf),
        "mp2_correlation_energy": float(e_corr),
        "mp2_same_spin_energy": float(e_ss),
        "mp2_opposite_spin_energy": float(e_os),
        "mp2_total_energy": float(e_mp2_total),
        "nuclear_repulsion_energy": float(mol.nuclear_repulsion_energy()),
        "max_abs_CtSC_minus_I": float(orth),
        "psi4_version": psi4.__version__,
        "units": "energies in hartree (JSON numbers written with Python's repr: every "
                 "digit of the float64); geometry_bohr_as_used in bohr",
        "files": {
            "Lpq.npy": "(P|mu nu), shape (naux, nbf, nbf), float64, C order",
            "metric.npy": "(P|Q), shape (naux, naux), float64",
            "C.npy": "MO coefficients, shape (nbf, nmo), float64, C order, AO basis",
            "eps.npy": "orbital energies, shape (nmo,), float64, ascending",
        },
        "command": command,
    }
    text = json.dumps(meta, indent=2)
    # One line per atom: collapse the innermost lists.
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]",
                  text)
    with open(os.path.join(d, "meta.json"), "w") as f:
        f.write(text + "\n")
    print("%s: nbf %d naux %d nocc %d nmo %d  E(SCF) %.12f  E(DF-MP2 corr) %.15f  (%.1f s)"
          % (formula, nbf, naux, nocc, nmo, e_scf, e_corr, time.time() - t0), flush=True)
    return d, nocc, e_corr


def check(d, nocc, e_corr):
    ref = os.path.join(HERE, "..", "..", "integration", "df_mp2_ref.py")
    out = subprocess.run(["/usr/bin/python3", ref, d, str(nocc)], check=True,
                         capture_output=True, text=True).stdout.split()
    e, kappa = float(out[0]), float(out[3])
    print("  df_mp2_ref.py: E %.15f  E - Psi4 %+.3e  kappa(J) %.4e" % (e, e - e_corr, kappa),
          flush=True)
    return e - e_corr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=HERE, help="output folder (default: this script's)")
    ap.add_argument("--check", action="store_true",
                    help="compare with tests/integration/df_mp2_ref.py")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--keep-output", metavar="FILE",
                    help="copy Psi4's output file to FILE")
    ap.add_argument("molecules", nargs="*", metavar="MOLECULE",
                    help="any of %s (default: all)" % ", ".join(MOLECULES))
    args = ap.parse_args()
    for m in args.molecules:
        if m not in MOLECULES:
            ap.error("unknown molecule %r (choose from %s)" % (m, ", ".join(MOLECULES)))
    args.molecules = args.molecules or list(MOLECULES)
    outdir = os.path.abspath(args.out)
    cwd = os.getcwd()
    command = "/usr/bin/python3 tests/data/df_mp2_psi4/generate.py"

    # Psi4 writes its output, scratch and timer files into the working directory
    # and the scratch folder: keep them all in a temporary folder, removed at exit
    # after Psi4's own exit handlers (registered later, so run earlier) are done.
    work = tempfile.mkdtemp(prefix="df_mp2_psi4.")
    atexit.register(shutil.rmtree, work, True)
    os.environ["PSI_SCRATCH"] = work
    os.chdir(work)
    psi4 = import_psi4()
    psi4.core.IOManager.shared_object().set_default_path(work)
    psi4.core.set_output_file(os.path.join(work, "psi4.out"), False)
    psi4.set_memory("2 GB")
    psi4.set_num_threads(args.threads)
    t0 = time.time()
    results = [run_one(psi4, m, outdir, command) for m in args.molecules]
    print("generated in %.1f s with Psi4 %s" % (time.time() - t0, psi4.__version__))
    if args.keep_output:
        shutil.copy(os.path.join(work, "psi4.out"), os.path.abspath(
            os.path.join(cwd, args.keep_output)))
    if args.check:
        worst = max(abs(check(*r)) for r in results)
        print("largest |E(df_mp2_ref.py) - E(Psi4)| = %.3e Eh" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
