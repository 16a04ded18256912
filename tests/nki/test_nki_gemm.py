#!/usr/bin/python3
"""The NKI GEMM kernels (kernels/neuron/nki/gemm.py: gemm, gemm_seq) on the CPU.

Runs `gemm` through tests/nki/nki_numpy (a numpy NKI that enforces the
Tensor Engine's tile rules) and, when neuronxcc is importable, through NKI's
own CPU simulator (nki.simulate_kernel), on random inputs (fixed seed) whose
m, n, k cross every tile boundary (M and K tiles of 128, N tiles of 512),
batch 1 and 3, f32 and c32, every mode, alpha/beta including beta = 0 with
NaN and Inf in C. Each result is compared with numpy in float64 against
bounds from a rounding-error analysis (see bounds()), twice:

  * against the exact product of the fp32 inputs (the mode's input error
    plus FP32 accumulation plus the fp32 scaling);
  * against the exact product of the parts the mode feeds the Tensor Engine
    (bf16(x), or hi/lo), computed independently here: only accumulation and
    scaling errors are allowed, so this checks that the mode does exactly
    what program.h says.

GEMM sequences (gemm_seq, SEQUENCES) are checked against their nodes run
one by one through gemm, bitwise, and each node against float64 as above.

The column-major layout (gemm_cm, run_colmajor) is checked on the same
shapes, real, with each ta/tb pair, against float64 with the same bounds;
its tensors there have leading dimensions past the matrices' rows (NaN
there, never to be read: the kernel takes any; the program's are tight).

Also checks that the numpy NKI rejects what the hardware cannot do (129
partitions, a 513-column moving operand, ...) and rounds to bfloat16 to
nearest even.

Prints a line per check and "N passed, M failed"; exits non-zero on any
failure. Standard library and numpy only.
"""
import importlib.util
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "..", "kernels", "neuron", "nki", "gemm.py")
sys.path.insert(0, HERE)
import nki_numpy  # noqa: E402
from nki_numpy import language as nl_np  # noqa: E402
from nki_numpy import isa as nisa_np  # noqa: E402

U = 2.0 ** -24  # unit roundoff of fp32 (24-bit significand)
V = 2.0 ** -8   # unit roundoff of bfloat16 (8-bit significand: half an ulp of 1 = 2^-7)
MODES = ("fp32", "bf16", "bf16x3")

# (m, n, k, batch): every m and k in {1, 127, 128, 129, 300, 513} and n
# in {1, 127, 128, 129, 300, 512, 513}, so every dimension is below, at and
# past a tile edge and spans several tiles.
SHAPES = [
    (1, 1, 1, 1),
    (127, 128, 129, 3),
    (128, 129, 127, 1),
    (129, 127, 128, 3),
    (300, 512, 300, 1),
    (513, 513, 513, 1),
    (1, 300, 513, 3),
    (513, 1, 1, 1),
]

# alpha, beta (complex for c32); beta == 0 cases fill C with NaN and Inf.
SCALARS = [
    (1.0, 0.0),
    (-1.5, 0.75),
    (0.8 - 0.6j, 0.0),
    (1.25 + 0.5j, -0.5 + 2.0j),
]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print("%s %s" % ("ok  " if ok else "FAIL", what), flush=True)


def gamma(n):
    """gamma_n = n u / (1 - n u): the relative error bound of n fp32 roundings."""
    return n * U / (1 - n * U)


def bf16_ref(x):
    """bfloat16 rounding (nearest, ties to even) of finite float32 values,
    computed independently of nki_numpy: 8 significant bits via frexp/rint."""
    mant, exp = np.frexp(np.asarray(x, np.float64))  # x = mant 2^exp, 0.5 <= |mant| < 1
    return np.ldexp(np.rint(mant * 256.0) / 256.0, exp)  # rint: ties to even


# The products each mode forms from the parts of parts_of(): (A part, B part).
TERMS = {"fp32": [(0, 0)], "bf16": [(0, 0)], "bf16x3": [(0, 0), (0, 1), (1, 0)]}


def parts_of(x, mode):
    """The parts of x (float64 values) that the mode multiplies."""
    if mode == "fp32":
        return [x.astype(np.float64)]
    hi = bf16_ref(x)
    if mode == "bf16":
        return [hi]
    lo = bf16_ref(x.astype(np.float64) - hi)  # x - hi is exact (fp32 -> float64)
    return [hi, lo]


