/*
 * test_kernel_bounds.c — the CPU kernels that wrap OpenBLAS and LAPACK never
 * touch memory outside the extents the validators allow.
 *
 * Every operand is placed against an inaccessible guard page: first with its
 * last byte right before the guard (over-reads past the end fault), then
 * with its first byte right after one (under-reads fault). The extents are
 * exactly what daemon/validate_*.c checks for that operand: (cols-1)·ld +
 * rows elements for a matrix, (n-1)·|inc| + 1 for a vector. A kernel that
 * reads one element further faults, and the handler names the case.
 *
 * Why this exists: Debian's OpenBLAS 0.3.21 complex dot kernels read one
 * element past a strided vector (x + n·inc), and LAPACK's zlauum/clauum
 * (potri, upper) calls them along rows of the matrix, so potri on a complex
 * upper factor read past the end of the client's buffer. In the daemon
 * that read hit the next mapping, or faulted when there was none (about one
 * run in twenty of integration_solver). The kernels work around it
 * (kernels/cpu/blas1.c, kernels/cpu/solver_factor.c); this test keeps every
 * routine honest against such reads, whichever library version is used.
 *
 * Values are random (diagonally dominant or SPD where the routine needs it);
 * results are checked by the integration tests, not here.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "tests/common/checked_routines.h"

#include "kernels/cpu/cpu_kernels.h"
#include "ops/solver_tile.h"

/* ---- guarded operands ---------------------------------------------------------------- */

/* The case running now, for the fault handler (a test-only global). */
static char current_case[256];
/* 0: operands end at a guard page; 1: operands start after one. */
static int placement;

typedef struct gbuf {
    char *map;
    size_t map_len;
    void *p;
    size_t bytes;
} gbuf;

static sigjmp_buf resume;
static volatile sig_atomic_t armed;
static int faults; /* cases that faulted in this test */

/* The live operands, so that a fault can name the one it hit. */
#define MAX_LIVE 16
static const gbuf *live[MAX_LIVE];

static void on_fault(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    char buf[512];
    const char *at = (const char *)si->si_addr;
    long rel = 0;
    int which = -1;
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] && at >= live[i]->map && at < live[i]->map + live[i]->map_len) {
            which = i;
            rel = (long)(at - (const char *)live[i]->p);
        }
    int n = snprintf(buf, sizeof(buf),
                     "\nkernel_bounds: signal %d at byte %ld from the start of operand #%d "
                     "(%zu bytes) in: %s (operands %s)\n",
                     sig, rel, which, which >= 0 ? live[which]->bytes : (size_t)0, current_case,
                     placement ? "starting after a guard" : "ending at a guard");
    if (n > 0)
        (void)!write(2, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
    if (!armed)
        _exit(1);
    siglongjmp(resume, 1);
}

/* Runs a kernel call; a fault is counted and the case goes on to free its
 * operands, so that one run lists every case that reads out of bounds. */
static trn_kstatus guarded(trn_kstatus (*call)(const void *), const void *d) {
    volatile trn_kstatus ks = TRN_KSTATUS_OK;
    armed = 1;
    if (sigsetjmp(resume, 1) == 0)
        ks = call(d);
    else
        faults++;
    armed = 0;
    return ks;
}

static trn_kstatus call_gemm(const void *d) {
    return trn_cpu_gemm(d, NULL, 0, 1);
}
static trn_kstatus call_blas1(const void *d) {
    return trn_cpu_blas1(d, 0, 1);
}
static trn_kstatus call_blas2(const void *d) {
    return trn_cpu_blas2(d, 0, 1);
}
static trn_kstatus call_blas3(const void *d) {
    return trn_cpu_blas3(d, 0, 1);
}
static trn_kstatus call_dense(const void *d) {
    return trn_cpu_solver_dense(d, NULL, 0, 1);
}
/* A tiled factorisation or potri (ops/solver_tile.h): its steps in turn. */
static trn_kstatus call_dense_steps(const void *whole) {
    for (int s = 0; s < trn_tile_steps(whole); s++) {
        const trn_solver_dense_desc d = trn_tile_step(whole, s);
        const trn_kstatus ks = trn_cpu_solver_dense(&d, NULL, 0, 1);
        if (ks != TRN_KSTATUS_OK)
            return ks;
    }
    return TRN_KSTATUS_OK;
}
static trn_kstatus call_eigen(const void *d) {
    return trn_cpu_solver_eigen(d, NULL, 0, 1);
}

/* An operand of `bytes` (at least 1) against a guard page, per placement. */
static void *gb_alloc(gbuf *g, size_t bytes) {
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    if (bytes == 0)
        bytes = 1;
    const size_t data = (bytes + pg - 1) / pg * pg;
    g->map_len = data + 2 * pg;
    g->map = mmap(NULL, g->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(g->map != MAP_FAILED);
    assert_int_equal(mprotect(g->map + pg, data, PROT_READ | PROT_WRITE), 0);
    g->p = placement == 0 ? g->map + pg + data - bytes : g->map + pg;
    g->bytes = bytes;
    for (int i = 0; i < MAX_LIVE; i++)
        if (!live[i]) {
            live[i] = g;
            break;
        }
    return g->p;
}

static void gb_free(gbuf *g) {
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == g)
            live[i] = NULL;
    if (g->map)
        munmap(g->map, g->map_len);
    memset(g, 0, sizeof(*g));
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static double uniform(void) { /* [-1, 1) */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) * 0x1p-52 - 1.0;
}

