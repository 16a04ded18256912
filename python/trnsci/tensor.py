"""trnsci.tensor — numpy.einsum-level tensor operations over trntensor.

Role: `einsum` (NumPy's notation; more than two operands are contracted
pairwise in the order trntensorEinsumPath finds), `contract`, `permute`,
`reduce` (cuTENSOR's operations through descriptors and plans), and the
DF-MP2 kernels `ao_to_mo` and `mp2_energy` (trntensor_chem.h).
A NumPy-layout array maps onto a tensor descriptor without a copy: its
modes are its axes in order, with its extents and its strides in elements
(cuTENSOR's descriptors take any positive strides). Results are new
C-ordered arrays.
Invariants: operands are never modified; all operands of one call have one
dtype (float32, float64, complex64, complex128; NumPy inputs are converted
to the common type, trnsci ones must match); axes of extent 1 and
broadcast (stride 0) or reversed axes are given packed copies, as the
descriptors need strides >= 1. Outside a Stream block each call returns
once its result is complete.
"""
import ctypes

import numpy as np

from . import _fam
from . import _lib as L
from . import _runtime
from ._array import asarray, empty, ndarray

__all__ = ["einsum", "einsum_path", "contract", "permute", "reduce", "ao_to_mo", "mp2_energy"]

_v, _i, _u32, _i64 = L.c_void_p, L.c_int, ctypes.c_uint32, ctypes.c_int64
_DATATYPE = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
             np.dtype(np.complex64): 4, np.dtype(np.complex128): 5}
_IDENTITY = 1
_REDUCE_OPS = {"sum": 3, "prod": 5, "max": 6, "min": 7}
# precision → compute descriptor symbol, per data precision (as trnsci.linalg's modes)
_COMPUTE32 = {"default": "32F", "tf32": "32F_FAST_TF32", "bf16": "32F_FAST_16BF",
              "bf16x3": "32F_BF16X3", "fp16": "16F"}
_COMPUTE64 = {"default": "64F", "emulated": "64F_EMULATED"}
MAX_MODES = 16


def _check(status, name):
    _fam.check(status, name, "tensor")


def _compute(dtype, precision):
    table = _COMPUTE32 if dtype in (np.float32, np.complex64) else _COMPUTE64
    sym = table.get(precision)
    if sym is None:
        raise ValueError(f"precision {precision!r} for {dtype}: one of {sorted(table)}")
    return ctypes.c_void_p.in_dll(L.lib(), "TRNTENSOR_COMPUTE_DESC_" + sym).value


def _scalar(dtype, x):
    if dtype.kind == "c":
        t = (ctypes.c_float if dtype == np.complex64 else ctypes.c_double) * 2
        return t(complex(x).real, complex(x).imag)
    return (ctypes.c_float if dtype == np.float32 else ctypes.c_double)(x)


def _operands(arrays):
    """The operands as device arrays of one dtype, each with strides >= 1."""
    if any(isinstance(a, ndarray) for a in arrays):
        dts = {a.dtype for a in arrays if isinstance(a, ndarray)}
        if len(dts) > 1:
            raise TypeError(f"operands have dtypes {sorted(map(str, dts))}: convert explicitly")
        dt = dts.pop()
        dt = np.result_type(dt, *[np.asarray(a).dtype for a in arrays
                                  if not isinstance(a, ndarray)])
    else:
        dt = np.result_type(*[np.asarray(a).dtype for a in arrays])
    if dt.kind in "biu":
        dt = np.dtype(np.float64)
    if dt not in _DATATYPE:
        raise TypeError(f"trnsci.tensor takes float32, float64, complex64 or complex128, "
                        f"not {dt}")
    out = []
    for a in arrays:
        a = asarray(a, dtype=dt)
        if a.ndim > MAX_MODES:
            raise ValueError(f"an operand has {a.ndim} axes; trntensor takes at most {MAX_MODES}")
        if any(s <= 0 or s % a.itemsize for n, s in zip(a.shape, a.strides) if n > 1):
            a = a.copy("C")
        out.append(a)
    return out, dt