def matmul_planes(ap, bp, terms):
    """Exact (float64) sum over terms of A-part x B-part for every plane pair,
    and the same with absolute values: dict (pa, pb) -> (value, |value|).
    ap[p][i] is part i of plane p of op(A) as [B][M][K]."""
    out = {}
    P = len(ap)
    for pa in range(P):
        for pb in range(P):
            val = absval = 0
            for i, j in terms:
                val = val + np.matmul(ap[pa][i], bp[pb][j])
                absval = absval + np.matmul(np.abs(ap[pa][i]), np.abs(bp[pb][j]))
            out[pa, pb] = (val, absval)
    return out


def reference(at, b, c, alpha, beta, prods, e):
    """The reference d (complex for c32) and the elementwise error bound.

    prods: matmul_planes() of the operands the reference multiplies;
    e: the bound of the product's error relative to its |.| sum.

    S = op(A) op(B) in PSUM: |S - P| <= e G, G the |.| sum of the products
    (for c32 re: G(Ar,Br) + G(Ai,Bi), im: G(Ar,Bi) + G(Ai,Br)). Then fp32
    on the Vector Engine: real d = fl(fl(alpha S) + fl(beta C)); c32
    re = fl(fl(fl(ar Sr) - fl(ai Si)) + fl(fl(br Cr) - fl(bi Ci))) (im
    alike): every term passes through at most 3 roundings, so the scaling
    adds gamma_3 (|alpha| |S| + |beta| |C|), term by term, with
    |S| <= |P| + e G.
    """
    P = c.shape[1]
    C = c.astype(np.float64)
    if beta == 0:
        C = np.zeros_like(C)  # beta == 0: C is not used (it holds NaN/Inf)
    if P == 1:
        Pv, G = prods[0, 0]
        a, bt = alpha.real, beta.real
        ref = a * Pv + bt * C[:, 0]
        bound = abs(a) * e * G + gamma(3) * (abs(a) * (np.abs(Pv) + e * G) + abs(bt) * np.abs(C[:, 0]))
        return ref[:, None], bound[:, None]
    Pr = prods[0, 0][0] - prods[1, 1][0]
    Pi = prods[0, 1][0] + prods[1, 0][0]
    Gr = prods[0, 0][1] + prods[1, 1][1]
    Gi = prods[0, 1][1] + prods[1, 0][1]
    ar, ai, br, bi = alpha.real, alpha.imag, beta.real, beta.imag
    ref_r = ar * Pr - ai * Pi + br * C[:, 0] - bi * C[:, 1]
    ref_i = ar * Pi + ai * Pr + br * C[:, 1] + bi * C[:, 0]
    Sr, Si = np.abs(Pr) + e * Gr, np.abs(Pi) + e * Gi
    bnd_r = abs(ar) * e * Gr + abs(ai) * e * Gi + gamma(3) * (
        abs(ar) * Sr + abs(ai) * Si + abs(br) * np.abs(C[:, 0]) + abs(bi) * np.abs(C[:, 1]))
    bnd_i = abs(ar) * e * Gi + abs(ai) * e * Gr + gamma(3) * (
        abs(ar) * Si + abs(ai) * Sr + abs(br) * np.abs(C[:, 1]) + abs(bi) * np.abs(C[:, 0]))
    return np.stack([ref_r, ref_i], 1), np.stack([bnd_r, bnd_i], 1)