static int is_cx(trn_dtype t) {
    return t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
}

/* Stores v into component c of element i. */
static void put(trn_dtype t, void *p, size_t i, int c, double v) {
    const size_t k = i * (is_cx(t) ? 2 : 1) + (size_t)c;
    if (t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F)
        ((float *)p)[k] = (float)v;
    else
        ((double *)p)[k] = v;
}

/* A guarded rows x cols matrix with leading dimension ld (extent
 * (cols-1)·ld + rows elements). order > 0: the first order columns get a
 * dominant real diagonal of order + 2 and a Hermitian-symmetric off-diagonal
 * part, so the matrix is SPD, Hermitian, and a well-conditioned triangle. */
static void *gb_matrix(gbuf *g, trn_dtype t, int rows, int cols, int ld, int order) {
    const size_t es = trn_dtype_size(t);
    const size_t ext = rows > 0 && cols > 0 ? (size_t)(cols - 1) * (size_t)ld + (size_t)rows : 0;
    void *p = gb_alloc(g, ext * es);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) {
            const size_t at = (size_t)j * (size_t)ld + (size_t)i;
            if (order > 0 && i < order && j < order) {
                /* A value depending on (min, max) only: symmetric; the
                 * imaginary part flips sign across the diagonal. */
                const int lo = i < j ? i : j, hi = i < j ? j : i;
                const double re = i == j ? order + 2.0 : 0.5 * cos(lo * 1.3 + hi * 0.7) / order;
                const double im = i == j ? 0.0 : 0.5 * sin(lo * 0.9 + hi * 1.1) / order;
                put(t, p, at, 0, re);
                if (is_cx(t))
                    put(t, p, at, 1, i < j ? im : -im);
            } else {
                put(t, p, at, 0, uniform());
                if (is_cx(t))
                    put(t, p, at, 1, uniform());
            }
        }
    return p;
}

/* A guarded vector of n elements with increment inc ((n-1)·|inc| + 1). */
static void *gb_vector(gbuf *g, trn_dtype t, int n, int inc) {
    const int ainc = inc < 0 ? -inc : inc;
    return gb_matrix(g, t, n > 0 ? 1 : 0, n, ainc, 0);
}

static const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};
static const char type_ch[] = "SDCZ";

#define CASE(...) snprintf(current_case, sizeof(current_case), __VA_ARGS__)

/* ---- Level 1 -------------------------------------------------------------------------- */

static void run_blas1(void) {
    static const int ns[] = {1, 2, 3, 7, 17};
    static const int incs[] = {1, 2, -1, -3};
    for (int ti = 0; ti < 4; ti++)
        for (int fn = TRN_BLAS1_AXPY; fn <= TRN_BLAS1_ROT; fn++)
            for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
                for (int xi = 0; xi < 4; xi++)
                    for (int yi = 0; yi < 4; yi++) {
                        const trn_dtype t = types[ti];
                        const int n = ns[ni], incx = incs[xi], incy = incs[yi];
                        const int one_vec = fn == TRN_BLAS1_SCAL || fn == TRN_BLAS1_NRM2 ||
                                            fn == TRN_BLAS1_ASUM || fn == TRN_BLAS1_IAMAX ||
                                            fn == TRN_BLAS1_IAMIN;
                        if (one_vec && (yi > 0 || incx < 0))
                            continue; /* incx <= 0 does nothing for these */
                        if (fn == TRN_BLAS1_DOTC && !is_cx(t))
                            continue; /* real dotc is dot (the validator maps it) */
                        CASE("blas1 fn %d %c n=%d incx=%d incy=%d", fn, type_ch[ti], n, incx, incy);
                        gbuf gx = {0}, gy = {0}, gr = {0};
                        trn_blas1_desc d = {.fn = (trn_blas1_fn)fn,
                                            .type = t,
                                            .n = n,
                                            .alpha = {0.5, 0.25},
                                            .beta = {0.6, 0.0},
                                            .incx = incx,
                                            .incy = incy};
                        d.x = gb_vector(&gx, t, n, incx);
                        if (!one_vec)
                            d.y = gb_vector(&gy, t, n, incy);
                        d.result = gb_alloc(&gr, 2 * sizeof(double));
                        const int reduction = fn == TRN_BLAS1_DOT || fn == TRN_BLAS1_DOTC ||
                                              fn == TRN_BLAS1_NRM2 || fn == TRN_BLAS1_ASUM;
                        for (int comp = 0; comp <= reduction; comp++) {
                            d.compensated = comp;
                            const trn_kstatus k = guarded(call_blas1, &d);
                            if (k != TRN_KSTATUS_OK)
                                fail_msg("%s compensated=%d: status %d", current_case, comp,
                                         (int)k);
                        }
                        gb_free(&gx);
                        gb_free(&gy);
                        gb_free(&gr);
                    }
}

/* ---- Level 2 -------------------------------------------------------------------------- */

