"""gemm — the GEMM kernel program of kernels/neuron/program.h, in NKI.

    d = alpha * op(A) op(B) + beta * C        for each of `batch` products

Tensors (HBM, float32, row-major; P = 1 for dtype f32, 2 for c32 with the
real plane first, then the imaginary plane):
    at    [B][P][K][M]   op(A) transposed
    b     [B][P][K][N]   op(B)
    c     [B][P][M][N]   C
    scal  [2P]           alpha, beta  |  alpha.re, alpha.im, beta.re, beta.im
    d     [B][P][M][N]   the result (returned; allocated in shared HBM)

Parameters. m, n, k, batch and P come from the shapes of at and b. The
parameter text "dtype=f32|c32 mode=fp32|bf16|bf16x3 m=M n=N k=K batch=B"
reaches the kernel as keyword arguments, which NKI treats as compile-time
constants:

    gemm(at, b, c, scal, mode="bf16x3", dtype="c32")

`mode` selects the products (default "fp32"); `dtype`, when given, is
checked against P. A compiler wrapper passes the tensors with the shapes
above (m, n, k, batch give them) and these two keywords.

Modes (every mode accumulates in FP32 in PSUM):
    fp32    the fp32 tiles go to the Tensor Engine as they are
    bf16    each tile is rounded to bfloat16 (nearest, ties to even) on the
            Vector Engine; bf16 x bf16 products are exact in fp32
    bf16x3  x = hi + lo, hi = bf16(x), lo = bf16(x - hi) (x - hi is exact in
            fp32); hi*hi + hi*lo + lo*hi go into the same PSUM tile, lo*lo
            (relative size 2^-18) is dropped

Complex (c32) uses four real products, not Gauss's three:
    Re = Ar.Br + (-Ai).Bi        Im = Ar.Bi + Ai.Br
each accumulated in one PSUM tile over 2K terms. Every element's error is
then bounded by gamma_2K times |Ar||Br| + |Ai||Bi| (resp. |Ar||Bi| +
|Ai||Br|), the componentwise bound of the real GEMM. Gauss's
(Ar+Ai)(Br+Bi) - Ar.Br - Ai.Bi saves a quarter of the products but bounds
the imaginary part's error by (|Ar|+|Ai|)(|Br|+|Bi|), which can be far
larger than the result when it cancels, and its input sums are rounded
once more before the bfloat16 split. -Ai is an exact sign flip of the
stationary tile.

Tiling (nl.tile_size: pmax 128, gemm_stationary_fmax 128,
gemm_moving_fmax 512, psum_fmax 512):
    M in tiles of TM = 128   (stationary free dim; PSUM partitions)
    N in tiles of TN = 512   (moving free dim; one PSUM bank of fp32)
    K in tiles of TK = 128   (contraction over SBUF partitions)
Edge tiles are smaller tiles of static size (no masks): each dimension is
a loop over its full tiles (nl.affine_range) and then, when the size is not
a multiple, one tile of the remainder. Loop order:

    for batch (affine):
      for m tile (affine):
        for n tile (affine):
          PSUM: P accumulators [tm, tn] fp32, one bank each (2 for c32)
          for k tile (accumulating into PSUM):
            DMA: P tiles of at [tk, tm], P tiles of b [tk, tn] -> SBUF
            Vector Engine: -Ai (c32), bf16 rounding / hi-lo split (modes)
            Tensor Engine: P*P products per mode term (1 or 3) += PSUM
          DMA: P tiles of c [tm, tn] -> SBUF
          Vector Engine, fp32: alpha * PSUM + (beta != 0 ? beta * C : 0)
          DMA: P tiles [tm, tn] -> d

SBUF per k step: P * (tk*tm + tk*tn) fp32 (plus their bf16 parts), at
most 128 partitions x 2.5 KiB per plane; per output tile P * 2 KiB of C
and of the result. The scalars are loaded once, broadcast to 128
partitions as a [128, 2P] tile.

alpha and beta are applied in fp32 after the PSUM tile is complete. The
kernel cannot branch on beta (run-time data), so C is always loaded, and
beta * C is replaced by 0 where beta == 0 (nl.where): a NaN or Inf in C
never reaches d when beta is 0, as BLAS requires.

The column-major layout (program.h, layout=cm; real only): the matrices
column by column, A and B untransposed, so a matrix whose leading dimension
is its rows moves from memory as it lies:

    gemm_cm(a, b, c, scal, mode="fp32", ta="n"|"t", tb="n"|"t", m=M, n=N, k=K)
    a     [B][1][CA][LDA]   A: CA = K (ta="n", A is MxK) or M (ta="t")
    b     [B][1][CB][LDB]   B: CB = N (tb="n", B is KxN) or K (tb="t")
    c     [B][1][N][LDC]    C
    d     [B][1][N][M]      the result, column-major (returned)

The program's tensors have LDA, LDB, LDC = the matrices' rows; the kernel
takes any leading dimension at least that (the shape's last dimension)
and never reads the rows past a matrix's own. The kernel
computes D^T = op(B)^T op(A)^T, so that every tile's partitions are what
its HBM rows hold: a D^T tile [tn, tm] is a run of tn columns of D, each
tm elements long, stored as it lies. The contraction index l must be on
the partitions of both operands:
    op(A)^T tile [tk, tm]: ta="n" row l of a holds A(:, l): a plain load;
                           ta="t" (A is KxM) a DMA transpose of [tm, tk]
    op(B) tile   [tk, tn]: tb="t" (B is NxK) row l of b holds op(B)(l, :):
                           a plain load; tb="n" a DMA transpose of [tn, tk]
So B (NN) is the one transposed on the way in (nl.load_transpose2d).
Tiling: N in tiles of 128 (the stationary side: op(B)), M in tiles of 512
(the moving side: op(A)^T), K in tiles of 128; PSUM [tn, tm] fp32 is one
bank. Each element of D is the sum the packed layout computes, with the
same products (hi.hi, hi.lo, lo.hi in bf16x3) in the same order of k.

gemm_seq — the GEMM sequence program of program.h: J GEMMs in order in
one execution, each exactly as `gemm` computes it (the same tile loops,
products and order), so the results are bitwise those of J gemm runs:

    gemm_seq(*inputs, scal, nodes="g0=MxNxKxB:in,in,in g1=...",
             mode="fp32", dtype="f32")

`inputs` are the operands whose source is "in", in node order and at, b,
c order within a node; `scal` is [J][2P] (node j's alpha and beta in row
j). An operand "dI" is node I's result: an HBM tensor the kernel wrote,
which node j loads tile by tile as it would an input (node I's stores are
all issued before node j's loads, in program order). Returns every node's
d, in order. Intermediates that feed later nodes therefore never leave
the core's memory between the nodes.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl

TM = 128  # nl.tile_size.gemm_stationary_fmax
TN = 512  # nl.tile_size.gemm_moving_fmax (= psum_fmax)
TK = 128  # nl.tile_size.pmax

MODES = ("fp32", "bf16", "bf16x3")
# Which (stationary part, moving part) products each mode accumulates.
_TERMS = {"fp32": ((0, 0),), "bf16": ((0, 0),), "bf16x3": ((0, 0), (0, 1), (1, 0))}
# For each output plane: (A plane, B plane, negate A) products; c32 is
# re = Ar.Br - Ai.Bi, im = Ar.Bi + Ai.Br.
_PLANES = {1: (((0, 0, False),),),
           2: (((0, 0, False), (1, 1, True)), ((0, 1, False), (1, 0, False)))}


def _tiles(size, tile):
    """The tiles of a dimension: (count of full tiles, size of the remainder)."""
    return size // tile, size % tile


def _parts(x, mode):
    """The parts of an fp32 SBUF tile that the Tensor Engine multiplies."""
    if mode == "fp32":
        return (x,)
    hi = nl.copy(x, dtype=nl.bfloat16)
    if mode == "bf16":
        return (hi,)
    # x - hi is exact in fp32; one rounding to bfloat16 gives lo.
    lo = nl.subtract(x, hi, dtype=nl.bfloat16)
    return (hi, lo)


def _k_step(at, b, acc, bi, k0, tk, m0, tm, n0, tn, mode, P):
    """Loads one K tile of every plane and accumulates its products."""
    a_parts, na_parts, b_parts = [], [], []
    for p in range(P):
        a_t = nl.load(at[bi, p, k0:k0 + tk, m0:m0 + tm])
        b_t = nl.load(b[bi, p, k0:k0 + tk, n0:n0 + tn])
        a_parts.append(_parts(a_t, mode))
        b_parts.append(_parts(b_t, mode))
        na_parts.append(_parts(nl.negative(a_t), mode) if P == 2 and p == 1 else None)
    for o, products in enumerate(_PLANES[P]):
        for pa, pb, neg in products:
            sa = na_parts[pa] if neg else a_parts[pa]
            for i, j in _TERMS[mode]:
                acc[o] += nisa.nc_matmul(sa[i], b_parts[pb][j])


def _out_tile(at, b, c, d, sc, beta_nz, bi, m0, tm, n0, tn, K, mode, P):
    """One [tm, tn] tile of d (every plane)."""
    acc = [nl.zeros((tm, tn), nl.float32, buffer=nl.psum) for _ in range(P)]
    k_full, k_rem = _tiles(K, TK)
    if k_full:
        for kt in nl.affine_range(k_full):
            _k_step(at, b, acc, bi, kt * TK, TK, m0, tm, n0, tn, mode, P)
    if k_rem:
        _k_step(at, b, acc, bi, k_full * TK, k_rem, m0, tm, n0, tn, mode, P)

    # alpha * S + beta * C in fp32 on the Vector Engine, S read from PSUM.
    cs = [nl.load(c[bi, p, m0:m0 + tm, n0:n0 + tn]) for p in range(P)]
    nz = beta_nz[0:tm, 0:1]
    if P == 1:
        alpha, beta = sc[0:tm, 0:1], sc[0:tm, 1:2]
        outs = [(nl.multiply(acc[0], alpha), nl.multiply(cs[0], beta))]
    else:
        ar, ai = sc[0:tm, 0:1], sc[0:tm, 1:2]
        br, bi_ = sc[0:tm, 2:3], sc[0:tm, 3:4]
        outs = [(nl.subtract(nl.multiply(acc[0], ar), nl.multiply(acc[1], ai)),
                 nl.subtract(nl.multiply(cs[0], br), nl.multiply(cs[1], bi_))),
                (nl.add(nl.multiply(acc[1], ar), nl.multiply(acc[0], ai)),
                 nl.add(nl.multiply(cs[1], br), nl.multiply(cs[0], bi_)))]
    for p, (s_term, c_term) in enumerate(outs):
        res = nl.add(s_term, nl.where(nz, c_term, 0.0))
        nl.store(d[bi, p, m0:m0 + tm, n0:n0 + tn], value=res)


def _row(at, b, c, d, sc, beta_nz, bi, m0, tm, N, K, mode, P):
    """Every N tile of one M tile."""
    n_full, n_rem = _tiles(N, TN)
    if n_full:
        for nt in nl.affine_range(n_full):
            _out_tile(at, b, c, d, sc, beta_nz, bi, m0, tm, nt * TN, TN, K, mode, P)
    if n_rem:
        _out_tile(at, b, c, d, sc, beta_nz, bi, m0, tm, n_full * TN, n_rem, K, mode, P)


def _scalars(scal_row, P):
    """alpha, beta of one GEMM ([1, 2P] in HBM) on every partition, and
    where beta is not 0."""
    sc = nl.broadcast_to(nl.load(scal_row), shape=(TM, 2 * P))
    if P == 1:
        beta_nz = nl.not_equal(sc[0:TM, 1:2], 0.0)
    else:
        # |beta.re| + |beta.im| is 0 only when both are.
        beta_nz = nl.not_equal(nl.add(nl.abs(sc[0:TM, 2:3]), nl.abs(sc[0:TM, 3:4])), 0.0)
    return sc, beta_nz


def _gemm_into(at, b, c, scal_row, d, mode, P):
    """d = alpha op(A) op(B) + beta C for every batch entry (the shapes
    checked by the caller)."""
    B, _, K, M = at.shape
    N = b.shape[3]
    sc, beta_nz = _scalars(scal_row, P)
    m_full, m_rem = _tiles(M, TM)
    for bi in nl.affine_range(B):
        if m_full:
            for mt in nl.affine_range(m_full):
                _row(at, b, c, d, sc, beta_nz, bi, mt * TM, TM, N, K, mode, P)
        if m_rem:
            _row(at, b, c, d, sc, beta_nz, bi, m_full * TM, m_rem, N, K, mode, P)


def _check_operands(at, b, c, P, what):
    B, P_, K, M = at.shape
    assert P_ == P, "%s: P is 1 (f32) or 2 (c32)" % what
    N = b.shape[3]
    assert tuple(b.shape) == (B, P, K, N), "%s: b must be [batch][P][k][n]" % what
    assert tuple(c.shape) == (B, P, M, N), "%s: c must be [batch][P][m][n]" % what
    return B, M, N


def _cm_a_tile(a, bi, k0, tk, m0, tm, ta):
    """op(A)^T [tk, tm] from A as it lies (k on the partitions)."""
    if ta == "n":
        return nl.load(a[bi, 0, k0:k0 + tk, m0:m0 + tm])
    return nl.load_transpose2d(a[bi, 0, m0:m0 + tm, k0:k0 + tk])


def _cm_b_tile(b, bi, k0, tk, n0, tn, tb):
    """op(B) [tk, tn] from B as it lies (k on the partitions)."""
    if tb == "t":
        return nl.load(b[bi, 0, k0:k0 + tk, n0:n0 + tn])
    return nl.load_transpose2d(b[bi, 0, n0:n0 + tn, k0:k0 + tk])


def _cm_k_step(a, b, acc, bi, k0, tk, n0, tn, m0, tm, mode, ta, tb):
    """Loads one K tile of op(A)^T and op(B) and accumulates their products
    into the D^T tile."""
    a_parts = _parts(_cm_a_tile(a, bi, k0, tk, m0, tm, ta), mode)
    b_parts = _parts(_cm_b_tile(b, bi, k0, tk, n0, tn, tb), mode)
    for i, j in _TERMS[mode]:  # op(A) part i times op(B) part j, as packed
        acc += nisa.nc_matmul(b_parts[j], a_parts[i])


def _cm_out_tile(a, b, c, d, sc, beta_nz, bi, n0, tn, m0, tm, K, mode, ta, tb):
    """One [tn, tm] tile of D^T: columns n0.. of D, rows m0.. of each."""
    acc = nl.zeros((tn, tm), nl.float32, buffer=nl.psum)
    k_full, k_rem = _tiles(K, TK)
    if k_full:
        for kt in nl.affine_range(k_full):
            _cm_k_step(a, b, acc, bi, kt * TK, TK, n0, tn, m0, tm, mode, ta, tb)
    if k_rem:
        _cm_k_step(a, b, acc, bi, k_full * TK, k_rem, n0, tn, m0, tm, mode, ta, tb)
    ct = nl.load(c[bi, 0, n0:n0 + tn, m0:m0 + tm])
    alpha, beta = sc[0:tn, 0:1], sc[0:tn, 1:2]
    res = nl.add(nl.multiply(acc, alpha), nl.where(beta_nz[0:tn, 0:1], nl.multiply(ct, beta), 0.0))
    nl.store(d[bi, 0, n0:n0 + tn, m0:m0 + tm], value=res)


def _cm_column_tiles(a, b, c, d, sc, beta_nz, bi, n0, tn, M, K, mode, ta, tb):
    """Every M tile (of 512) of one N tile."""
    m_full, m_rem = _tiles(M, TN)
    if m_full:
        for mt in nl.affine_range(m_full):
            _cm_out_tile(a, b, c, d, sc, beta_nz, bi, n0, tn, mt * TN, TN, K, mode, ta, tb)
    if m_rem:
        _cm_out_tile(a, b, c, d, sc, beta_nz, bi, n0, tn, m_full * TN, m_rem, K, mode, ta, tb)


def _gemm_cm(a, b, c, scal, mode, ta, tb, m, n, k):
    """The column-major layout (module docstring): returns d [B][1][N][M].
    N goes in tiles of 128 (the stationary side), M in tiles of 512."""
    assert ta in ("n", "t") and tb in ("n", "t"), "ta and tb are n or t"
    assert m is not None and n is not None and k is not None, "layout=cm needs m, n and k"
    B = a.shape[0]
    rows_a, cols_a = (m, k) if ta == "n" else (k, m)
    rows_b, cols_b = (k, n) if tb == "n" else (n, k)
    assert tuple(a.shape[:3]) == (B, 1, cols_a) and a.shape[3] >= rows_a, \
        "a must be [B][1][CA][LDA]"
    assert tuple(b.shape[:3]) == (B, 1, cols_b) and b.shape[3] >= rows_b, \
        "b must be [B][1][CB][LDB]"
    assert tuple(c.shape[:3]) == (B, 1, n) and c.shape[3] >= m, "c must be [B][1][N][LDC]"
    assert tuple(scal.shape) == (2,), "scal must be [2]"
    d = nl.ndarray((B, 1, n, m), dtype=nl.float32, buffer=nl.shared_hbm)
    sc, beta_nz = _scalars(scal.reshape((1, 2)), 1)
    n_full, n_rem = _tiles(n, TM)
    for bi in nl.affine_range(B):
        if n_full:
            for nt in nl.affine_range(n_full):
                _cm_column_tiles(a, b, c, d, sc, beta_nz, bi, nt * TM, TM, m, k, mode, ta, tb)
        if n_rem:
            _cm_column_tiles(a, b, c, d, sc, beta_nz, bi, n_full * TM, n_rem, m, k, mode, ta, tb)
    return d


@nki.jit
def gemm_cm(a, b, c, scal, mode="fp32", dtype="f32", ta="n", tb="n", m=None, n=None, k=None):
    """The gemm program in the column-major layout (program.h, layout=cm):
    its own function so that the NEFF's first input is called a."""
    assert mode in MODES, "mode must be fp32, bf16 or bf16x3"
    assert dtype == "f32", "layout=cm is real (f32) only"
    return _gemm_cm(a, b, c, scal, mode, ta, tb, m, n, k)