def bounds(mode, k, P):
    """(e against the exact inputs, e against the mode's parts).

    The PSUM element is a sum of n = (k or 2k for c32) x (1, or 3 for
    bf16x3) exact-in-fp32 products (bf16 x bf16 has 16 significant bits),
    added in fp32 in some order: error <= gamma_n times the sum of their
    |.|. Against the mode's parts that is all (e = gamma_n).

    Against the exact fp32 inputs x, the parts add (v = 2^-8, the bfloat16
    unit roundoff; per product a b, relative to |a b|):
      fp32    none: e = gamma_n
      bf16    bf16(x) = x (1 + d), |d| <= v: products (1+da)(1+db) - 1, so
              2v + v^2; the |.| sum grows by (1+v)^2:
              e = 2v + v^2 + (1+v)^2 gamma_n
      bf16x3  hi = bf16(x), r = x - hi exact, |r| <= v|x|; lo = bf16(r),
              |lo - r| <= v|r| <= v^2 |x|, so hi + lo = x (1 + d), |d| <= v^2,
              and |lo| <= v (1+v) |x|. The kernel forms
              hi_a hi_b + hi_a lo_b + lo_a hi_b
                = (hi_a + lo_a)(hi_b + lo_b) - lo_a lo_b:
              split residual 2v^2 + v^4, dropped lo_a lo_b <= v^2 (1+v)^2,
              |.| sum <= (1+v)^2 (1 + 2v) |a b|:
              e = 2v^2 + v^4 + v^2 (1+v)^2 + (1+v)^2 (1+2v) gamma_n
              (about 3 * 2^-16 + gamma_n: bf16x3 carries ~16 bits, not 24).
    """
    kacc = k * P
    if mode == "fp32":
        n = kacc
        return gamma(n), gamma(n)
    if mode == "bf16":
        n = kacc
        return 2 * V + V * V + (1 + V) ** 2 * gamma(n), gamma(n)
    n = 3 * kacc
    return (2 * V * V + V ** 4 + V * V * (1 + V) ** 2 + (1 + V) ** 2 * (1 + 2 * V) * gamma(n),
            gamma(n))


def make_case(rng, m, n, k, batch, P, alpha, beta):
    at = rng.standard_normal((batch, P, k, m)).astype(np.float32)
    b = rng.standard_normal((batch, P, k, n)).astype(np.float32)
    # Mixed magnitudes so relative errors are not uniform.
    b *= np.float32(2.0) ** rng.integers(-3, 4, size=(batch, P, 1, n)).astype(np.float32)
    c = rng.standard_normal((batch, P, m, n)).astype(np.float32)
    if beta == 0:
        c.reshape(-1)[::3] = np.nan
        c.reshape(-1)[1::7] = np.inf
    if P == 1:
        scal = np.array([alpha.real, beta.real], np.float32)
    else:
        scal = np.array([alpha.real, alpha.imag, beta.real, beta.imag], np.float32)
    return at, b, c, scal


def compare(label, d, at, b, c, mode, alpha, beta, stats):
    P, k = at.shape[1], at.shape[2]
    if d.shape != c.shape or d.dtype != np.float32:
        check(False, "%s: d has shape %r dtype %s" % (label, d.shape, d.dtype))
        return
    check(bool(np.isfinite(d).all()), "%s: d is finite (C has NaN/Inf when beta = 0)" % label)
    # op(A) as [B][M][K] per plane, op(B) as [B][K][N].
    A = [at[:, p].transpose(0, 2, 1) for p in range(P)]
    Bm = [b[:, p] for p in range(P)]
    e_exact, e_parts = bounds(mode, k, P)
    got = d.astype(np.float64)
    exact = matmul_planes([[x.astype(np.float64)] for x in A],
                          [[x.astype(np.float64)] for x in Bm], [(0, 0)])
    parts = matmul_planes([parts_of(x, mode) for x in A], [parts_of(x, mode) for x in Bm],
                          TERMS[mode])
    for what, e, prods in (("exact inputs", e_exact, exact), ("mode's parts", e_parts, parts)):
        ref, bound = reference(at, b, c, alpha, beta, prods, e)
        err = np.abs(got - ref)
        ratio = float(np.max(err / bound))
        s = stats.setdefault((mode, what), [0.0, 0.0])
        s[0] = max(s[0], float(err.max()))
        s[1] = max(s[1], ratio)
        check(bool(np.all(err <= bound)),
              "%s vs %s: max |err| %.3g, max err/bound %.3g" % (label, what, err.max(), ratio))


