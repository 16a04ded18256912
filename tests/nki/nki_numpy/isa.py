"""The subset of neuronxcc.nki.isa the kernels use: the Tensor Engine's
matmul, with its layout rules.

nc_matmul(stationary, moving) = stationary.T @ moving, contracting over the
partition dimension:
  * both operands are SBUF tiles, the result a new PSUM tile (fp32);
  * stationary is [K <= 128 partitions, M <= 128] (gemm_stationary_fmax);
  * moving is [K <= 128 partitions, N <= 512] (gemm_moving_fmax), with the
    same K;
  * inputs float32 or bfloat16 (both the same); products and their sum are
    fp32 (numpy float32 matmul: every partial sum rounded to fp32). A
    bfloat16 x bfloat16 product (8 + 8 significant bits) is exact in fp32.
"""
import numpy as np

from .tiles import PSUM, SBUF, Tile, bfloat16, float32, require

GEMM_STATIONARY_FMAX = 128
GEMM_MOVING_FMAX = 512
PMAX = 128


def nc_matmul(stationary, moving, is_stationary_onezero=False, is_moving_onezero=False,
              is_transpose=False, mask=None, **kwargs):
    require(not is_transpose and mask is None and not kwargs,
            "nc_matmul: transpose, masks and tiling options are not modelled")
    for name, t in (("stationary", stationary), ("moving", moving)):
        require(isinstance(t, Tile) and t.buffer == SBUF,
                "nc_matmul: the %s operand must be an SBUF tile, not %s"
                % (name, getattr(t, "buffer", type(t).__name__)))
        require(t.ndim == 2, "nc_matmul: the %s operand must be 2-D, got %r" % (name, t.shape))
        require(t.dtype in (float32, bfloat16),
                "nc_matmul: %s dtype %r not modelled" % (name, t.dtype))
    require(stationary.dtype is moving.dtype,
            "nc_matmul: operand dtypes differ (%r, %r)" % (stationary.dtype, moving.dtype))
    k, m = stationary.shape
    k2, n = moving.shape
    require(k == k2, "nc_matmul: contraction (partition) dims differ: %d vs %d" % (k, k2))
    require(k <= PMAX, "nc_matmul: contraction dim %d exceeds %d partitions" % (k, PMAX))
    require(m <= GEMM_STATIONARY_FMAX,
            "nc_matmul: stationary free dim %d exceeds %d (gemm_stationary_fmax)"
            % (m, GEMM_STATIONARY_FMAX))
    require(n <= GEMM_MOVING_FMAX,
            "nc_matmul: moving free dim %d exceeds %d (gemm_moving_fmax)" % (n, GEMM_MOVING_FMAX))
    s = np.ascontiguousarray(stationary.data.T, dtype=np.float32)
    mv = np.ascontiguousarray(moving.data, dtype=np.float32)
    return Tile(np.matmul(s, mv), float32, PSUM)  # checks the PSUM bank rule
