"""examples/python run end to end against this test session's daemon.

df_mp2.py on Psi4's inputs (tests/data/df_mp2_psi4, skipped when absent)
must print Psi4's DF-MP2 correlation energy within 1e-10 Eh, the target
tests/integration/test_df_mp2.c derives for float64 on the same files.
gemm_precision.py (skipped without Debian's python3-matplotlib) must write
a PNG and report every mode's error within its bound: max |C - AB| /
max |A||B| <= 4 u_in + (3 N + 4) u_acc, u_in the unit roundoff of the
mode's input rounding (one rounding of each input gives 2 u_in; bf16x3's
dropped terms are bounded by 3.1 2^-16 in docs/numerics.md) and u_acc
the data type's, times the gamma_{3N+4} of bf16x3's three GEMMs, the
largest accumulation of any mode (Higham Thm 3.5).
"""
import json
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "python")
PSI4 = os.path.join(HERE, "..", "data", "df_mp2_psi4")


def run(daemon, transport, *args):
    env = dict(os.environ, TRNSCI_ADDR=daemon[transport])
    p = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("mol", ["h2o", "ch4", "nh3"])
def test_df_mp2_example(daemon, transport, mol):
    d = os.path.join(PSI4, mol)
    if not os.path.exists(os.path.join(d, "Lpq.npy")):
        pytest.skip(f"no Psi4 inputs in {d}")
    out = run(daemon, transport, os.path.join(EXAMPLES, "df_mp2.py"), d)
    e = float(re.search(r"energy: (\S+) Eh", out).group(1))
    ref = json.load(open(os.path.join(d, "meta.json")))["mp2_correlation_energy"]
    assert abs(e - ref) <= 1e-10


def test_gemm_precision_example(daemon, transport, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "gemm.png"
    n = 64
    out = run(daemon, transport, os.path.join(EXAMPLES, "gemm_precision.py"), "--n", str(n),
              "--repeats", "1", "--out", str(png))
    report = json.loads(out)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(report["modes"]) == 10
    for r in report["modes"]:
        u_acc = 2.0**-24 if r["dtype"] == "float32" else 2.0**-53
        assert r["gflops"] > 0
        assert r["error"] <= 4 * r["u_in"] + (3 * n + 4) * u_acc, r