def run_cases(name, call):
    rng = np.random.default_rng(20261128)
    stats = {}
    t0 = time.time()
    i = 0
    for si, (m, n, k, batch) in enumerate(SHAPES):
        for P in (1, 2):
            for mi, mode in enumerate(MODES):
                # Every (dtype, mode) meets both scalar pairs over the shapes.
                alpha, beta = SCALARS[(si + mi) % 2 + 2 * (P - 1)]
                i += 1
                if P == 1:
                    alpha, beta = complex(alpha.real), complex(beta.real)
                at, b, c, scal = make_case(rng, m, n, k, batch, P, alpha, beta)
                label = "%s %s %s m=%d n=%d k=%d batch=%d alpha=%s beta=%s" % (
                    name, "c32" if P == 2 else "f32", mode, m, n, k, batch,
                    _fmt(alpha, P), _fmt(beta, P))
                try:
                    d = call(at, b, c, scal, mode, "c32" if P == 2 else "f32")
                except Exception as ex:  # a rule the kernel broke, or a crash
                    check(False, "%s: raised %s: %s" % (label, type(ex).__name__, ex))
                    continue
                compare(label, np.asarray(d), at, b, c, mode, alpha, beta, stats)
    print("%s: %d cases in %.1f s" % (name, i, time.time() - t0))
    for (mode, what), (err, ratio) in sorted(stats.items()):
        print("  %-7s vs %-13s max |err| %.3e  max err/bound %.3e" % (mode, what, err, ratio))


def _fmt(z, P):
    return ("%g" % z.real) if P == 1 else ("(%g,%g)" % (z.real, z.imag))


# GEMM sequences (gemm_seq): (dtype, mode, nodes), a node being
# ((m, n, k, batch), (source of at, b, c), alpha, beta); a source None is
# an input, an int the d of that earlier node. They cover each operand
# taken from an earlier result (Y = W2 (W1 X) through b; op(A) = d0^T
# through at; C accumulated through c), shapes across tile edges, both
# dtypes, every mode, and beta = 0 over an input C of NaN and Inf.
SEQUENCES = [
    ("f32", "fp32", [((300, 129, 200, 1), (None, None, None), 1.0, 0.0),
                     ((129, 129, 300, 1), (None, 0, None), -1.5, 0.75)]),
    ("c32", "bf16x3", [((130, 64, 20, 2), (None, None, None), 0.8 - 0.6j, 0.0),
                       ((64, 7, 130, 2), (0, None, None), 1.25 + 0.5j, -0.5 + 2.0j)]),
    ("f32", "bf16", [((129, 513, 3, 1), (None, None, None), 1.0, 0.5),
                     ((129, 513, 128, 1), (None, None, 0), -1.5, 0.75),
                     ((513, 1, 129, 1), (1, None, None), 2.0, 0.0)]),
]


def seq_text(nodes):
    src = lambda i: "in" if i is None else "d%d" % i
    return " ".join("g%d=%dx%dx%dx%d:%s,%s,%s" % ((j,) + shape + tuple(src(i) for i in srcs))
                    for j, (shape, srcs, _, _) in enumerate(nodes))


def run_sequences(seq_call, gemm_call):
    """Each sequence against its nodes run one by one through gemm (bitwise:
    program.h promises the same products in the same order), and each
    node's d against numpy float64 from the operands it read, within the
    mode's bounds."""
    rng = np.random.default_rng(20261130)
    stats = {}
    for dtype, mode, nodes in SEQUENCES:
        P = 2 if dtype == "c32" else 1
        inputs, scal, singles = [], [], []
        for j, ((m, n, k, batch), srcs, alpha, beta) in enumerate(nodes):
            if P == 1:
                alpha, beta = complex(alpha.real), complex(beta.real)
            at, b, c, sc = make_case(rng, m, n, k, batch, P, alpha, beta)
            ops = [at, b, c]
            for w, i in enumerate(srcs):
                if i is None:
                    inputs.append(ops[w])
                else:
                    ops[w] = singles[i]  # the earlier node's d, as gemm gave it
            scal.append(sc)
            d = np.asarray(gemm_call(ops[0], ops[1], ops[2], sc, mode, dtype))
            singles.append(d)
            compare("sequence %s %s node %d (%dx%dx%d batch %d)" % (dtype, mode, j, m, n, k, batch),
                    d, ops[0], ops[1], ops[2], mode, alpha, beta, stats)
        label = "sequence %s %s %s" % (dtype, mode, seq_text(nodes))
        try:
            ds = seq_call(inputs, np.stack(scal), seq_text(nodes), mode, dtype)
        except Exception as ex:
            check(False, "%s: raised %s: %s" % (label, type(ex).__name__, ex))
            continue
        same = len(ds) == len(nodes) and all(
            np.asarray(x).shape == y.shape and
            np.array_equal(np.asarray(x).view(np.uint32), y.view(np.uint32))
            for x, y in zip(ds, singles))
        check(same, "%s: every d is bitwise its node's gemm" % label)