static void blas2_case(trn_blas2_desc d) {
    const trn_dtype t = d.type;
    const int m = d.m, n = d.n;
    const int notrans = d.trans == TRN_TRANS_N;
    int a_rows = n, a_cols = n, xlen = n, ylen = n, order = n;
    switch (d.fn) {
    case TRN_BLAS2_GEMV:
        a_rows = m;
        xlen = notrans ? n : m;
        ylen = notrans ? m : n;
        order = 0;
        break;
    case TRN_BLAS2_GBMV:
        a_rows = d.kl + d.ku + 1;
        xlen = notrans ? n : m;
        ylen = notrans ? m : n;
        order = 0;
        break;
    case TRN_BLAS2_GER:
    case TRN_BLAS2_GERC:
        a_rows = m;
        xlen = m;
        order = 0;
        break;
    case TRN_BLAS2_TRMV:
    case TRN_BLAS2_TRSV: ylen = 0; break;
    case TRN_BLAS2_SYR:
    case TRN_BLAS2_HER: ylen = 0; break;
    case TRN_BLAS2_TBMV:
    case TRN_BLAS2_TBSV: ylen = 0; /* fall through */
    case TRN_BLAS2_SBMV:
    case TRN_BLAS2_HBMV:
        a_rows = d.k + 1;
        order = 0;
        break;
    case TRN_BLAS2_TPMV:
    case TRN_BLAS2_TPSV:
    case TRN_BLAS2_SPR:
    case TRN_BLAS2_HPR: ylen = 0; /* fall through */
    case TRN_BLAS2_SPMV:
    case TRN_BLAS2_HPMV:
    case TRN_BLAS2_SPR2:
    case TRN_BLAS2_HPR2: /* packed: n (n + 1) / 2 elements */
        a_rows = n * (n + 1) / 2;
        a_cols = 1;
        order = 0;
        break;
    default: break;
    }
    gbuf ga = {0}, gx = {0}, gy = {0};
    d.a = gb_matrix(&ga, t, a_rows, a_cols, a_cols == 1 ? a_rows : d.lda, order);
    d.x = gb_vector(&gx, t, xlen, d.incx);
    d.y = ylen ? gb_vector(&gy, t, ylen, d.incy) : NULL;
    const trn_kstatus ks = guarded(call_blas2, &d);
    if (ks != TRN_KSTATUS_OK)
        fail_msg("%s: status %d", current_case, (int)ks);
    gb_free(&ga);
    gb_free(&gx);
    gb_free(&gy);
}

static void run_blas2(void) {
    static const int sizes[][2] = {{1, 1}, {5, 3}, {3, 6}, {17, 17}};
    static const int incs[] = {1, -2, 3};
    for (int ti = 0; ti < 4; ti++)
        for (int fn = TRN_BLAS2_GEMV; fn <= TRN_BLAS2_HPR2; fn++) {
            const trn_dtype t = types[ti];
            const int herm = fn == TRN_BLAS2_HEMV || fn == TRN_BLAS2_GERC || fn == TRN_BLAS2_HER ||
                             fn == TRN_BLAS2_HER2 || fn == TRN_BLAS2_HBMV || fn == TRN_BLAS2_HPMV ||
                             fn == TRN_BLAS2_HPR || fn == TRN_BLAS2_HPR2;
            const int real_only = fn == TRN_BLAS2_SBMV || fn == TRN_BLAS2_SPMV ||
                                  fn == TRN_BLAS2_SPR || fn == TRN_BLAS2_SPR2;
            const int band = fn == TRN_BLAS2_TBMV || fn == TRN_BLAS2_TBSV || fn == TRN_BLAS2_SBMV ||
                             fn == TRN_BLAS2_HBMV;
            const int packed = fn >= TRN_BLAS2_TBMV && !band;
            if ((herm && !is_cx(t)) || (real_only && is_cx(t)))
                continue;
            const int square = fn != TRN_BLAS2_GEMV && fn != TRN_BLAS2_GBMV &&
                               fn != TRN_BLAS2_GER && fn != TRN_BLAS2_GERC;
            for (size_t si = 0; si < 4; si++)
                for (int tr = 0; tr < (is_cx(t) ? 3 : 2); tr++)
                    for (int up = 0; up < 2; up++)
                        for (int xi = 0; xi < 3; xi++) {
                            const int m = sizes[si][0], n = square ? m : sizes[si][1];
                            const int kl = m > 2 ? 2 : 0, ku = n > 1 ? 1 : 0;
                            const int rows = fn == TRN_BLAS2_GBMV ? kl + ku + 1
                                             : band               ? 3 /* k = 2 */
                                             : square             ? n
                                                                  : m;
                            trn_blas2_desc d = {.fn = (trn_blas2_fn)fn,
                                                .type = t,
                                                .trans = (trn_trans)tr,
                                                .uplo = (trn_uplo)up,
                                                .diag = (trn_diag)(xi == 1),
                                                .m = m,
                                                .n = n,
                                                .kl = kl,
                                                .ku = ku,
                                                .k = band ? 2 : 0,
                                                .alpha = {0.75, -0.5},
                                                .beta = {-1.25, 0.25},
                                                .lda = packed ? 1 : rows + (xi == 2),
                                                .incx = incs[xi],
                                                .incy = incs[(xi + 1) % 3]};
                            CASE("blas2 fn %d %c m=%d n=%d trans=%d uplo=%d diag=%d lda=%d "
                                 "incx=%d incy=%d",
                                 fn, type_ch[ti], m, n, tr, up, (int)d.diag, d.lda, d.incx, d.incy);
                            blas2_case(d);
                        }
        }
}

/* ---- Level 3 -------------------------------------------------------------------------- */

