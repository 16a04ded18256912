"""trnsci.random: bit-exact to trnrand's C API, and the distributions right.

Bits: each Generator method is compared with the same C call made through
ctypes on (a) a C device generator and (b) a host generator
(trnrandCreateGeneratorHost, which runs trnrand's kernels in this process,
without the daemon) of the same seed and offset, call after call. The raw
Philox words are also checked against Random123's known-answer vector
(philox4x32-10, counter 0, key 0).
Distributions: Kolmogorov-Smirnov against scipy.stats at n = 20000; with a
fixed seed the test is deterministic, and a p-value threshold of 1e-4 means
a correct sampler fails for about one seed in 10^4. Poisson: sample mean
and variance within 5 standard errors of lam.
"""
import ctypes

import numpy as np
import pytest
import scipy.stats as st

import trnsci
from trnsci import _lib as L
from trnsci import random as R

_v, _sz = L.c_void_p, L.c_size_t


def c_generator(seed, offset, host):
    h = ctypes.c_void_p()
    create = "trnrandCreateGeneratorHost" if host else "trnrandCreateGenerator"
    assert L.fn(create, L.c_int, L.P(_v), L.c_int)(L.byref(h), R.PHILOX4_32_10) == 0
    assert L.fn("trnrandSetPseudoRandomGeneratorSeed", L.c_int, _v, L.c_ulonglong)(h, seed) == 0
    assert L.fn("trnrandSetGeneratorOffset", L.c_int, _v, L.c_ulonglong)(h, offset) == 0
    return h


def c_fill(h, host, name, dtype, n, params, ptypes):
    f = L.fn(name, L.c_int, _v, _v, _sz, *ptypes)
    if host:
        out = np.empty(n, dtype)
        assert f(h, out.ctypes.data, n, *params) == 0
        return out
    out = trnsci.empty(n, dtype)
    assert f(h, out.ptr, n, *params) == 0
    return out.get()


F, D = ctypes.c_float, ctypes.c_double
# (method, kwargs, C function, dtype, C params, C param types, count rounding)
CASES = [
    ("random", {"dtype": np.float32}, "trnrandGenerateUniform", np.float32, (), (), 1),
    ("random", {}, "trnrandGenerateUniformDouble", np.float64, (), (), 1),
    ("bits", {}, "trnrandGenerate", np.uint32, (), (), 1),
    ("normal", {"loc": 1.5, "scale": 2.0, "dtype": np.float32}, "trnrandGenerateNormal",
     np.float32, (1.5, 2.0), (F, F), 2),
    ("normal", {"loc": -1.0, "scale": 0.5}, "trnrandGenerateNormalDouble", np.float64,
     (-1.0, 0.5), (D, D), 2),
    ("lognormal", {"mean": 0.2, "sigma": 0.7}, "trnrandGenerateLogNormalDouble", np.float64,
     (0.2, 0.7), (D, D), 2),
    ("lognormal", {"mean": 0.2, "sigma": 0.7, "dtype": np.float32}, "trnrandGenerateLogNormal",
     np.float32, (0.2, 0.7), (F, F), 2),
    ("poisson", {"lam": 4.5}, "trnrandGeneratePoisson", np.uint32, (4.5,), (D,), 1),
    ("exponential", {"scale": 2.0}, "trnrandGenerateExponentialDouble", np.float64, (0.5,),
     (D,), 1),
    ("exponential", {"scale": 0.25, "dtype": np.float32}, "trnrandGenerateExponential",
     np.float32, (4.0,), (D,), 1),
    ("gamma", {"shape": 0.7, "scale": 3.0}, "trnrandGenerateGammaDouble", np.float64, (0.7, 3.0),
     (D, D), 1),
    ("gamma", {"shape": 2.5, "dtype": np.float32}, "trnrandGenerateGamma", np.float32,
     (2.5, 1.0), (D, D), 1),
    ("beta", {"a": 2.0, "b": 5.0}, "trnrandGenerateBetaDouble", np.float64, (2.0, 5.0), (D, D), 1),
    ("truncated_normal", {"loc": 0.0, "scale": 1.0, "low": -0.5, "high": 2.0},
     "trnrandGenerateTruncatedNormalDouble", np.float64, (0.0, 1.0, -0.5, 2.0), (D,) * 4, 1),
]