def to_colmajor(at, b, c, ta, tb, pad, rng):
    """The packed f32 operands (at [B][1][K][M], b [B][1][K][N], c
    [B][1][M][N]) as layout=cm holds them: a, b, c column by column, each
    leading dimension `pad` rows past the matrix's own, those rows NaN (a
    kernel that read them would say so)."""
    def stored(cols_major):  # [B][cols][rows] -> [B][1][cols][rows + pad]
        B, cols, rows = cols_major.shape
        out = np.full((B, 1, cols, rows + pad), np.nan, np.float32)
        out[:, 0, :, :rows] = cols_major
        return out
    a_cm = stored(at[:, 0] if ta == "n" else at[:, 0].transpose(0, 2, 1))
    b_cm = stored(b[:, 0].transpose(0, 2, 1) if tb == "n" else b[:, 0])
    c_cm = stored(c[:, 0].transpose(0, 2, 1))
    return a_cm, b_cm, c_cm


def run_colmajor(name, call):
    """layout=cm: every shape of SHAPES (real), each with one of the four
    ta/tb pairs and modes in turn, leading dimensions past the rows (NaN
    there), batch 1 and 3; d [B][1][N][M] against numpy float64 within the
    mode's bounds, as the packed layout's."""
    rng = np.random.default_rng(20261201)
    stats = {}
    pairs = [("n", "n"), ("n", "t"), ("t", "n"), ("t", "t")]
    for si, (m, n, k, batch) in enumerate(SHAPES):
        for pi, (ta, tb) in enumerate(pairs):
            mode = MODES[(si + pi) % 3]
            alpha, beta = (complex(1.0), complex(0.0)) if (si + pi) % 2 else \
                (complex(-1.5), complex(0.75))
            at, b, c, scal = make_case(rng, m, n, k, batch, 1, alpha, beta)
            a_cm, b_cm, c_cm = to_colmajor(at, b, c, ta, tb, 1 + si % 3, rng)
            label = "%s layout=cm ta=%s tb=%s %s m=%d n=%d k=%d batch=%d" % (
                name, ta, tb, mode, m, n, k, batch)
            try:
                d = np.asarray(call(a_cm, b_cm, c_cm, scal, mode, ta, tb, m, n, k))
            except Exception as ex:
                check(False, "%s: raised %s: %s" % (label, type(ex).__name__, ex))
                continue
            if d.shape != (batch, 1, n, m):
                check(False, "%s: d has shape %r" % (label, d.shape))
                continue
            compare(label, d.transpose(0, 1, 3, 2), at, b, c, mode, alpha, beta, stats)


def expect_rule_error(what, fn):
    try:
        fn()
    except nki_numpy.NkiRuleError as ex:
        check(True, "numpy NKI rejects %s (%s)" % (what, ex))
        return
    except Exception as ex:
        check(False, "numpy NKI: %s raised %s, not NkiRuleError: %s" % (what, type(ex).__name__, ex))
        return
    check(False, "numpy NKI accepts %s" % what)