static void blas3_case(trn_blas3_desc d) {
    const trn_dtype t = d.type;
    const int m = d.m, n = d.n, k = d.k, left = d.side == TRN_SIDE_LEFT;
    int ar = 0, ac = 0, br = 0, bc = 0, cr = m, cc = n, order = 0, xlen = 0;
    switch (d.fn) {
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM:
    case TRN_BLAS3_TRSM:
    case TRN_BLAS3_TRMM:
        ar = ac = order = left ? m : n;
        br = m;
        bc = n;
        if (d.fn == TRN_BLAS3_TRSM)
            cr = cc = 0;
        break;
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX:
        ar = d.transa == TRN_TRANS_N ? n : k;
        ac = d.transa == TRN_TRANS_N ? k : n;
        if (d.fn != TRN_BLAS3_SYRK && d.fn != TRN_BLAS3_HERK) {
            br = ar;
            bc = ac;
        }
        cr = cc = n;
        break;
    case TRN_BLAS3_GEAM:
        ar = d.transa == TRN_TRANS_N ? m : n;
        ac = d.transa == TRN_TRANS_N ? n : m;
        br = d.transb == TRN_TRANS_N ? m : n;
        bc = d.transb == TRN_TRANS_N ? n : m;
        break;
    case TRN_BLAS3_DGMM:
        ar = m;
        ac = n;
        xlen = left ? m : n;
        break;
    }
    const int in_place = d.fn == TRN_BLAS3_TRMM && d.ldc == 0; /* C is B */
    gbuf ga = {0}, gb = {0}, gc = {0}, gx = {0};
    d.a = gb_matrix(&ga, t, ar, ac, d.lda, order);
    d.b = br ? gb_matrix(&gb, t, br, bc, d.ldb, 0) : NULL;
    d.c = cr && !in_place ? gb_matrix(&gc, t, cr, cc, d.ldc, 0) : NULL;
    if (in_place) {
        d.c = d.b;
        d.ldc = d.ldb;
    }
    d.x = xlen ? gb_vector(&gx, t, xlen, d.incx) : NULL;
    const trn_kstatus ks = guarded(call_blas3, &d);
    if (ks != TRN_KSTATUS_OK)
        fail_msg("%s: status %d", current_case, (int)ks);
    gb_free(&ga);
    gb_free(&gb);
    gb_free(&gc);
    gb_free(&gx);
}

static void run_blas3(void) {
    static const int shapes[][3] = {{1, 1, 1}, {6, 19, 4}, {19, 6, 9}};
    for (int ti = 0; ti < 4; ti++)
        for (int fn = TRN_BLAS3_SYMM; fn <= TRN_BLAS3_HERKX; fn++) {
            const trn_dtype t = types[ti];
            const int herm = fn == TRN_BLAS3_HEMM || fn == TRN_BLAS3_HERK ||
                             fn == TRN_BLAS3_HER2K || fn == TRN_BLAS3_HERKX;
            if (herm && !is_cx(t))
                continue;
            for (int si = 0; si < 3; si++)
                for (int side = 0; side < 2; side++)
                    for (int up = 0; up < 2; up++)
                        for (int ta = 0; ta < (is_cx(t) ? 3 : 2); ta++)
                            for (int tb = 0; tb < 2; tb++) {
                                const int m = shapes[si][0], k = shapes[si][2];
                                const int sq = (fn >= TRN_BLAS3_SYRK && fn <= TRN_BLAS3_HER2K) ||
                                               fn == TRN_BLAS3_SYRKX || fn == TRN_BLAS3_HERKX;
                                const int n = sq ? m : shapes[si][1];
                                /* syrk..her2k: N or (C for herk/her2k, T otherwise) */
                                trn_trans tra = (trn_trans)ta;
                                if (sq && ta == 2)
                                    continue;
                                if (sq && ta == 1 && herm)
                                    tra = TRN_TRANS_C;
                                const int left = side == 0, ka = left ? m : n;
                                int lda = fn == TRN_BLAS3_GEAM || fn == TRN_BLAS3_DGMM
                                              ? (tra == TRN_TRANS_N || fn == TRN_BLAS3_DGMM ? m : n)
                                          : sq ? (tra == TRN_TRANS_N ? n : k)
                                               : ka;
                                const int ldb = fn == TRN_BLAS3_GEAM && tb ? n : sq ? lda : m;
                                trn_blas3_desc d = {.fn = (trn_blas3_fn)fn,
                                                    .type = t,
                                                    .side = (trn_side)side,
                                                    .uplo = (trn_uplo)up,
                                                    .transa = tra,
                                                    .transb = (trn_trans)tb,
                                                    .diag = (trn_diag)(tb),
                                                    .m = m,
                                                    .n = n,
                                                    .k = k,
                                                    .alpha = {0.75, -0.5},
                                                    .beta = {-1.25, herm ? 0.0 : 0.25},
                                                    .lda = lda + (si == 2),
                                                    .ldb = ldb + (si == 1),
                                                    .ldc = (sq ? n : m) + (si == 2),
                                                    .incx = side ? -2 : 1};
                                if (herm)
                                    d.alpha.im = fn == TRN_BLAS3_HERK ? 0.0 : d.alpha.im;
                                CASE("blas3 fn %d %c m=%d n=%d k=%d side=%d uplo=%d transa=%d "
                                     "transb=%d lda=%d ldb=%d ldc=%d",
                                     fn, type_ch[ti], m, n, k, side, up, (int)tra, tb, d.lda, d.ldb,
                                     d.ldc);
                                blas3_case(d);
                                if (fn == TRN_BLAS3_TRMM) { /* in place: C is B */
                                    d.ldc = 0;
                                    blas3_case(d);
                                }
                            }
        }
}

/* ---- GEMM ---------------------------------------------------------------------------- */

/* Every type and transpose pair with every compute type its precision
 * takes (the modes work on rounded or split copies of A and B). */
