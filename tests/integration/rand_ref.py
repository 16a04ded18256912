#!/usr/bin/python3
"""Independent references for tests/integration/test_rand.c, computed with
Debian's numpy/scipy (must run under /usr/bin/python3).

    rand_ref.py ks FILE f32|f64 expon LAMBDA
    rand_ref.py ks FILE f32|f64 gamma SHAPE SCALE
    rand_ref.py ks FILE f32|f64 beta A B
    rand_ref.py ks FILE f32|f64 truncnorm MEAN STDDEV LO HI
    rand_ref.py ks FILE f32|f64 uniform | norm MEAN STDDEV | lognorm MEAN STDDEV
        Kolmogorov-Smirnov statistic of the samples in FILE (raw
        little-endian floats or doubles) against the scipy.stats
        distribution (scipy.stats.kstest). Passes when D is below the
        critical value for significance level alpha = 1e-6 from the
        Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant,
        sqrt(ln(2/alpha) / (2n)), plus 1e-6 for the float grid.

    rand_ref.py sobol64 FILE u64|f64 DIMS POINTS OFFSET
        Sobol64 results (dimension-major, POINTS per dimension from point
        OFFSET) against scipy.stats.qmc.Sobol(DIMS, scramble=False, bits=64):
        u64 exactly against the points computed from scipy's own 64-bit
        direction numbers (Sobol._sv) in Gray-code order; f64 (the uniform
        doubles (x >> 11) 2^-53 + 2^-54) against Sobol.random()'s points
        OFFSET .. OFFSET + POINTS - 1, within 2^-52 (2^-53 for dropping the low 11
        bits, 2^-54 for each side's rounding).

    rand_ref.py sobol32 FILE DIMS POINTS OFFSET
        Sobol32 raw words (uint32, dimension-major, POINTS per dimension from
        point OFFSET) exactly against scipy.stats.qmc.Sobol(DIMS,
        scramble=False, bits=32): fast_forward(OFFSET), then random(POINTS)
        times 2^32 (exact: scipy's points are multiples of 2^-32).

    rand_ref.py directions FILE32 FILE64 DIMS
        The tables of trnrandGetDirectionVectors32 (DIMS x 32 uint32) and
        trnrandGetDirectionVectors64 (DIMS x 64 uint64) exactly against
        scipy's own direction numbers, Sobol(DIMS, scramble=False,
        bits=32)._sv and Sobol(DIMS, scramble=False, bits=64)._sv.

    rand_ref.py poisson FILE LAMBDA
        FILE raw uint32 Poisson samples: sample mean within 5 sqrt(lambda/n)
        and variance within 5 sqrt((lambda + 2 lambda^2)/n) of lambda, and a
        chi-square test against scipy.stats.poisson over cells of expected
        count >= 50 (tails pooled) at alpha = 1e-6 (scipy's chi2 quantile).

    rand_ref.py xorwow FILE SEED OFFSET
        FILE raw uint32 words: they must be words OFFSET, OFFSET + 1, ... of
        trnrand's XORWOW stream of SEED, written here from the definitions:
        Marsaglia's xorwow() step ("Xorshift RNGs", J. Stat. Soft. 8(14),
        2003, p. 5), cuRAND's documented curand_init(seed, 0, 0) state (salt
        0xaad26b49 / 0xf7dcefdd, multipliers 1099087573 / 2591861531 added to
        or XORed with Marsaglia's initial values), and OFFSET steps skipped by
        powers of the step's 160 x 160 GF(2) matrix built here with Python
        integers (the Weyl counter advanced by 362437 OFFSET mod 2^32).

    rand_ref.py xorwow-marsaglia FILE
        FILE raw uint32 words: Marsaglia's xorwow() from his initial values
        x, y, z, w, v, d = 123456789, 362436069, 521288629, 88675123,
        5783321, 6615241, first output first.

    rand_ref.py mrg32k3a FILE SEED OFFSET
        FILE raw uint32 words: words OFFSET, OFFSET + 1, ... of trnrand's
        MRG32k3a stream of SEED, from the definitions: L'Ecuyer's recurrences
        (Oper. Res. 47(1), 1999) with cuRAND's documented curand_init seeding
        (all 12345 for seed 0; otherwise 12345 times x1 = lo32 ^ 0x55555555,
        x2 = hi32 ^ 0xAAAAAAAA modulo m1, m2), OFFSET steps skipped by
        pow() of the 3 x 3 step matrices modulo m1, m2 (Python integers), and
        cuRAND's curand() word trunc(r * 1.000000048662), saturated at
        2^32 - 1. For seed 0 it first checks that its recurrence gives
        L'Ecuyer's published Y_1..Y_5 and RngStream's published U_1000 and
        U_100000.

    rand_ref.py mt19937 FILE SEED OFFSET
        FILE raw uint32 words: words OFFSET, OFFSET + 1, ... of trnrand's
        MT19937 stream of SEED: word j is output j mod 2^16 of the MT19937
        generator of block j >> 20, initialised by init_by_array({lo32(SEED),
        hi32(SEED), lo32(block), hi32(block)}), computed with numpy's legacy
        RandomState(key) (Matsumoto-Nishimura's init_by_array and
        genrand_int32, numpy's own C code); it first checks that RandomState
        gives the published 3499211612 for init_genrand(5489) and the first
        mt19937ar.out values for the key {0x123, 0x234, 0x345, 0x456}.

    rand_ref.py mtgp32 FILE SEED OFFSET [STATES]
        FILE raw uint32 words: words OFFSET, OFFSET + 1, ... of trnrand's
        MTGP32 stream of SEED in cuRAND's host-API layout of STATES (192,
        or 64 for the legacy ordering) interleaved MTGP32 states: word j is
        output 256 (j // (256 STATES)) + j % 256 of state (j // 256) % STATES,
        state b using parameter set b of mtgp32dc_params_fast_11213 (read
        from kernels/cpu/mtgp32_params.c as data) and the 32-bit seed
        lo32(SEED ^ (SEED >> 32)) + b + 1. The generator is written here from
        Saito and Matsumoto's definition (mtgp32_init_state; x[k + N] =
        rec(x[k], x[k + 1], x[k + pos]) with N = 351, tempered with x[k + pos
        - 1]), as a plain growing list of the sequence, not a ring. It first
        checks that parameter set 0 seeded with 1235 (cuRAND's first state
        for seed 1234) gives the first outputs cuRAND's host generator
        returns for seed 1234.

Exit status 0 on success, 1 with a message on failure.
"""
import functools
import math
import os
import re
import sys
import warnings