def shim_rules():
    nl, nisa = nl_np, nisa_np
    hbm = nki_numpy.tiles.Tile(np.ones((256, 1024), np.float32), nl.float32, nl.shared_hbm)

    def sb(p, f, dtype=nl.float32):
        return nl.load(hbm[0:p, 0:f], dtype=dtype)

    expect_rule_error("an SBUF tile of 129 partitions", lambda: nl.ndarray((129, 4), nl.float32, buffer=nl.sbuf))
    expect_rule_error("a load of 129 partitions", lambda: sb(129, 4))
    expect_rule_error("a PSUM tile of 129 partitions", lambda: nl.zeros((129, 4), nl.float32, buffer=nl.psum))
    expect_rule_error("a PSUM tile of 513 fp32 per partition",
                      lambda: nl.zeros((128, 513), nl.float32, buffer=nl.psum))
    expect_rule_error("a moving operand of 513 columns", lambda: nisa.nc_matmul(sb(128, 128), sb(128, 513)))
    expect_rule_error("a stationary operand of 129 columns", lambda: nisa.nc_matmul(sb(128, 129), sb(128, 512)))
    expect_rule_error("mismatched contraction dims", lambda: nisa.nc_matmul(sb(128, 128), sb(127, 512)))
    expect_rule_error("a matmul operand in HBM", lambda: nisa.nc_matmul(hbm[0:128, 0:128], sb(128, 512)))
    expect_rule_error("a matmul operand in PSUM",
                      lambda: nisa.nc_matmul(nl.zeros((128, 128), nl.float32, buffer=nl.psum), sb(128, 512)))
    expect_rule_error("mixed fp32/bf16 matmul operands",
                      lambda: nisa.nc_matmul(sb(128, 128), sb(128, 512, nl.bfloat16)))

    def acc_sbuf():
        t = nl.zeros((128, 512), nl.float32, buffer=nl.sbuf)
        t += nisa.nc_matmul(sb(128, 128), sb(128, 512))
    expect_rule_error("accumulating a matmul into SBUF", acc_sbuf)

    def acc_shape():
        t = nl.zeros((128, 256), nl.float32, buffer=nl.psum)
        t += nisa.nc_matmul(sb(128, 128), sb(128, 512))
    expect_rule_error("accumulating into a PSUM tile of another shape", acc_shape)
    expect_rule_error("a store from PSUM",
                      lambda: nl.store(hbm[0:128, 0:4], value=nl.zeros((128, 4), nl.float32, buffer=nl.psum)))
    expect_rule_error("an element-wise op on an HBM tensor", lambda: nl.multiply(hbm[0:128, 0:4], 2.0))
    # The largest legal matmul passes, and its result is right.
    r = nisa.nc_matmul(sb(128, 128), sb(128, 512))
    check(r.buffer == nl.psum and r.shape == (128, 512) and np.all(r.data == 128.0),
          "numpy NKI: a [128x128] x [128x512] matmul lands in PSUM as [128, 512]")


def bf16_rounding():
    rb = nki_numpy.tiles.round_bf16
    one = 1.0
    cases = [
        (one + 2.0 ** -8, one, "a tie rounds to even (down)"),
        (one + 3 * 2.0 ** -8, one + 2.0 ** -6, "a tie rounds to even (up)"),
        (one + 2.0 ** -8 + 2.0 ** -20, one + 2.0 ** -7, "above a tie rounds up"),
        (-(one + 3 * 2.0 ** -8), -(one + 2.0 ** -6), "negative ties"),
        (3.4028234663852886e38, math.inf, "fp32 max overflows to Inf"),
        (math.inf, math.inf, "Inf stays Inf"),
        (-math.inf, -math.inf, "-Inf stays -Inf"),
    ]
    for x, want, what in cases:
        got = float(rb(np.array([x], np.float32))[0])
        check(got == want, "bfloat16 rounding: %s (%r -> %r)" % (what, x, got))
    nan_bits = np.array([0x7F800001, 0xFF800001, 0x7FC00000, 0x7FFFFFFF], np.uint32).view(np.float32)
    check(bool(np.all(np.isnan(rb(nan_bits)))), "bfloat16 rounding: NaN (any payload) stays NaN")
    x = np.random.default_rng(1).standard_normal(100000).astype(np.float32) * 1e3
    got, want = rb(x).astype(np.float64), bf16_ref(x)
    check(bool(np.all(got == want)), "bfloat16 rounding agrees with frexp/rint on 100000 values")
    rel = float(np.max(np.abs(got - x) / np.abs(x)))
    check(rel <= V, "bfloat16 rounding: max relative error %.3g <= 2^-8" % rel)


