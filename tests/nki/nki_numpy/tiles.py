"""Tiles, buffers, dtypes and the hardware's size rules.

A Tile is a numpy array (its values) with an NKI dtype and the memory it
lives in: HBM (kernel inputs and outputs), SBUF or PSUM. Values of every
dtype are held as float32 numpy arrays; a bfloat16 tile holds float32 values
whose low 16 bits are zero (rounded to nearest, ties to even).

The rules enforced here (they raise NkiRuleError):
  * an SBUF or PSUM tile has at most 128 partitions (its first dimension);
  * a PSUM tile holds at most 2 KiB per partition (one bank: 512 fp32).
"""
import numpy as np


class NkiRuleError(Exception):
    """A kernel broke a rule of the hardware or of the NKI API."""


def require(cond, msg):
    if not cond:
        raise NkiRuleError(msg)


class DType:
    def __init__(self, name, nbytes):
        self.name = name
        self.nbytes = nbytes

    def __repr__(self):
        return "nl." + self.name


float32 = DType("float32", 4)
bfloat16 = DType("bfloat16", 2)
bool_ = DType("bool_", 1)

# Buffers (nl.sbuf, nl.psum, nl.hbm, nl.shared_hbm).
SBUF, PSUM, HBM = "sbuf", "psum", "hbm"

PMAX = 128  # partitions of SBUF and PSUM
PSUM_BANK_BYTES = 2048  # per partition


def round_bf16(x):
    """float32 -> bfloat16 (as float32 values): round to nearest, ties to
    even; Inf stays Inf, NaN stays a (quiet) NaN, overflow goes to Inf."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    lsb = (u >> 16) & 1
    r = ((u + 0x7FFF + lsb) & 0xFFFF0000).astype(np.uint32)
    # NaN would otherwise round into Inf (small payload) or carry into the
    # sign; keep its sign, force the quiet bit, drop the low payload.
    nan = np.isnan(x)
    if nan.any():
        q = ((u | 0x00400000) & 0xFFFF0000).astype(np.uint32)
        r = np.where(nan, q, r)
    return r.view(np.float32).reshape(x.shape)


def cast(values, dtype):
    """Values (any numpy array) rounded to dtype, as a float32 array."""
    v = np.asarray(values)
    if dtype is bool_:
        return (v != 0).astype(np.float32)
    v32 = v.astype(np.float32)  # float64 -> float32 rounds to nearest even
    if dtype is bfloat16:
        return round_bf16(v32)
    require(dtype is float32, "unsupported dtype %r" % (dtype,))
    return v32


def dtype_of_numpy(a):
    require(a.dtype == np.float32, "kernel tensors must be float32, got %s" % a.dtype)
    return float32


def check_on_chip(shape, dtype, buffer):
    require(len(shape) >= 1, "an on-chip tile needs a partition dimension")
    require(all(int(s) >= 1 for s in shape), "empty tile %r" % (shape,))
    require(shape[0] <= PMAX,
            "partition dimension %d exceeds %d (nl.tile_size.pmax)" % (shape[0], PMAX))
    if buffer == PSUM:
        free = int(np.prod(shape[1:], dtype=np.int64)) * 4  # PSUM accumulates fp32
        require(dtype is float32, "PSUM tiles here are float32, got %r" % (dtype,))
        require(free <= PSUM_BANK_BYTES,
                "PSUM tile %r holds %d bytes per partition, over one 2 KiB bank "
                "(512 fp32, nl.tile_size.psum_fmax)" % (tuple(shape), free))


class Tile:
    """A tensor in HBM or a tile in SBUF/PSUM. Indexing gives a view of the
    same memory (an access pattern), as NKI's tensor slicing does."""

    def __init__(self, data, dtype, buffer, check=True):
        self.data = data
        self.dtype = dtype
        self.buffer = buffer
        if check and buffer != HBM:
            check_on_chip(data.shape, dtype, buffer)

    @property
    def shape(self):
        return tuple(self.data.shape)

    @property
    def ndim(self):
        return self.data.ndim

    def __getitem__(self, key):
        view = self.data[key]
        require(isinstance(view, np.ndarray) and view.ndim >= 1
                and np.may_share_memory(view, self.data),
                "tile indexing must be basic slicing (a view of the tile)")
        return Tile(view, self.dtype, self.buffer)

    def __setitem__(self, key, value):
        require(self.buffer != HBM, "write HBM with nl.store")
        src = value.data if isinstance(value, Tile) else np.float32(value)
        dst = self.data[key]
        require(np.shape(src) == () or tuple(np.shape(src)) == tuple(dst.shape),
                "assigning a %r tile to a %r region" % (np.shape(src), dst.shape))
        self.data[key] = cast(src, self.dtype)

    def __iadd__(self, other):
        # `acc += nisa.nc_matmul(...)`: the Tensor Engine accumulating into
        # the same PSUM tile, in fp32.
        require(self.buffer == PSUM, "+= accumulates into a PSUM tile only")
        require(isinstance(other, Tile) and other.buffer == PSUM,
                "+= into PSUM takes a matmul result (a PSUM tile)")
        require(other.shape == self.shape,
                "accumulating a %r result into a %r PSUM tile" % (other.shape, self.shape))
        self.data[...] = self.data + other.data  # both float32: fp32 adds
        return self

    def reshape(self, shape):
        require(self.buffer == HBM, "reshape applies to HBM tensors")
        return Tile(self.data.reshape(shape), self.dtype, HBM)

    def __repr__(self):
        return "Tile(%r, %r, %s)" % (self.shape, self.dtype, self.buffer)