import numpy as np
from scipy import stats
from scipy.stats import qmc

ALPHA = 1e-6


def ks(args):
    path, typ, dist = args[0], args[1], args[2]
    p = [float(a) for a in args[3:]]
    x = np.fromfile(path, dtype=np.float32 if typ == "f32" else np.float64).astype(np.float64)
    if dist == "expon":
        cdf = stats.expon(scale=1.0 / p[0]).cdf
    elif dist == "gamma":
        cdf = stats.gamma(p[0], scale=p[1]).cdf
    elif dist == "beta":
        cdf = stats.beta(p[0], p[1]).cdf
    elif dist == "uniform":
        cdf = stats.uniform(0.0, 1.0).cdf
    elif dist == "norm":
        cdf = stats.norm(p[0], p[1]).cdf
    elif dist == "lognorm":
        cdf = stats.lognorm(p[1], scale=math.exp(p[0])).cdf
    elif dist == "truncnorm":
        mean, sd, lo, hi = p
        cdf = stats.truncnorm((lo - mean) / sd, (hi - mean) / sd, loc=mean, scale=sd).cdf
    else:
        print("unknown distribution", dist)
        return 1
    if not np.all(np.isfinite(x)):
        print("non-finite samples")
        return 1
    n = len(x)
    res = stats.kstest(x, cdf)
    crit = math.sqrt(math.log(2.0 / ALPHA) / (2.0 * n)) + 1e-6
    print("%s %s %s n=%d D=%.6g p=%.4g crit=%.6g" % (dist, typ, p, n, res.statistic, res.pvalue, crit))
    return 0 if res.statistic < crit else 1