class _Desc:
    """A trntensorTensorDescriptor_t of a device array (freed with the object)."""

    def __init__(self, h, a, shape=None):
        shape = a.shape if shape is None else shape
        ext = (_i64 * max(len(shape), 1))(*shape)
        strides = [s // a.itemsize if n > 1 else 1 for n, s in zip(shape, a.strides)]
        st = (_i64 * max(len(shape), 1))(*strides)
        self.d = ctypes.c_void_p()
        _check(L.fn("trntensorCreateTensorDescriptor", _i, _v, L.P(_v), _u32, _v, _v, _i, _u32)(
            h, L.byref(self.d), len(shape), ext, st, _DATATYPE[a.dtype], 0),
            "trntensorCreateTensorDescriptor")

    def __del__(self):
        if self.d.value:
            L.fn("trntensorDestroyTensorDescriptor", _i, _v)(self.d)


# ---- einsum -------------------------------------------------------------------
def _parse(subscripts, operands):
    s = subscripts.replace(" ", "")
    if "." in s:
        raise ValueError("einsum: ellipses ('...') are not taken; name every axis")
    if "->" in s:
        ins, out = s.split("->")
    else:
        ins = s
        letters = ins.replace(",", "")
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    terms = ins.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: {len(terms)} terms in {subscripts!r} for "
                         f"{len(operands)} operands")
    extent = {}
    for t, a in zip(terms, operands):
        if not all(c.isalpha() and c.isascii() for c in t):
            raise ValueError(f"einsum: subscripts are letters a-z, A-Z, not {t!r}")
        if len(t) != a.ndim:
            raise ValueError(f"einsum: term {t!r} names {len(t)} axes of a {a.ndim}-d operand")
        for c, n in zip(t, a.shape):
            if extent.setdefault(c, n) != n:
                raise ValueError(f"einsum: axis {c!r} has extents {extent[c]} and {n}")
    for c in out:
        if c not in extent or out.count(c) > 1:
            raise ValueError(f"einsum: output subscript {c!r} is not an input's, or repeats")
    return terms, out, extent


def _einsum2(h, terms, out, ops, extent, dt, compute, precision):
    """One trntensorEinsum call: ops is one or two device arrays."""
    shape = tuple(extent[c] for c in out)
    res = empty(shape, dt)
    if res.size == 0:
        return res
    if any(a.size == 0 for a in ops):
        res.set(0)
        return res
    if len(ops) == 2 and _fam.capturing():
        # trntensorEinsum's own plan ends with the call; a graph needs one that lasts
        return contract(ops[0], terms[0], ops[1], terms[1], out, c=res, precision=precision)
    da = _Desc(h, ops[0])
    db = _Desc(h, ops[1]) if len(ops) == 2 else None
    dc = _Desc(h, res)
    sub = ",".join(terms) + "->" + out
    _check(L.fn("trntensorEinsum", _i, _v, L.c_char_p, _v, _v, _v, _v, _v, _v, _v, _v, _v)(
        h, sub.encode(), L.byref(_scalar(dt, 1)), da.d, ops[0].ptr,
        db.d if db else None, ops[1].ptr if db else None, L.byref(_scalar(dt, 0)), dc.d,
        res.ptr, compute), "trntensorEinsum")
    _fam.keep(res, *ops)
    return res


def einsum_path(subscripts, *operands, optimize="greedy"):
    """(path, flops): the pairwise order trntensorEinsumPath picks
    (numpy.einsum_path's convention: each pair's positions in the current list)."""
    ops, dt = _operands(operands)
    terms, out, extent = _parse(subscripts, ops)
    return _path(_fam.tensor_handle(), terms, out, ops, optimize)


def _path(h, terms, out, ops, optimize):
    n = len(ops)
    if n < 3 or optimize is False:
        return [(0, 1)] * (n - 1), float("nan")
    algo = {"greedy": 0, True: 0, "optimal": 1}.get(optimize)
    if algo is None:
        raise ValueError(f"optimize must be True, False, 'greedy' or 'optimal', not {optimize!r}")
    if n > 8 and algo == 1:
        raise ValueError("optimize='optimal' takes at most 8 operands")
    descs = [_Desc(h, a) for a in ops]
    arr = (_v * n)(*[d.d.value for d in descs])
    path = (ctypes.c_int32 * (2 * (n - 1)))()
    flops = ctypes.c_double()
    sub = ",".join(terms) + "->" + out
    _check(L.fn("trntensorEinsumPath", _i, L.c_char_p, _i, _v, _i, _v, L.P(ctypes.c_double))(
        sub.encode(), n, arr, algo, path, L.byref(flops)), "trntensorEinsumPath")
    return [(path[2 * k], path[2 * k + 1]) for k in range(n - 1)], flops.value


