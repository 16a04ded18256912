#!/usr/bin/python3
"""Independent references for tests/integration/test_rand.c, computed with
Debian's numpy/scipy (must run under /usr/bin/python3).

    rand_ref.py ks FILE f32|f64 expon LAMBDA
    rand_ref.py ks FILE f32|f64 gamma SHAPE SCALE
    rand_ref.py ks FILE f32|f64 beta A B
    rand_ref.py ks FILE f32|f64 truncnorm MEAN STDDEV LO HI
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

Exit status 0 on success, 1 with a message on failure.
"""
import math
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


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "ks":
        return ks(args)
    if cmd == "sobol64":
        return sobol64(args)
    print("unknown command", cmd)
    return 1


if __name__ == "__main__":
    sys.exit(main())