static void run_gemm(void) {
    static const int shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 65}};
    static const trn_compute modes32[] = {TRN_COMPUTE_32F,           TRN_COMPUTE_32F_FAST_16BF,
                                          TRN_COMPUTE_32F_FAST_TF32, TRN_COMPUTE_32F_BF16X3,
                                          TRN_COMPUTE_32F_BF16X9,    TRN_COMPUTE_32F_FAST_16F};
    static const trn_compute modes64[] = {TRN_COMPUTE_64F, TRN_COMPUTE_64F_EMULATED};
    for (int ti = 0; ti < 4; ti++)
        for (int si = 0; si < 3; si++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++)
                    for (int mi = 0; mi < 6; mi++) {
                        const trn_dtype t = types[ti];
                        const int single = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
                        if ((ta == 2 || tb == 2) && !is_cx(t))
                            continue;
                        if (mi >= (single ? 6 : 2))
                            continue;
                        const int m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
                        const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k,
                                  bc = tb ? k : n;
                        trn_gemm_desc d = {.type = t,
                                           .transa = (trn_trans)ta,
                                           .transb = (trn_trans)tb,
                                           .m = m,
                                           .n = n,
                                           .k = k,
                                           .alpha = {0.75, -0.5},
                                           .beta = {-1.25, 0.25},
                                           .lda = ar + (si & 1),
                                           .ldb = br,
                                           .ldc = m + (si == 2),
                                           .compute = single ? modes32[mi] : modes64[mi]};
                        CASE("gemm %c m=%d n=%d k=%d transa=%d transb=%d compute=%d", type_ch[ti],
                             m, n, k, ta, tb, (int)d.compute);
                        gbuf ga = {0}, gb = {0}, gc = {0};
                        d.a = gb_matrix(&ga, t, ar, ac, d.lda, 0);
                        d.b = gb_matrix(&gb, t, br, bc, d.ldb, 0);
                        d.c = gb_matrix(&gc, t, m, n, d.ldc, 0);
                        const trn_kstatus ks = guarded(call_gemm, &d);
                        if (ks != TRN_KSTATUS_OK)
                            fail_msg("%s: status %d", current_case, (int)ks);
                        gb_free(&ga);
                        gb_free(&gb);
                        gb_free(&gc);
                    }
}

/* ---- LAPACK: factorisations ------------------------------------------------------------ */

static void dense_case(trn_solver_dense_desc d) {
    const trn_dtype t = d.type;
    const int m = d.m, n = d.n, p = m < n ? m : n;
    gbuf ga = {0}, gb = {0}, gp = {0}, gt = {0}, gi = {0};
    int ar = n, ac = n, order = n, br = 0, bc = 0, taus = 0, pivs = 0;
    switch (d.fn) {
    case TRN_SOLVER_POTRS: br = n, bc = d.nrhs; break;
    case TRN_SOLVER_GETRF:
        ar = m;
        order = p;
        pivs = d.ipiv ? p : 0;
        break;
    case TRN_SOLVER_GETRS:
        br = n, bc = d.nrhs;
        pivs = d.ipiv ? n : 0;
        break;
    case TRN_SOLVER_GEQRF:
        ar = m;
        order = 0;
        taus = p;
        break;
    case TRN_SOLVER_ORGQR:
        ar = m;
        order = 0;
        taus = d.k;
        break;
    case TRN_SOLVER_ORMQR:
        ar = d.left ? m : n;
        ac = d.k;
        order = 0;
        taus = d.k;
        br = m;
        bc = n;
        break;
    default: break;
    }
    d.a = gb_matrix(&ga, t, ar, ac, d.lda, order);
    d.b = br ? gb_matrix(&gb, t, br, bc, d.ldb, 0) : NULL;
    if (pivs) {
        d.ipiv = gb_alloc(&gp, (size_t)pivs * sizeof(int32_t));
        for (int i = 0; i < pivs; i++)
            d.ipiv[i] = i + 1 + (i + 1 < pivs && d.fn == TRN_SOLVER_GETRS && i % 3 == 0);
    }
    if (taus) {
        d.tau = gb_vector(&gt, t, taus, 1);
        for (int i = 0; i < taus; i++) /* a Householder scalar: 1 <= re <= 2, |tau - 1| <= 1 */
            put(t, d.tau, (size_t)i, 0, 1.0 + 0.5 * (i % 2));
    }
    d.info = gb_alloc(&gi, sizeof(int32_t));
    const trn_kstatus ks = guarded(trn_tile_nb(&d) ? call_dense_steps : call_dense, &d);
    if (ks != TRN_KSTATUS_OK)
        fail_msg("%s: status %d", current_case, (int)ks);
    gb_free(&ga);
    gb_free(&gb);
    gb_free(&gp);
    gb_free(&gt);
    gb_free(&gi);
}

/* The tiled potrf and potri (tile tasks on the client's matrix) of order
 * 769: four tiles, the last one 1 wide. */
static void run_dense_tiled(void) {
    for (int ti = 0; ti < 4; ti++)
        for (int pad = 0; pad < 2; pad++)
            for (int lower = 0; lower < 2; lower++) {
                const int n = 769, ld = n + 3 * pad;
                const trn_solver_fn fns[] = {TRN_SOLVER_POTRF, TRN_SOLVER_POTRI};
                for (int f = 0; f < 2; f++) {
                    CASE("tiled solver fn %d %c n=%d lda=%d lower=%d", (int)fns[f], type_ch[ti], n,
                         ld, lower);
                    const trn_solver_dense_desc d = {
                        .fn = fns[f], .type = types[ti], .lower = lower, .m = n, .n = n, .lda = ld};
                    assert_true(trn_tile_nb(&d) > 0);
                    dense_case(d);
                }
            }
}