def einsum(subscripts, *operands, optimize=True, precision="default"):
    """numpy.einsum on the daemon: one operand (permute, trace, sum), two
    (one contraction through the plan cache), or more (pairwise, in the
    order of trntensorEinsumPath: optimize True/"greedy", "optimal", or False
    for left to right). precision: as trnsci.linalg.matmul's modes."""
    if not operands:
        raise ValueError("einsum needs at least one operand")
    ops, dt = _operands(operands)
    terms, out, extent = _parse(subscripts, ops)
    compute = _compute(dt, precision)
    h = _fam.tensor_handle()
    path, _ = _path(h, terms, out, ops, optimize)
    terms, ops = list(terms), list(ops)
    if not path:
        ops[0] = _einsum2(h, terms, out, ops, extent, dt, compute, precision)
    for i, j in path:
        rest = [t for k, t in enumerate(terms) if k not in (i, j)]
        if rest:  # an intermediate keeps the modes something later needs
            keep = set(out).union(*rest)
            mid = "".join(dict.fromkeys(c for c in terms[i] + terms[j] if c in keep))
        else:
            mid = out
        r = _einsum2(h, [terms[i], terms[j]], mid, [ops[i], ops[j]], extent, dt, compute,
                     precision)
        terms = rest + [mid]
        ops = [a for k, a in enumerate(ops) if k not in (i, j)] + [r]
    _fam.finish()
    return ops[0]


# ---- cuTENSOR's operations ----------------------------------------------------
def _modes(m, a, what):
    m = [ord(c) for c in m] if isinstance(m, str) else [int(x) for x in m]
    if len(m) != a.ndim:
        raise ValueError(f"{what}: {len(m)} modes for a {a.ndim}-d operand")
    return (ctypes.c_int32 * max(len(m), 1))(*m), m


class _Plan:
    """A plan a graph's captured call names: destroyed with the graph, not before."""

    def __init__(self, plan):
        self.plan, self.generation = plan, _runtime.generation()

    def __del__(self):
        if self.generation == _runtime.generation():  # else it went with its session
            L.fn("trntensorDestroyPlan", _i, _v)(self.plan)


def _plan_and_run(h, make, run, name):
    desc, plan = ctypes.c_void_p(), ctypes.c_void_p()
    try:
        make(L.byref(desc))
        _check(L.fn("trntensorCreatePlan", _i, _v, L.P(_v), _v, _v, ctypes.c_uint64)(
            h, L.byref(plan), desc, None, 0), "trntensorCreatePlan")
        run(plan)
        if _fam.capturing():  # the graph's node refers to the plan
            _fam.keep(_Plan(plan))
            plan = ctypes.c_void_p()
    finally:
        if plan.value:
            L.fn("trntensorDestroyPlan", _i, _v)(plan)
        if desc.value:
            L.fn("trntensorDestroyOperationDescriptor", _i, _v)(desc)
    _fam.finish()


def contract(a, modes_a, b, modes_b, modes_out, alpha=1, beta=0, c=None, precision="default"):
    """alpha * A * B + beta * C summed over the modes A and B share and the
    output lacks (cuTENSOR's contraction). Modes: strings of letters or
    lists of ints, one per axis; c (a trnsci array of the output's shape,
    written in place) is read when beta != 0."""
    (a, b), dt = _operands([a, b])
    ma, la_ = _modes(modes_a, a, "contract A")
    mb, lb = _modes(modes_b, b, "contract B")
    lo = [ord(x) for x in modes_out] if isinstance(modes_out, str) else [int(x) for x in modes_out]
    ext = dict(zip(la_, a.shape))
    for m, n in zip(lb, b.shape):
        if ext.setdefault(m, n) != n:
            raise ValueError(f"contract: mode {m} has extents {ext[m]} and {n}")
    if any(m not in ext for m in lo) or len(set(lo)) != len(lo):
        raise ValueError("contract: every output mode must be an input mode, once")
    shape = tuple(ext[m] for m in lo)
    if c is None:
        c, beta = empty(shape, dt), 0
    elif not isinstance(c, ndarray) or c.shape != shape or c.dtype != dt:
        raise ValueError(f"contract: c must be a trnsci {dt} array of shape {shape}")
    if c.size == 0 or a.size == 0 or b.size == 0:
        if c.size and a.size * b.size == 0:
            c.set(np.asarray(c.get()) * beta if beta else 0)
        return c
    mo = (ctypes.c_int32 * max(len(lo), 1))(*lo)
    h = _fam.tensor_handle()
    da, db, dc = _Desc(h, a), _Desc(h, b), _Desc(h, c)
    compute = _compute(dt, precision)

    def make(pdesc):
        _check(L.fn("trntensorCreateContraction", _i, _v, _v, _v, _v, _i, _v, _v, _i, _v, _v, _i,
                    _v, _v, _v)(
            h, pdesc, da.d, ma, _IDENTITY, db.d, mb, _IDENTITY, dc.d, mo, _IDENTITY, dc.d, mo,
            compute), "trntensorCreateContraction")

    def run(plan):
        _check(L.fn("trntensorContract", _i, _v, _v, _v, _v, _v, _v, _v, _v, _v, ctypes.c_uint64,
                    _v)(h, plan, L.byref(_scalar(dt, alpha)), a.ptr, b.ptr,
                        L.byref(_scalar(dt, beta)), c.ptr, c.ptr, None, 0, _fam.stream()),
               "trntensorContract")

    _plan_and_run(h, make, run, "contract")
    _fam.keep(a, b, c)
    return c