def sobol64(args):
    path, typ = args[0], args[1]
    dims, points, offset = int(args[2]), int(args[3]), int(args[4])
    warnings.simplefilter("ignore")
    eng = qmc.Sobol(d=dims, scramble=False, bits=64)
    if typ == "u64":
        got = np.fromfile(path, dtype=np.uint64).reshape(dims, points)
        sv = [[int(v) for v in eng._sv[j]] for j in range(dims)]
        bad = 0
        for j in range(dims):
            for i in range(points):
                k = offset + i
                g = k ^ (k >> 1)
                x, b = 0, 0
                while g:
                    if g & 1:
                        x ^= sv[j][b]
                    g >>= 1
                    b += 1
                if int(got[j, i]) != x:
                    if bad < 5:
                        print("dim %d point %d: got %#x, scipy %#x" % (j, k, int(got[j, i]), x))
                    bad += 1
        print("sobol64 u64 dims=%d points=%d offset=%d mismatches=%d" % (dims, points, offset, bad))
        return 0 if bad == 0 else 1
    got = np.fromfile(path, dtype=np.float64).reshape(dims, points)
    # Sobol.fast_forward fails for bits=64 in scipy 1.10 (a uint32 buffer
    # type), so draw the points before OFFSET and drop them.
    want = eng.random(offset + points)[offset:].T
    err = float(np.max(np.abs(got - want)))
    print("sobol64 f64 dims=%d points=%d offset=%d max|diff|=%.3g" % (dims, points, offset, err))
    return 0 if err <= 2.0**-52 else 1


def sobol32(args):
    path = args[0]
    dims, points, offset = int(args[1]), int(args[2]), int(args[3])
    warnings.simplefilter("ignore")
    eng = qmc.Sobol(d=dims, scramble=False, bits=32)
    if offset:
        eng.fast_forward(offset)
    want = np.rint(eng.random(points) * 2.0**32).astype(np.uint64).T
    got = np.fromfile(path, dtype=np.uint32).astype(np.uint64).reshape(dims, points)
    bad = int(np.sum(got != want))
    if bad:
        j, i = np.argwhere(got != want)[0]
        print("dim %d point %d: got %#x, scipy %#x" % (j, offset + i, int(got[j, i]),
                                                         int(want[j, i])))
    print("sobol32 dims=%d points=%d offset=%d mismatches=%d" % (dims, points, offset, bad))
    return 0 if bad == 0 else 1


def directions(args):
    p32, p64, dims = args[0], args[1], int(args[2])
    warnings.simplefilter("ignore")
    sv32 = qmc.Sobol(d=dims, scramble=False, bits=32)._sv.astype(np.uint64)
    sv64 = qmc.Sobol(d=dims, scramble=False, bits=64)._sv.astype(np.uint64)
    got32 = np.fromfile(p32, dtype=np.uint32).astype(np.uint64).reshape(dims, 32)
    got64 = np.fromfile(p64, dtype=np.uint64).reshape(dims, 64)
    bad32 = int(np.sum(got32 != sv32[:, :32]))
    bad64 = int(np.sum(got64 != sv64[:, :64]))
    print("directions dims=%d mismatches 32-bit %d 64-bit %d" % (dims, bad32, bad64))
    return 0 if bad32 == 0 and bad64 == 0 else 1


def poisson(args):
    path, lam = args[0], float(args[1])
    x = np.fromfile(path, dtype=np.uint32).astype(np.float64)
    n = len(x)
    mean, var = float(np.mean(x)), float(np.var(x, ddof=1))
    ok = abs(mean - lam) <= 5 * math.sqrt(lam / n)
    ok = ok and abs(var - lam) <= 5 * math.sqrt((lam + 2 * lam * lam) / n)
    # cells of expected count >= 50, tails pooled into the end cells
    dist = stats.poisson(lam)
    lo, hi = int(dist.ppf(1e-12)), int(dist.ppf(1 - 1e-12)) + 1
    ks_ = np.arange(lo, hi + 1)
    pm = dist.pmf(ks_)
    cells, cur, edges = [], 0.0, []
    for k, pk in zip(ks_, pm):
        cur += pk
        if cur * n >= 50:
            edges.append(k)
            cells.append(cur)
            cur = 0.0
    if not edges:
        edges, cells = [hi], [1.0]
    counts = np.zeros(len(edges))
    idx = np.searchsorted(np.array(edges), x, side="left")
    idx = np.minimum(idx, len(edges) - 1)
    np.add.at(counts, idx, 1)
    # expected: cell j holds k in (edges[j-1], edges[j]]; first from 0, last to inf
    exp = []
    prev = -1
    for j, e in enumerate(edges):
        top = dist.cdf(e) if j < len(edges) - 1 else 1.0
        exp.append((top - (dist.cdf(prev) if prev >= 0 else 0.0)) * n)
        prev = e
    exp = np.array(exp)
    chi = float(np.sum((counts - exp) ** 2 / exp)) if len(exp) > 1 else 0.0
    df = max(len(exp) - 1, 1)
    crit = float(stats.chi2.ppf(1 - ALPHA, df))
    print("poisson lambda=%g n=%d mean=%.6g var=%.6g chi2=%.4g df=%d crit=%.4g"
          % (lam, n, mean, var, chi, df, crit))
    return 0 if ok and chi < crit else 1