static void run_dense(void) {
    static const int ns[] = {1, 2, 7, 33, 80};
    for (int ti = 0; ti < 4; ti++)
        for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
            for (int pad = 0; pad < 2; pad++)
                for (int lower = 0; lower < 2; lower++) {
                    const trn_dtype t = types[ti];
                    const int n = ns[ni], ld = n + 3 * pad, cx = is_cx(t);
                    /* lauum: trnsolver's own code around OpenBLAS's trmm. */
                    const trn_solver_fn sq[] = {TRN_SOLVER_POTRF, TRN_SOLVER_POTRS,
                                                TRN_SOLVER_POTRI, TRN_SOLVER_LAUUM};
                    for (int f = 0; f < 4; f++) {
                        CASE("solver fn %d %c n=%d lda=%d lower=%d", (int)sq[f], type_ch[ti], n, ld,
                             lower);
                        dense_case((trn_solver_dense_desc){.fn = sq[f],
                                                           .type = t,
                                                           .lower = lower,
                                                           .m = n,
                                                           .n = n,
                                                           .nrhs = 3,
                                                           .lda = ld,
                                                           .ldb = ld});
                    }
                    /* getrf on m x n (taller with lower, wider without), with
                     * and without pivoting; getrs with each transpose. */
                    const int m = lower ? n + 2 : (n > 1 ? n - 1 : 1);
                    for (int piv = 0; piv < 2; piv++) {
                        static int32_t flag; /* non-NULL marks "pivoting" */
                        CASE("getrf %c m=%d n=%d lda=%d pivot=%d", type_ch[ti], m, n, m + pad, piv);
                        dense_case((trn_solver_dense_desc){.fn = TRN_SOLVER_GETRF,
                                                           .type = t,
                                                           .m = m,
                                                           .n = n,
                                                           .lda = m + pad,
                                                           .ipiv = piv ? &flag : NULL});
                        for (int tr = 0; tr < (cx ? 3 : 2); tr++) {
                            CASE("getrs %c n=%d lda=%d pivot=%d trans=%d", type_ch[ti], n, ld, piv,
                                 tr);
                            dense_case((trn_solver_dense_desc){.fn = TRN_SOLVER_GETRS,
                                                               .type = t,
                                                               .trans = (trn_trans)tr,
                                                               .n = n,
                                                               .m = n,
                                                               .nrhs = 2,
                                                               .lda = ld,
                                                               .ldb = ld,
                                                               .ipiv = piv ? &flag : NULL});
                        }
                    }
                    /* QR: geqrf m x n, orgqr m x n (m >= n) with k <= n,
                     * ormqr on an m x n C from either side. */
                    const int mq = n + 2 * lower, kq = n > 1 ? n - lower : 1;
                    CASE("geqrf %c m=%d n=%d lda=%d", type_ch[ti], mq, n, mq + pad);
                    dense_case((trn_solver_dense_desc){
                        .fn = TRN_SOLVER_GEQRF, .type = t, .m = mq, .n = n, .lda = mq + pad});
                    CASE("orgqr %c m=%d n=%d k=%d", type_ch[ti], mq, n, kq);
                    dense_case((trn_solver_dense_desc){.fn = TRN_SOLVER_ORGQR,
                                                       .type = t,
                                                       .m = mq,
                                                       .n = n,
                                                       .k = kq,
                                                       .lda = mq + pad});
                    for (int left = 0; left < 2; left++)
                        for (int tr = 0; tr < 2; tr++) {
                            const int cm = left ? n + 1 : 3, cn = left ? 3 : n + 1;
                            const int kk = (left ? cm : cn) - 1;
                            CASE("ormqr %c m=%d n=%d k=%d left=%d trans=%d", type_ch[ti], cm, cn,
                                 kk, left, tr);
                            dense_case((trn_solver_dense_desc){
                                .fn = TRN_SOLVER_ORMQR,
                                .type = t,
                                .left = left,
                                .trans = tr ? (cx ? TRN_TRANS_C : TRN_TRANS_T) : TRN_TRANS_N,
                                .m = cm,
                                .n = cn,
                                .k = kk,
                                .lda = (left ? cm : cn) + pad,
                                .ldb = cm + pad});
                        }
                }
}

/* ---- LAPACK: eigenvalues and SVD ----------------------------------------------------- */