@pytest.mark.parametrize("case", CASES, ids=[c[2] for c in CASES])
@pytest.mark.parametrize("host", [False, True], ids=["device", "host"])
def test_bit_exact_to_c_api(case, host):
    method, kw, name, dtype, params, ptypes, pair = case
    seed, offset = 20261129, 12345
    g = R.Generator(seed, offset=offset)
    h = c_generator(seed, offset, host)
    try:
        for n in (7, 64, 1001):  # consecutive calls continue one stream
            got = getattr(g, method)(size=n, **kw).get()
            count = n + (n % 2 if pair == 2 else 0)
            ref = c_fill(h, host, name, dtype, count, params, ptypes)[:n]
            assert got.dtype == ref.dtype
            assert np.array_equal(got.view(np.uint8), ref.view(np.uint8))
    finally:
        L.fn("trnrandDestroyGenerator", L.c_int, _v)(h)


def test_philox_known_answer():
    # Random123 kat_vectors: philox4x32-10, counter 0, key 0.
    words = R.Generator(0).bits(4).get()
    assert [int(w) for w in words] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


def test_shapes_and_determinism():
    g1, g2 = R.Generator(5), R.default_rng(5)
    a = g1.normal(size=(3, 4, 5))
    assert a.shape == (3, 4, 5) and a.dtype == np.float64
    assert np.array_equal(a.get(), g2.normal(size=(3, 4, 5)).get())
    assert g1.random().shape == ()
    assert g1.random(size=0).shape == (0,)


N = 20000
P_MIN = 1e-4


@pytest.mark.parametrize("method,kw,dist", [
    ("random", {}, st.uniform()),
    ("random", {"dtype": np.float32}, st.uniform()),
    ("normal", {"loc": 2.0, "scale": 3.0}, st.norm(2.0, 3.0)),
    ("normal", {"dtype": np.float32}, st.norm()),
    ("lognormal", {"mean": 0.3, "sigma": 0.6}, st.lognorm(0.6, scale=np.exp(0.3))),
    ("exponential", {"scale": 2.0}, st.expon(scale=2.0)),
    ("gamma", {"shape": 0.6, "scale": 2.0}, st.gamma(0.6, scale=2.0)),
    ("gamma", {"shape": 4.0}, st.gamma(4.0)),
    ("beta", {"a": 0.5, "b": 2.0}, st.beta(0.5, 2.0)),
    ("truncated_normal", {"low": -1.0, "high": 0.5}, st.truncnorm(-1.0, 0.5)),
])
def test_distribution_ks(method, kw, dist):
    x = getattr(R.Generator(777), method)(size=N, **kw).get().astype(np.float64)
    assert st.kstest(x, dist.cdf).pvalue > P_MIN


@pytest.mark.parametrize("lam", [0.5, 7.0, 300.0])
def test_poisson_moments(lam):
    x = R.Generator(99).poisson(lam, N).get().astype(np.float64)
    se_mean = np.sqrt(lam / N)
    se_var = np.sqrt((lam + 2 * lam**2) / N)  # Var of the sample variance of a Poisson
    assert abs(x.mean() - lam) <= 5 * se_mean
    assert abs(x.var() - lam) <= 5 * se_var


def test_bad_input():
    g = R.Generator(1)
    with pytest.raises(trnsci.TrnsciError) as e:
        g.normal(0.0, -1.0, 4)
    assert e.value.status == 104 and e.value.name == "TRNRAND_STATUS_OUT_OF_RANGE"
    assert e.value.message
    with pytest.raises(trnsci.TrnsciError):
        g.poisson(0.0, 4)
    with pytest.raises(TypeError):
        g.random(4, dtype=np.int32)
    with pytest.raises(ValueError):
        g.exponential(-1.0, 3)
    # The generator and the daemon carry on, the failed calls consumed nothing.
    g2 = R.Generator(1)
    assert np.array_equal(g.random(8).get(), g2.random(8).get())