MASK = 0xFFFFFFFF


def xw_step(st):
    """One xorwow() step on [x, y, z, w, v, d]; returns the output."""
    x, y, z, w, v, d = st
    t = x ^ (x >> 2)
    x, y, z, w = y, z, w, v
    v = (v ^ ((v << 4) & MASK)) ^ (t ^ ((t << 1) & MASK))
    d = (d + 362437) & MASK
    st[:] = [x, y, z, w, v, d]
    return (d + v) & MASK


def xw_pack(st):
    return st[0] | st[1] << 32 | st[2] << 64 | st[3] << 96 | st[4] << 128


def xw_unpack(r, d):
    return [(r >> (32 * i)) & MASK for i in range(5)] + [d]


def xw_apply(cols, r):
    out, b = 0, 0
    while r:
        if r & 1:
            out ^= cols[b]
        r >>= 1
        b += 1
    return out


def xw_skip(st, n):
    cols = []
    for b in range(160):
        e = xw_unpack(1 << b, 0)
        xw_step(e)
        cols.append(xw_pack(e))
    r, k = xw_pack(st), n
    while k:
        if k & 1:
            r = xw_apply(cols, r)
        k >>= 1
        if k:
            cols = [xw_apply(cols, c) for c in cols]
    return xw_unpack(r, (st[5] + 362437 * n) & MASK)


def xw_seeded(seed):
    s0 = (seed & MASK) ^ 0xAAD26B49
    s1 = ((seed >> 32) & MASK) ^ 0xF7DCEFDD
    t0 = (1099087573 * s0) & MASK
    t1 = (2591861531 * s1) & MASK
    return [(123456789 + t0) & MASK, 362436069 ^ t0, (521288629 + t1) & MASK,
            88675123 ^ t1, (5783321 + t0) & MASK, (6615241 + t1 + t0) & MASK]


def xw_compare(path, st, what):
    got = np.fromfile(path, dtype=np.uint32)
    bad = 0
    for i, g in enumerate(got):
        want = xw_step(st)
        if int(g) != want:
            if bad < 5:
                print("%s word %d: got %#x, want %#x" % (what, i, int(g), want))
            bad += 1
    print("%s words=%d mismatches=%d" % (what, len(got), bad))
    return 0 if bad == 0 else 1


def xorwow(args):
    path, seed, offset = args[0], int(args[1], 0), int(args[2], 0)
    st = xw_skip(xw_seeded(seed), offset) if offset else xw_seeded(seed)
    return xw_compare(path, st, "xorwow seed=%#x offset=%d" % (seed, offset))


def xorwow_marsaglia(args):
    st = [123456789, 362436069, 521288629, 88675123, 5783321, 6615241]
    return xw_compare(args[0], st, "xorwow (Marsaglia's initial values)")


M1, M2 = 4294967087, 4294944443
A1 = [[0, 1, 0], [0, 0, 1], [M1 - 810728, 1403580, 0]]
A2 = [[0, 1, 0], [0, 0, 1], [M2 - 1370589, 0, 527612]]


def mat_mul(a, b, m):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) % m for j in range(3)] for i in range(3)]


def mat_pow(a, n, m):
    r = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    while n:
        if n & 1:
            r = mat_mul(a, r, m)
        a = mat_mul(a, a, m)
        n >>= 1
    return r