static void eigen_case(trn_solver_eigen_desc d, int u_cols, int v_rows, int v_cols) {
    const trn_dtype t = d.type;
    const trn_dtype rt = t == TRN_DTYPE_C32F   ? TRN_DTYPE_R32F
                         : t == TRN_DTYPE_C64F ? TRN_DTYPE_R64F
                                               : t;
    const int m = d.m, n = d.n, p = m < n ? m : n;
    const int svd = d.fn == TRN_SOLVER_GESVD || d.fn == TRN_SOLVER_GESVDJ ||
                    d.fn == TRN_SOLVER_GESVDA_STRIDED_BATCHED;
    gbuf ga = {0}, gb = {0}, gw = {0}, gu = {0}, gv = {0}, gr = {0}, gi = {0}, gx = {0};
    d.a = gb_matrix(&ga, t, svd ? m : n, n, d.lda, svd ? 0 : n);
    if (d.fn == TRN_SOLVER_SYGVD || d.fn == TRN_SOLVER_SYGVDX || d.fn == TRN_SOLVER_SYGVJ)
        d.b = gb_matrix(&gb, t, n, n, d.ldb, n);
    d.w = gb_vector(&gw, rt, d.fn == TRN_SOLVER_GESVDA_STRIDED_BATCHED ? d.rank : svd ? p : n, 1);
    if (d.fn == TRN_SOLVER_GESVDA_STRIDED_BATCHED) /* batch 1: the residual */
        d.residuals = gb_alloc(&gx, sizeof(double));
    if (d.fn == TRN_SOLVER_SYGVDX) /* the count */
        d.meig = gb_alloc(&gx, sizeof(int32_t));
    d.u = u_cols ? gb_matrix(&gu, t, m, u_cols, d.ldu, 0) : NULL;
    d.v = v_rows ? gb_matrix(&gv, t, v_rows, v_cols, d.ldv, 0) : NULL;
    if (d.fn == TRN_SOLVER_GESVD && p > 1)
        d.rwork = gb_vector(&gr, rt, p - 1, 1);
    d.info = gb_alloc(&gi, sizeof(int32_t));
    const trn_kstatus ks = guarded(call_eigen, &d);
    if (ks != TRN_KSTATUS_OK)
        fail_msg("%s: status %d", current_case, (int)ks);
    gb_free(&ga);
    gb_free(&gb);
    gb_free(&gw);
    gb_free(&gu);
    gb_free(&gv);
    gb_free(&gr);
    gb_free(&gi);
    gb_free(&gx);
}

/* syevd / syevj / sygvd of order n (the tolerance and sweeps used by the
 * Jacobi methods). */
static trn_solver_eigen_desc syev_desc(trn_solver_fn fn, trn_dtype t, int n, int ld, int lower,
                                       int vec) {
    return (trn_solver_eigen_desc){.fn = fn,
                                   .type = t,
                                   .vectors = vec,
                                   .lower = lower,
                                   .m = n,
                                   .n = n,
                                   .lda = ld,
                                   .ldb = ld,
                                   .ldu = 1,
                                   .ldv = 1,
                                   .tol = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 1e-6 : 1e-14,
                                   .max_sweeps = 30};
}

static void run_eigen(void) {
    static const int ns[] = {1, 2, 9, 33, 64}; /* 64: copies with padded columns */
    for (int ti = 0; ti < 4; ti++)
        for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
            for (int pad = 0; pad < 2; pad++)
                for (int lower = 0; lower < 2; lower++)
                    for (int vec = 0; vec < 2; vec++) {
                        const trn_dtype t = types[ti];
                        const int n = ns[ni], ld = n + pad;
                        const double tol =
                            t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 1e-6 : 1e-14;
                        CASE("syevd %c n=%d lda=%d lower=%d vectors=%d", type_ch[ti], n, ld, lower,
                             vec);
                        trn_solver_eigen_desc d = syev_desc(TRN_SOLVER_SYEVD, t, n, ld, lower, vec);
                        eigen_case(d, 0, 0, 0);
                        d.fn = TRN_SOLVER_SYEVJ;
                        CASE("syevj %c n=%d lda=%d lower=%d vectors=%d", type_ch[ti], n, ld, lower,
                             vec);
                        eigen_case(d, 0, 0, 0);
                        d.fn = TRN_SOLVER_SYGVD;
                        for (int it = 1; it <= 3; it++) {
                            d.itype = it;
                            CASE("sygvd %c n=%d lda=%d lower=%d vectors=%d itype=%d", type_ch[ti],
                                 n, ld, lower, vec, it);
                            eigen_case(d, 0, 0, 0);
                        }
                        /* Protocol 1.15: sygvdx (RANGE_I, the 1st to the
                         * (n+1)/2-th) and sygvj, itype 1 and 3. */
                        for (int it = 1; it <= 3; it += 2) {
                            trn_solver_eigen_desc g =
                                syev_desc(TRN_SOLVER_SYGVDX, t, n, ld, lower, vec);
                            g.itype = it;
                            g.range = TRN_EIG_RANGE_I;
                            g.il = 1;
                            g.iu = (n + 1) / 2;
                            CASE("sygvdx %c n=%d lda=%d lower=%d vectors=%d itype=%d", type_ch[ti],
                                 n, ld, lower, vec, it);
                            eigen_case(g, 0, 0, 0);
                            g.fn = TRN_SOLVER_SYGVJ;
                            CASE("sygvj %c n=%d lda=%d lower=%d vectors=%d itype=%d", type_ch[ti],
                                 n, ld, lower, vec, it);
                            eigen_case(g, 0, 0, 0);
                        }
                        /* gesvdaStridedBatched, one matrix m x n, rank (n+1)/2. */
                        {
                            const int mg = n + 3 * lower, r = (n + 1) / 2;
                            trn_solver_eigen_desc g = {.fn = TRN_SOLVER_GESVDA_STRIDED_BATCHED,
                                                       .type = t,
                                                       .vectors = vec,
                                                       .m = mg,
                                                       .n = n,
                                                       .lda = mg + pad,
                                                       .ldu = mg + pad,
                                                       .ldv = n + pad,
                                                       .rank = r,
                                                       .stride_a = (int64_t)(mg + pad) * n,
                                                       .stride_s = r,
                                                       .stride_u = (int64_t)(mg + pad) * r,
                                                       .stride_v = (int64_t)(n + pad) * r,
                                                       .batch = 1};
                            CASE("gesvdaStridedBatched %c m=%d n=%d rank=%d vectors=%d pad=%d",
                                 type_ch[ti], mg, n, r, vec, pad);
                            eigen_case(g, vec ? r : 0, vec ? n : 0, vec ? r : 0);
                        }
                        /* SVDs of m x n with m >= n (gesvd), and both shapes
                         * (gesvdj). */
                        const int m = n + 3 * lower;
                        static const char jobs[] = "ASON";
                        for (int ju = 0; ju < 4; ju++)
                            for (int jv = 0; jv < 4; jv++) {
                                if (jobs[ju] == 'O' && jobs[jv] == 'O')
                                    continue;
                                if (vec != (ju + jv) % 2)
                                    continue; /* half of the pairs per pass */
                                const int p = n;
                                const int uc = jobs[ju] == 'A' ? m : jobs[ju] == 'S' ? p : 0;
                                const int vr = jobs[jv] == 'A' ? n : jobs[jv] == 'S' ? p : 0;
                                trn_solver_eigen_desc s = {.fn = TRN_SOLVER_GESVD,
                                                           .type = t,
                                                           .jobu = jobs[ju],
                                                           .jobvt = jobs[jv],
                                                           .m = m,
                                                           .n = n,
                                                           .lda = m + pad,
                                                           .ldu = uc ? m + pad : 1,
                                                           .ldv = vr ? vr + pad : 1};
                                CASE("gesvd %c m=%d n=%d jobu=%c jobvt=%c pad=%d", type_ch[ti], m,
                                     n, jobs[ju], jobs[jv], pad);
                                eigen_case(s, uc, vr, vr ? n : 0);
                            }
                        for (int wide = 0; wide < 2; wide++)
                            for (int econ = 0; econ < 2; econ++) {
                                const int mj = wide ? n : m, nj = wide ? m : n;
                                const int p = mj < nj ? mj : nj;
                                const int uc = vec ? (econ ? p : mj) : 0;
                                const int vc = vec ? (econ ? p : nj) : 0;
                                trn_solver_eigen_desc s = {.fn = TRN_SOLVER_GESVDJ,
                                                           .type = t,
                                                           .vectors = vec,
                                                           .econ = econ,
                                                           .m = mj,
                                                           .n = nj,
                                                           .lda = mj + pad,
                                                           .ldu = mj + pad,
                                                           .ldv = nj + pad,
                                                           .tol = tol,
                                                           .max_sweeps = 30};
                                CASE("gesvdj %c m=%d n=%d econ=%d vectors=%d pad=%d", type_ch[ti],
                                     mj, nj, econ, vec, pad);
                                eigen_case(s, uc, vc ? nj : 0, vc);
                            }
                    }
}