def permute(a, axes=None, alpha=1, dtype=None):
    """alpha * numpy.transpose(a, axes) as a new C-ordered array; dtype
    float32 <-> float64 converts on the way (rounded once, to nearest)."""
    (a,), dt = _operands([a])
    axes = tuple(range(a.ndim))[::-1] if axes is None else tuple(int(x) for x in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError(f"permute: axes {axes} are not a permutation of {a.ndim} axes")
    odt = np.dtype(dtype) if dtype is not None else dt
    if odt != dt and {odt, dt} != {np.dtype(np.float32), np.dtype(np.float64)}:
        raise TypeError(f"permute converts between float32 and float64 only, not {dt} to {odt}")
    shape = tuple(a.shape[x] for x in axes)
    b = empty(shape, odt)
    if b.size == 0:
        return b
    h = _fam.tensor_handle()
    ma = (ctypes.c_int32 * max(a.ndim, 1))(*range(a.ndim))
    mb = (ctypes.c_int32 * max(a.ndim, 1))(*axes)
    da, db = _Desc(h, a), _Desc(h, b)
    compute = _compute(dt, "default")  # the source's: alpha is of its type

    def make(pdesc):
        _check(L.fn("trntensorCreatePermutation", _i, _v, _v, _v, _v, _i, _v, _v, _v)(
            h, pdesc, da.d, ma, _IDENTITY, db.d, mb, compute), "trntensorCreatePermutation")

    def run(plan):
        _check(L.fn("trntensorPermute", _i, _v, _v, _v, _v, _v, _v)(
            h, plan, L.byref(_scalar(dt, alpha)), a.ptr, b.ptr,
            _fam.stream()), "trntensorPermute")

    _plan_and_run(h, make, run, "permute")
    _fam.keep(a, b)
    return b


def reduce(a, axis=None, op="sum", keepdims=False):
    """numpy's sum/prod/max/min over axis (None: all) as one trntensorReduce."""
    (a,), dt = _operands([a])
    if op not in _REDUCE_OPS:
        raise ValueError(f"reduce: op must be one of {sorted(_REDUCE_OPS)}, not {op!r}")
    if dt.kind == "c" and op in ("max", "min"):
        raise TypeError("reduce: max and min are not defined on complex values")
    axes = range(a.ndim) if axis is None else (axis,) if np.isscalar(axis) else axis
    axes = sorted({int(x) % max(a.ndim, 1) for x in axes})
    kept = [x for x in range(a.ndim) if x not in axes]
    shape = tuple(a.shape[x] for x in kept)
    d = empty(shape, dt)
    if a.size == 0:
        if op in ("max", "min") and any(a.shape[x] == 0 for x in axes) and d.size:
            raise ValueError(f"reduce: {op} of an empty axis has no identity")
        d.set({"sum": 0, "prod": 1}.get(op, 0))
    elif d.size:
        h = _fam.tensor_handle()
        ma = (ctypes.c_int32 * max(a.ndim, 1))(*range(a.ndim))
        md = (ctypes.c_int32 * max(len(kept), 1))(*kept)
        da, dd = _Desc(h, a), _Desc(h, d)
        compute = _compute(dt, "default")

        def make(pdesc):
            _check(L.fn("trntensorCreateReduction", _i, _v, _v, _v, _v, _i, _v, _v, _i, _v, _v, _i,
                        _v)(
                h, pdesc, da.d, ma, _IDENTITY, dd.d, md, _IDENTITY, dd.d, md,
                _REDUCE_OPS[op], compute), "trntensorCreateReduction")

        def run(plan):
            _check(L.fn("trntensorReduce", _i, *([_v] * 8), ctypes.c_uint64, _v)(
                h, plan, L.byref(_scalar(dt, 1)), a.ptr, L.byref(_scalar(dt, 0)), d.ptr, d.ptr,
                None, 0, _fam.stream()), "trntensorReduce")

        _plan_and_run(h, make, run, "reduce")
        _fam.keep(a, d)
    if keepdims:
        d = d.reshape(tuple(1 if x in axes else n for x, n in enumerate(a.shape)))
    return d


# ---- DF-MP2 -------------------------------------------------------------------
def ao_to_mo(c_occ, c_vir, lpq):
    """B[i, a, P] = sum_{mu, nu} C_occ[mu, i] C_vir[nu, a] (P|mu nu)
    (trntensorAoToMo). c_occ (nbf, nocc), c_vir (nbf, nvir), lpq (naux, nbf,
    nbf) symmetric in its last two axes; all float32 or all float64. Returns
    B of shape (nocc, nvir, naux), C order."""
    (co, cv, lpq), dt = _operands([c_occ, c_vir, lpq])
    if dt.kind == "c":
        raise TypeError("ao_to_mo takes float32 or float64")
    if co.ndim != 2 or cv.ndim != 2 or lpq.ndim != 3:
        raise ValueError("ao_to_mo: c_occ and c_vir are 2-d, lpq 3-d")
    nbf, nocc = co.shape
    nvir, naux = cv.shape[1], lpq.shape[0]
    if cv.shape[0] != nbf or lpq.shape[1:] != (nbf, nbf):
        raise ValueError(f"ao_to_mo: shapes {co.shape}, {cv.shape}, {lpq.shape} do not agree "
                         "on nbf")
    co = co if co.f_contiguous else co.copy("F")
    cv = cv if cv.f_contiguous else cv.copy("F")
    lpq = lpq if lpq.c_contiguous else lpq.copy("C")
    b = empty((nocc, nvir, naux), dt)
    if b.size == 0:
        return b
    h = _fam.tensor_handle()
    _check(L.fn("trntensorAoToMo", _i, _v, _i, _i64, _i64, _i64, _i64, _v, _i64, _v, _i64, _v,
                _v)(h, _DATATYPE[dt], nbf, nocc, nvir, naux, co.ptr, max(nbf, 1), cv.ptr,
                    max(nbf, 1), lpq.ptr, b.ptr), "trntensorAoToMo")
    _fam.keep(co, cv, lpq, b)
    _fam.finish()
    return b


def mp2_energy(b, eps_occ, eps_vir):
    """The closed-shell DF-MP2 correlation energy (trntensorMp2Energy) from
    fitted B[i, a, P] (float32 or float64, shape (nocc, nvir, naux)) and the
    orbital energies (float64). Returns a float (a 0-d trnsci array inside
    a Stream or graph block, read it after the block)."""
    (b,), dt = _operands([b])
    if dt.kind == "c" or b.ndim != 3:
        raise TypeError("mp2_energy takes a real 3-d B (nocc, nvir, naux)")
    b = b if b.c_contiguous else b.copy("C")
    eo = asarray(eps_occ, dtype=np.float64)
    ev = asarray(eps_vir, dtype=np.float64)
    nocc, nvir, naux = b.shape
    if eo.shape != (nocc,) or ev.shape != (nvir,):
        raise ValueError(f"mp2_energy: eps_occ {eo.shape} and eps_vir {ev.shape} do not "
                         f"match B {b.shape}")
    eo, ev = (e if e.c_contiguous else e.copy() for e in (eo, ev))
    e = empty((), np.float64)
    h = _fam.tensor_handle()
    _check(L.fn("trntensorMp2Energy", _i, _v, _i, _i64, _i64, _i64, _v, _v, _v, _v)(
        h, _DATATYPE[dt], nocc, nvir, naux, b.ptr, eo.ptr, ev.ptr, e.ptr),
        "trntensorMp2Energy")
    _fam.keep(b, eo, ev, e)
    if _fam.current() is not None:
        return e
    _fam.finish()
    return float(e.get())