def main():
    t0 = time.time()
    print("numpy NKI rules and rounding")
    shim_rules()
    bf16_rounding()

    mod = nki_numpy.load_kernel(KERNEL, "trnsci_nki_gemm_numpy")
    z = np.zeros((1, 1, 1, 1), np.float32)
    for kw, what in (({"mode": "tf32"}, "an unknown mode"), ({"dtype": "c32"}, "a dtype that is not P's")):
        try:
            mod.gemm(z, z, z, np.zeros(2, np.float32), **kw)
            check(False, "gemm accepts %s" % what)
        except AssertionError:
            check(True, "gemm rejects %s" % what)
    run_cases("numpy-nki", lambda at, b, c, s, mode, dt: mod.gemm(at, b, c, s, mode=mode, dtype=dt))
    run_sequences(lambda ins, s, nodes, mode, dt: mod.gemm_seq(*ins, s, nodes=nodes, mode=mode, dtype=dt),
                  lambda at, b, c, s, mode, dt: mod.gemm(at, b, c, s, mode=mode, dtype=dt))
    run_colmajor("numpy-nki", lambda a, b, c, s, mode, ta, tb, m, n, k: mod.gemm_cm(
        a, b, c, s, mode=mode, ta=ta, tb=tb, m=m, n=n, k=k))
    za, zb, zc = (np.zeros(shape, np.float32) for shape in ((1, 1, 2, 2), (1, 1, 2, 2), (1, 1, 2, 3)))
    try:
        mod.gemm_cm(za, zb, zc, np.zeros(2, np.float32), m=3, n=2, k=2)
        check(False, "gemm_cm accepts an a whose columns are shorter than m")
    except AssertionError:
        check(True, "gemm_cm rejects an a whose columns are shorter than m")
    try:
        mod.gemm_cm(za, zb, np.zeros((1, 1, 2, 2), np.float32), np.zeros(2, np.float32), m=2, n=2,
                    k=2, dtype="c32")
        check(False, "gemm_cm accepts dtype c32")
    except AssertionError:
        check(True, "gemm_cm rejects dtype c32")
    # Each case's inputs fit its nodes but for the one thing it breaks.
    z = lambda *shape: np.zeros(shape, np.float32)
    sq = z(1, 1, 2, 2)
    for nodes, ins, what in (
            ("g0=2x2x2x1:in,in,in g1=2x2x2x1:in,d1,in", [sq] * 5, "a node that reads itself"),
            ("g0=2x2x2x1:in,in,in g1=2x2x2x1:in,d0,in g2=2x2x2x1:in,in,in", [sq] * 5,
             "too few inputs"),
            ("g0=2x2x2x1:in,in,in g1=2x2x3x1:in,d0,in", [sq] * 3 + [z(1, 1, 3, 2), sq],
             "an earlier d of another shape (b is 3x2, d0 2x2)"),
            ("g0=2x2x2x1:in,in,in", [sq] * 3, "one node")):
        try:
            mod.gemm_seq(*ins, z(nodes.count("g"), 2), nodes=nodes)
            check(False, "gemm_seq accepts %s" % what)
        except AssertionError:
            check(True, "gemm_seq rejects %s" % what)
    # An input b of another shape is refused too, and the same nodes with
    # every input of its shape are accepted: the refusals above are of what
    # each case breaks, not of its inputs.
    try:
        mod.gemm_seq(*([sq] * 3 + [z(1, 1, 3, 2), sq]), z(2, 2),
                     nodes="g0=2x2x2x1:in,in,in g1=2x2x3x1:in,in,in")
        check(False, "gemm_seq accepts a b that is not its input's shape")
    except AssertionError:
        check(True, "gemm_seq rejects an input b of another shape")
    ds = mod.gemm_seq(*([sq] * 3 + [z(1, 1, 3, 2), z(1, 1, 3, 2), sq]), z(2, 2),
                      nodes="g0=2x2x2x1:in,in,in g1=2x2x3x1:in,in,in")
    check(len(ds) == 2, "gemm_seq accepts the same nodes with every input of its shape")

    if importlib.util.find_spec("neuronxcc") is None:
        print("SKIP nki.simulate_kernel: neuronxcc is not installed (the numpy NKI run above still checks the kernel)")
    else:
        import neuronxcc.nki as nki
        spec = importlib.util.spec_from_file_location("trnsci_nki_gemm", KERNEL)
        real = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(real)
        run_cases("nki.simulate_kernel",
                  lambda at, b, c, s, mode, dt: nki.simulate_kernel(real.gemm, at, b, c, s,
                                                                    mode=mode, dtype=dt))
        run_sequences(lambda ins, s, nodes, mode, dt: nki.simulate_kernel(
                          real.gemm_seq, *ins, s, nodes=nodes, mode=mode, dtype=dt),
                      lambda at, b, c, s, mode, dt: nki.simulate_kernel(real.gemm, at, b, c, s,
                                                                        mode=mode, dtype=dt))
        run_colmajor("nki.simulate_kernel", lambda a, b, c, s, mode, ta, tb, m, n, k:
                     nki.simulate_kernel(real.gemm_cm, a, b, c, s, mode=mode, ta=ta, tb=tb,
                                         m=m, n=n, k=k))

    print("%d passed, %d failed (%.1f s)" % (passed, failed, time.time() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
