"""The subset of neuronxcc.nki.language the kernels use, over numpy.

Element-wise operations run on the Vector/Scalar engines: their inputs are
SBUF or PSUM tiles (or Python scalars), their result is a new SBUF tile;
they compute in fp32 (numpy float32: IEEE, rounded to nearest) and round the
result to the requested dtype. Operands must agree on the partition
dimension; a free dimension of size 1 broadcasts.
"""
import numpy as np

from .tiles import (HBM, PSUM, SBUF, NkiRuleError, Tile, bfloat16, bool_, cast,
                    check_on_chip, float32, require)

sbuf, psum, hbm = SBUF, PSUM, HBM
shared_hbm = private_hbm = HBM

__all__ = ["float32", "bfloat16", "bool_", "sbuf", "psum", "hbm", "shared_hbm",
           "tile_size", "par_dim", "ndarray", "zeros", "load", "load_transpose2d", "store",
           "affine_range", "sequential_range", "static_range", "copy", "add",
           "subtract", "multiply", "negative", "abs", "not_equal", "where",
           "broadcast_to", "NkiRuleError"]


class tile_size:
    pmax = 128
    psum_fmax = 512
    gemm_stationary_fmax = 128
    gemm_moving_fmax = 512


def par_dim(n):
    """Marks the partition dimension in a shape; a plain int here."""
    return int(n)


# Loops: the iteration spaces are plain ranges when run in numpy.
def affine_range(*args):
    return range(*args)


def sequential_range(*args):
    return range(*args)


def static_range(*args):
    return range(*args)


def ndarray(shape, dtype, buffer=SBUF):
    shape = tuple(int(s) for s in shape)
    if buffer == HBM:
        return Tile(np.zeros(shape, np.float32), dtype, HBM)
    require(buffer in (SBUF, PSUM), "unknown buffer %r" % (buffer,))
    check_on_chip(shape, dtype, buffer)
    # On-chip memory is not initialised: NaN makes a read before a write show.
    return Tile(np.full(shape, np.nan, np.float32), dtype, buffer)


def zeros(shape, dtype, buffer=SBUF):
    t = ndarray(shape, dtype, buffer)
    t.data[...] = 0
    return t


def load(src, dtype=None, mask=None):
    """DMA HBM -> SBUF."""
    require(mask is None, "masks are not modelled")
    require(isinstance(src, Tile) and src.buffer == HBM, "nl.load reads an HBM tensor")
    dt = dtype or src.dtype
    check_on_chip(src.shape, dt, SBUF)
    return Tile(cast(src.data, dt), dt, SBUF)


def load_transpose2d(src, dtype=None, mask=None):
    """DMA HBM -> SBUF through the DMA engine's 2-D transpose: an [a, b]
    region of HBM lands as a [b, a] tile (b on the partitions)."""
    require(mask is None, "masks are not modelled")
    require(isinstance(src, Tile) and src.buffer == HBM,
            "nl.load_transpose2d reads an HBM tensor")
    require(src.ndim == 2, "nl.load_transpose2d takes a 2-D region, got %r" % (src.shape,))
    dt = dtype or src.dtype
    check_on_chip((src.shape[1], src.shape[0]), dt, SBUF)
    return Tile(cast(np.ascontiguousarray(src.data.T), dt), dt, SBUF)


def store(dst, value, mask=None):
    """DMA SBUF -> HBM."""
    require(mask is None, "masks are not modelled")
    require(isinstance(dst, Tile) and dst.buffer == HBM, "nl.store writes an HBM tensor")
    require(isinstance(value, Tile) and value.buffer == SBUF,
            "nl.store takes an SBUF tile (copy PSUM to SBUF first)")
    require(value.shape == dst.shape,
            "storing a %r tile into a %r region" % (value.shape, dst.shape))
    dst.data[...] = cast(value.data, dst.dtype)


def _operand(x, name):
    if isinstance(x, Tile):
        require(x.buffer in (SBUF, PSUM),
                "%s reads SBUF/PSUM tiles, not %s (nl.load first)" % (name, x.buffer))
        return x.data, x.dtype
    require(isinstance(x, (int, float)) and not isinstance(x, bool),
            "%s: operand must be a tile or a number" % name)
    return np.float32(x), None


def _elementwise(name, fn, dtype, *xs):
    vals, dts, shapes = [], [], []
    for x in xs:
        v, dt = _operand(x, name)
        vals.append(v)
        if dt is not None:
            dts.append(dt)
            shapes.append(v.shape)
    require(shapes, "%s needs a tile operand" % name)
    out_shape = max(shapes, key=lambda s: int(np.prod(s)))
    for s in shapes:
        require(len(s) == len(out_shape) and s[0] == out_shape[0],
                "%s: partition dimensions differ (%r vs %r)" % (name, s, out_shape))
        require(all(a == b or a == 1 for a, b in zip(s[1:], out_shape[1:])),
                "%s: free dimensions %r do not broadcast to %r" % (name, s, out_shape))
    if dtype is None:
        dtype = float32 if any(d is float32 for d in dts) else dts[0]
    with np.errstate(all="ignore"):
        r = fn(*[np.asarray(v, np.float32) for v in vals])
    r = np.broadcast_to(np.asarray(r, np.float32), out_shape)
    return Tile(cast(r, dtype), dtype, SBUF)


def copy(x, dtype=None):
    return _elementwise("nl.copy", lambda a: a, dtype, x)


def add(x, y, dtype=None):
    return _elementwise("nl.add", np.add, dtype, x, y)


def subtract(x, y, dtype=None):
    return _elementwise("nl.subtract", np.subtract, dtype, x, y)


def multiply(x, y, dtype=None):
    return _elementwise("nl.multiply", np.multiply, dtype, x, y)


def negative(x, dtype=None):
    return _elementwise("nl.negative", np.negative, dtype, x)


def abs(x, dtype=None):  # noqa: A001 (NKI's name)
    return _elementwise("nl.abs", np.abs, dtype, x)


def not_equal(x, y, dtype=bool_):
    return _elementwise("nl.not_equal", lambda a, b: (a != b).astype(np.float32), dtype, x, y)


def where(condition, x, y, dtype=None):
    if dtype is None:
        dts = [t.dtype for t in (x, y) if isinstance(t, Tile)]
        require(dts, "nl.where needs a tile to choose from")
        dtype = float32 if float32 in dts else dts[0]
    return _elementwise("nl.where", lambda c, a, b: np.where(c != 0, a, b), dtype,
                        condition, x, y)


def broadcast_to(src, shape):
    """A [1, F] tile copied to every partition of a [P, F] SBUF tile."""
    require(isinstance(src, Tile) and src.buffer in (SBUF, PSUM), "nl.broadcast_to takes a tile")
    shape = tuple(int(s) for s in shape)
    check_on_chip(shape, src.dtype, SBUF)
    return Tile(np.array(np.broadcast_to(src.data, shape), np.float32), src.dtype, SBUF)