@nki.jit
def gemm(at, b, c, scal, mode="fp32", dtype=None):
    assert mode in MODES, "mode must be fp32, bf16 or bf16x3"
    P = at.shape[1]
    assert P in (1, 2), "P is 1 (f32) or 2 (c32)"
    assert dtype is None or dtype == ("f32" if P == 1 else "c32"), "dtype does not match P"
    B, M, N = _check_operands(at, b, c, P, "gemm")
    assert tuple(scal.shape) == (2 * P,), "scal must be [2P]"
    d = nl.ndarray((B, P, M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    _gemm_into(at, b, c, scal.reshape((1, 2 * P)), d, mode, P)
    return d


def _seq_nodes(nodes):
    """The nodes of a sequence's text "g0=MxNxKxB:AT,B,C g1=...": a list of
    ((m, n, k, batch), (source of at, b, c)), a source None ("in") or the
    index of an earlier node ("dI")."""
    out = []
    for j, item in enumerate(nodes.split()):
        name, _, rest = item.partition("=")
        dims, _, srcs = rest.partition(":")
        assert name == "g%d" % j, "node %d must be g%d=MxNxKxB:AT,B,C" % (j, j)
        shape = tuple(int(x) for x in dims.split("x"))
        src = tuple(None if x == "in" else int(x[1:]) for x in srcs.split(","))
        assert len(shape) == 4 and min(shape) >= 1 and len(src) == 3, "node %d is malformed" % j
        assert all(i is None or 0 <= i < j for i in src), "node %d reads a later node" % j
        out.append((shape, src))
    assert 2 <= len(out) <= 8, "a sequence has 2 to 8 nodes"
    return out


@nki.jit
def gemm_seq(*tensors, nodes="", mode="fp32", dtype="f32"):
    assert mode in MODES, "mode must be fp32, bf16 or bf16x3"
    assert dtype in ("f32", "c32"), "dtype must be f32 or c32"
    P = 1 if dtype == "f32" else 2
    spec = _seq_nodes(nodes)
    J = len(spec)
    scal = tensors[-1]
    assert tuple(scal.shape) == (J, 2 * P), "scal must be [J][2P]"
    inputs = list(tensors[:-1])
    ds = []
    for j, ((m, n, k, batch), src) in enumerate(spec):
        ops = []
        for i in src:
            if i is None:
                assert inputs, "node %d: fewer inputs than its \"in\" operands" % j
                ops.append(inputs.pop(0))
            else:
                ops.append(ds[i])
        at, b, c = ops
        what = "node %d" % j
        assert tuple(at.shape) == (batch, P, k, m), "%s: at must be [batch][P][k][m]" % what
        _check_operands(at, b, c, P, what)
        assert tuple(b.shape)[3] == n, "%s: n does not match b" % what
        d = nl.ndarray((batch, P, m, n), dtype=nl.float32, buffer=nl.shared_hbm)
        _gemm_into(at, b, c, scal[j:j + 1, 0:2 * P], d, mode, P)
        ds.append(d)
    assert not inputs, "more inputs than the nodes' \"in\" operands"
    return tuple(ds)