/* syevj's blocked method starts at n = 64 (solver_jacobi.c): n = 65 (6
 * blocks of 11) and 70 (6 of 12), both padded inside the kernel. */
static void run_syevj_blocked(void) {
    static const int ns[] = {65, 70};
    for (int ti = 0; ti < 4; ti++)
        for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
            for (int pad = 0; pad < 2; pad++)
                for (int lower = 0; lower < 2; lower++)
                    for (int vec = 0; vec < 2; vec++) {
                        const trn_dtype t = types[ti];
                        const int n = ns[ni], ld = n + pad;
                        CASE("syevj %c n=%d lda=%d lower=%d vectors=%d", type_ch[ti], n, ld, lower,
                             vec);
                        const trn_solver_eigen_desc d =
                            syev_desc(TRN_SOLVER_SYEVJ, t, n, ld, lower, vec);
                        eigen_case(d, 0, 0, 0);
                    }
}

/* ---- the tests ----------------------------------------------------------------------- */

/* cmocka installs its own SIGSEGV handler for each test; ours names the
 * case, so it goes back in first. */
static void each_placement(void (*run)(void)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    memset(live, 0, sizeof(live));
    faults = 0;
    for (placement = 0; placement < 2; placement++)
        run();
    if (faults)
        fail_msg("%d case(s) touched memory outside their operands (listed above)", faults);
}

static void test_blas1(void **state) {
    (void)state;
    each_placement(run_blas1);
}
static void test_blas2(void **state) {
    (void)state;
    each_placement(run_blas2);
}
static void test_gemm(void **state) {
    (void)state;
    each_placement(run_gemm);
}
static void test_blas3(void **state) {
    (void)state;
    each_placement(run_blas3);
}
static void test_lapack_factor(void **state) {
    (void)state;
    each_placement(run_dense);
}
static void test_lapack_tiled(void **state) {
    (void)state;
    each_placement(run_dense_tiled);
}
static void test_lapack_eigen(void **state) {
    (void)state;
    each_placement(run_eigen);
}
static void test_syevj_blocked(void **state) {
    (void)state;
    each_placement(run_syevj_blocked);
}

int main(void) {
    openblas_set_num_threads(1); /* as in the daemon's workers */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blas1),         cmocka_unit_test(test_blas2),
        cmocka_unit_test(test_gemm),          cmocka_unit_test(test_blas3),
        cmocka_unit_test(test_lapack_factor), cmocka_unit_test(test_lapack_eigen),
        cmocka_unit_test(test_syevj_blocked), cmocka_unit_test(test_lapack_tiled),
    };
    return cmocka_run_group_tests_name("kernels stay inside their operands", tests,
                                       trn_test_install_checked_routines, NULL);
}