def mrg_step(s1, s2):
    p1 = (1403580 * s1[1] - 810728 * s1[0]) % M1
    p2 = (527612 * s2[2] - 1370589 * s2[0]) % M2
    s1[:] = [s1[1], s1[2], p1]
    s2[:] = [s2[1], s2[2], p2]
    return p1 - p2 if p1 > p2 else p1 - p2 + M1


def mrg_word(r):
    v = float(r) * 1.000000048662
    return 0xFFFFFFFF if v >= 4294967296.0 else int(v)


def mrg32k3a(args):
    path, seed, offset = args[0], int(args[1], 0), int(args[2], 0)
    s1, s2 = [12345] * 3, [12345] * 3
    if seed == 0:
        y = [mrg_step(s1, s2) for _ in range(5)]
        if y != [545508589, 1368065410, 1327943761, 3546985096, 951893194]:
            print("the recurrence does not give the published Y_1..5:", y)
            return 1
        for _ in range(994):
            mrg_step(s1, s2)
        u1000 = mrg_step(s1, s2) * 2.328306549295728e-10
        for _ in range(100000 - 1000 - 1):
            mrg_step(s1, s2)
        u100000 = mrg_step(s1, s2) * 2.328306549295728e-10
        if u1000 != 0.98607848680213228 or u100000 != 0.69628910995743587:
            print("published U_1000, U_100000 not reproduced:", repr(u1000), repr(u100000))
            return 1
        s1, s2 = [12345] * 3, [12345] * 3
    else:
        x1 = (seed & MASK) ^ 0x55555555
        x2 = ((seed >> 32) & MASK) ^ 0xAAAAAAAA
        s1 = [x1 * 12345 % M1, x2 * 12345 % M1, x1 * 12345 % M1]
        s2 = [x2 * 12345 % M2, x1 * 12345 % M2, x2 * 12345 % M2]
    p1, p2 = mat_pow(A1, offset, M1), mat_pow(A2, offset, M2)
    s1 = [sum(p1[i][k] * s1[k] for k in range(3)) % M1 for i in range(3)]
    s2 = [sum(p2[i][k] * s2[k] for k in range(3)) % M2 for i in range(3)]
    got = np.fromfile(path, dtype=np.uint32)
    bad = 0
    for i, g in enumerate(got):
        want = mrg_word(mrg_step(s1, s2))
        if int(g) != want:
            if bad < 5:
                print("word %d: got %#x, want %#x" % (i, int(g), want))
            bad += 1
    print("mrg32k3a seed=%#x offset=%d words=%d mismatches=%d" % (seed, offset, len(got), bad))
    return 0 if bad == 0 else 1


MT_BLOCK_BITS = 16


def mt19937(args):
    path, seed, offset = args[0], int(args[1], 0), int(args[2], 0)
    if int(np.random.RandomState(5489)._bit_generator.random_raw(1)[0]) != 3499211612:
        print("numpy's init_genrand(5489) does not give the published 3499211612")
        return 1
    pub = [1067595299, 955945823, 477289528, 4107218783, 4228976476]
    got5 = np.random.RandomState([0x123, 0x234, 0x345, 0x456])._bit_generator.random_raw(5)
    if [int(v) for v in got5] != pub:
        print("numpy's init_by_array does not give mt19937ar.out")
        return 1
    got = np.fromfile(path, dtype=np.uint32)
    want = []
    j, end = offset, offset + len(got)
    while j < end:
        block = j >> MT_BLOCK_BITS
        start = block << MT_BLOCK_BITS
        stop = min(end, start + (1 << MT_BLOCK_BITS))
        key = [seed & MASK, seed >> 32, block & MASK, block >> 32]
        raw = np.random.RandomState(key)._bit_generator.random_raw(stop - start)
        want.append(raw[j - start:].astype(np.uint32))
        j = stop
    want = np.concatenate(want)
    bad = int(np.sum(got != want))
    if bad:
        i = int(np.argmax(got != want))
        print("word %d: got %#x, want %#x" % (i, int(got[i]), int(want[i])))
    print("mt19937 seed=%#x offset=%d words=%d mismatches=%d" % (seed, offset, len(got), bad))
    return 0 if bad == 0 else 1


MTGP_N = 351


def mtgp_params():
    """The 200 parameter sets (pos, sh1, sh2, tbl[16], tmp_tbl[16]) from the
    basis entries 1, 2, 4, 8 that kernels/cpu/mtgp32_params.c keeps."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "kernels", "cpu", "mtgp32_params.c")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    sets = []
    for m in re.finditer(r"\{(\d+), (\d+), (\d+), \{([^}]*)\},\s*\{([^}]*)\}\}", text):
        def full(basis):
            v = [int(x.strip().rstrip("u"), 16) for x in basis.split(",")]
            return [functools.reduce(lambda a, k: a ^ (v[k] if i >> k & 1 else 0), range(4), 0)
                    for i in range(16)]
        sets.append((int(m[1]), int(m[2]), int(m[3]), full(m[4]), full(m[5])))
    if len(sets) != 200:
        raise SystemExit("mtgp32_params.c: %d parameter sets, want 200" % len(sets))
    return sets


class Mtgp32:
    """One MTGP32 generator: x holds the whole sequence so far."""

    def __init__(self, param, seed):
        self.pos, self.sh1, self.sh2, self.tbl, self.tmp = param
        hidden = self.tbl[4] ^ ((self.tbl[8] << 16) & MASK)
        t = hidden
        t = (t + (t >> 16)) & MASK
        t = (t + (t >> 8)) & MASK
        x = [(t & 0xFF) * 0x01010101] * MTGP_N
        x[0], x[1] = seed & MASK, hidden
        for i in range(1, MTGP_N):
            x[i] ^= (1812433253 * (x[i - 1] ^ (x[i - 1] >> 30)) + i) & MASK
        self.x = x
        self.out = []

    def output(self, k):
        while len(self.out) <= k:
            x, n = self.x, len(self.out)
            v = (x[n] & 0xFFF80000) ^ x[n + 1]
            v ^= (v << self.sh1) & MASK
            y = v ^ (x[n + self.pos] >> self.sh2)
            r = y ^ self.tbl[y & 15]
            x.append(r)
            t = x[n + self.pos - 1]
            t ^= t >> 16
            t ^= t >> 8
            self.out.append(r ^ self.tmp[t & 15])
        return self.out[k]


def mtgp32(args):
    path, seed, offset = args[0], int(args[1], 0), int(args[2], 0)
    states = int(args[3]) if len(args) > 3 else 192
    params = mtgp_params()
    first = [Mtgp32(params[0], 1235).output(k) for k in range(5)]
    if first != [2501053709, 1991185121, 2644103708, 4279383218, 507727339]:
        print("parameter set 0, seed 1235 does not give cuRAND's first words:", first)
        return 1
    got = np.fromfile(path, dtype=np.uint32)
    seed32 = (seed ^ (seed >> 32)) & MASK
    gens = {}
    bad = 0
    for i, g in enumerate(got):
        j = offset + i
        b = (j // 256) % states
        if b not in gens:
            gens[b] = Mtgp32(params[b], (seed32 + b + 1) & MASK)
        want = gens[b].output(256 * (j // (256 * states)) + j % 256)
        if int(g) != want:
            if bad < 5:
                print("word %d: got %#x, want %#x" % (i, int(g), want))
            bad += 1
    print("mtgp32 seed=%#x offset=%d states=%d words=%d mismatches=%d"
          % (seed, offset, states, len(got), bad))
    return 0 if bad == 0 else 1


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "ks":
        return ks(args)
    if cmd == "sobol64":
        return sobol64(args)
    if cmd == "sobol32":
        return sobol32(args)
    if cmd == "directions":
        return directions(args)
    if cmd == "poisson":
        return poisson(args)
    if cmd == "xorwow":
        return xorwow(args)
    if cmd == "xorwow-marsaglia":
        return xorwow_marsaglia(args)
    if cmd == "mrg32k3a":
        return mrg32k3a(args)
    if cmd == "mt19937":
        return mt19937(args)
    if cmd == "mtgp32":
        return mtgp32(args)
    print("unknown command", cmd)
    return 1


if __name__ == "__main__":
    sys.exit(main())
