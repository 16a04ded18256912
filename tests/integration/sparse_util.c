/*
 * sparse_util.c — test matrices and their formats for the trnsparse
 * integration tests (sparse_util.h). Written for clarity, not speed: the
 * format builders are the textbook definitions, independent of the daemon's
 * kernels.
 */
#include "sparse_util.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// clang-format off
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

double su_uniform(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    const uint64_t r = *s * 2685821657736338717ULL;
    return (double)(r >> 11) * 0x1p-52 - 1.0;
}

static int64_t below(uint64_t *s, int64_t n) { /* [0, n) */
    return n <= 0 ? 0 : (int64_t)((su_uniform(s) + 1.0) * 0.5 * (double)n) % n;
}

long double su_gamma(int dbl, long double k) {
    const long double u = dbl ? ldexpl(1.0L, -53) : ldexpl(1.0L, -24);
    return k * u / (1.0L - k * u);
}

void trip_make(trip *t, shape sh, int64_t m, int64_t n, double density, int dbl, uint64_t seed) {
    uint64_t s = seed | 1;
    int64_t *len = calloc((size_t)m + 1, sizeof(int64_t));
    int64_t *perm = malloc(((size_t)m + 1) * sizeof(int64_t));
    assert_non_null(len);
    assert_non_null(perm);
    for (int64_t i = 0; i < m; i++)
        perm[i] = i;
    for (int64_t i = m - 1; i > 0; i--) { /* Fisher-Yates */
        const int64_t j = below(&s, i + 1), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    for (int64_t i = 0; i < m; i++) {
        int64_t k = 0;
        switch (sh) {
        case SH_RANDOM:
        case SH_EMPTYROWS:
            k = (int64_t)(density * (double)n * (0.5 + (su_uniform(&s) + 1.0) * 0.5));
            if (sh == SH_EMPTYROWS && (i < 3 || i >= m - 3 || i % 3 == 0))
                k = 0;
            break;
        case SH_BANDED: k = 0; break; /* filled below */
        case SH_POWERLAW: k = n / (1 + perm[i]); break;
        case SH_DENSEROW: k = i == m / 2 ? n : (i % 17 == 5 ? 1 : 0); break;
        }
        len[i] = k > n ? n : k;
    }
    /* Positions: distinct columns per row, sorted. */
    size_t cap = 16;
    for (int64_t i = 0; i < m; i++)
        cap += (size_t)(sh == SH_BANDED ? 7 : len[i]);
    t->m = m;
    t->n = n;
    t->nnz = 0;
    t->r = malloc(cap * sizeof(int64_t));
    t->c = malloc(cap * sizeof(int64_t));
    t->v = malloc(cap * sizeof(double));
    unsigned char *mark = calloc((size_t)n + 1, 1);
    assert_true(t->r && t->c && t->v && mark);
    for (int64_t i = 0; i < m; i++) {
        int64_t got = 0;
        if (sh == SH_BANDED) {
            for (int64_t j = i - 3; j <= i + 3; j++)
                if (j >= 0 && j < n) {
                    mark[j] = 1;
                    got++;
                }
        } else if (len[i] == n) {
            memset(mark, 1, (size_t)n);
            got = n;
        } else {
            while (got < len[i]) {
                const int64_t j = below(&s, n);
                if (!mark[j]) {
                    mark[j] = 1;
                    got++;
                }
            }
        }
        for (int64_t j = 0; j < n && got > 0; j++)
            if (mark[j]) {
                mark[j] = 0;
                got--;
                t->r[t->nnz] = i;
                t->c[t->nnz] = j;
                double v = su_uniform(&s);
                if (v == 0.0)
                    v = 0.5;
                t->v[t->nnz] = dbl ? v : (double)(float)v;
                t->nnz++;
            }
    }
    free(mark);
    free(perm);
    free(len);
}

void trip_free(trip *t) {
    free(t->r);
    free(t->c);
    free(t->v);
    memset(t, 0, sizeof(*t));
}

int64_t su_idx(const void *a, size_t k, int idx64) {
    return idx64 ? ((const int64_t *)a)[k] : ((const int32_t *)a)[k];
}

void su_set_idx(void *a, size_t k, int64_t v, int idx64) {
    if (idx64)
        ((int64_t *)a)[k] = v;
    else
        ((int32_t *)a)[k] = (int32_t)v;
}

static void *zalloc(size_t n, size_t es) {
    void *p = calloc(n ? n : 1, es);
    assert_non_null(p);
    return p;
}

void sp_build(sp_host *s, const trip *t, trnsparseFormat_t f, int idx64, int base, int dbl,
              int64_t rb, int64_t cb, trnsparseOrder_t order, uint64_t seed) {
    memset(s, 0, sizeof(*s));
    s->format = f;
    s->idx64 = idx64;
    s->base = base;
    s->dbl = dbl;
    s->rb = s->cb = 1;
    s->order = TRNSPARSE_ORDER_COL;
    const size_t isz = idx64 ? 8 : 4, vsz = dbl ? 8 : 4;
    if (f == TRNSPARSE_FORMAT_CSR || f == TRNSPARSE_FORMAT_COO) {
        s->rows = t->m;
        s->cols = t->n;
        s->nnz = t->nnz;
        s->idx_n = s->val_n = (size_t)t->nnz;
        s->idx = zalloc(s->idx_n, isz);
        s->val = zalloc(s->val_n, vsz);
        if (f == TRNSPARSE_FORMAT_CSR) {
            s->off_n = (size_t)t->m + 1;
            s->off = zalloc(s->off_n, isz);
            for (int64_t k = 0; k < t->nnz; k++)
                su_set_idx(s->off, (size_t)t->r[k] + 1,
                           su_idx(s->off, (size_t)t->r[k] + 1, idx64) + 1, idx64);
            for (int64_t i = 0; i < t->m; i++)
                su_set_idx(s->off, (size_t)i + 1,
                           su_idx(s->off, (size_t)i + 1, idx64) + su_idx(s->off, (size_t)i, idx64),
                           idx64);
            for (size_t i = 0; i < s->off_n; i++)
                su_set_idx(s->off, i, su_idx(s->off, i, idx64) + base, idx64);
            for (int64_t k = 0; k < t->nnz; k++) {
                su_set_idx(s->idx, (size_t)k, t->c[k] + base, idx64);
                su_put(s->val, (size_t)k, t->v[k], dbl);
            }
        } else {
            s->rowind = zalloc(s->idx_n, isz);
            size_t *p = malloc(((size_t)t->nnz + 1) * sizeof(size_t));
            assert_non_null(p);
            uint64_t st = seed | 1;
            for (size_t k = 0; k < (size_t)t->nnz; k++)
                p[k] = k;
            for (int64_t k = t->nnz - 1; k > 0; k--) {
                const int64_t j = below(&st, k + 1);
                const size_t x = p[k];
                p[k] = p[j];
                p[j] = x;
            }
            for (int64_t k = 0; k < t->nnz; k++) {
                su_set_idx(s->rowind, (size_t)k, t->r[p[k]] + base, idx64);
                su_set_idx(s->idx, (size_t)k, t->c[p[k]] + base, idx64);
                su_put(s->val, (size_t)k, t->v[p[k]], dbl);
            }
            free(p);
        }
    } else if (f == TRNSPARSE_FORMAT_CSC) {
        s->rows = t->m;
        s->cols = t->n;
        s->nnz = t->nnz;
        s->off_n = (size_t)t->n + 1;
        s->idx_n = s->val_n = (size_t)t->nnz;
        s->off = zalloc(s->off_n, isz);
        s->idx = zalloc(s->idx_n, isz);
        s->val = zalloc(s->val_n, vsz);
        int64_t *cnt = calloc((size_t)t->n + 1, sizeof(int64_t));
        assert_non_null(cnt);
        for (int64_t k = 0; k < t->nnz; k++)
            cnt[t->c[k] + 1]++;
        for (int64_t j = 0; j < t->n; j++)
            cnt[j + 1] += cnt[j];
        for (int64_t j = 0; j <= t->n; j++)
            su_set_idx(s->off, (size_t)j, cnt[j] + base, idx64);
        for (int64_t k = 0; k < t->nnz; k++) { /* rows stay sorted within a column */
            const int64_t at = cnt[t->c[k]]++;
            su_set_idx(s->idx, (size_t)at, t->r[k] + base, idx64);
            su_put(s->val, (size_t)at, t->v[k], dbl);
        }
        free(cnt);
    } else { /* BSR */
        assert_int_equal(t->m % rb, 0);
        assert_int_equal(t->n % cb, 0);
        const int64_t mb = t->m / rb, nb = t->n / cb;
        s->rb = rb;
        s->cb = cb;
        s->order = order;
        s->rows = mb;
        s->cols = nb;
        /* Which blocks hold entries, in block-row order. */
        int64_t *slot = malloc((size_t)(mb * nb) * sizeof(int64_t));
        assert_non_null(slot);
        for (int64_t i = 0; i < mb * nb; i++)
            slot[i] = -1;
        for (int64_t k = 0; k < t->nnz; k++)
            slot[(t->r[k] / rb) * nb + t->c[k] / cb] = 0;
        s->off_n = (size_t)mb + 1;
        s->off = zalloc(s->off_n, isz);
        int64_t nblk = 0;
        for (int64_t I = 0; I < mb; I++) {
            su_set_idx(s->off, (size_t)I, nblk + base, idx64);
            for (int64_t J = 0; J < nb; J++)
                if (slot[I * nb + J] >= 0)
                    slot[I * nb + J] = nblk++;
        }
        su_set_idx(s->off, (size_t)mb, nblk + base, idx64);
        s->nnz = nblk;
        s->idx_n = (size_t)nblk;
        s->val_n = (size_t)(nblk * rb * cb);
        s->idx = zalloc(s->idx_n, isz);
        s->val = zalloc(s->val_n, vsz);
        for (int64_t I = 0; I < mb; I++)
            for (int64_t J = 0; J < nb; J++)
                if (slot[I * nb + J] >= 0)
                    su_set_idx(s->idx, (size_t)slot[I * nb + J], J + base, idx64);
        for (int64_t k = 0; k < t->nnz; k++) {
            const int64_t b = slot[(t->r[k] / rb) * nb + t->c[k] / cb];
            const int64_t i = t->r[k] % rb, j = t->c[k] % cb;
            const int64_t at =
                b * rb * cb + (order == TRNSPARSE_ORDER_ROW ? i * cb + j : i + j * rb);
            su_put(s->val, (size_t)at, t->v[k], dbl);
        }
        free(slot);
    }
}

void *su_dev_put(const void *host, size_t bytes) {
    if (bytes == 0)
        return NULL;
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

void *su_dev_get(const void *dev, size_t bytes) {
    void *h = malloc(bytes ? bytes : 1);
    assert_non_null(h);
    if (bytes)
        assert_int_equal(trnsciMemcpy(h, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return h;
}

void sp_upload(sp_host *s) {
    const size_t isz = s->idx64 ? 8 : 4, vsz = s->dbl ? 8 : 4;
    const trnsparseIndexType_t it = s->idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const trnsparseIndexBase_t b = s->base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    const trnsciDataType vt = s->dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    s->d_off = s->off ? su_dev_put(s->off, s->off_n * isz) : NULL;
    s->d_idx = su_dev_put(s->idx, s->idx_n * isz);
    s->d_rowind = s->rowind ? su_dev_put(s->rowind, s->idx_n * isz) : NULL;
    s->d_val = su_dev_put(s->val, s->val_n * vsz);
    trnsparseStatus_t st = TRNSPARSE_STATUS_INTERNAL_ERROR;
    switch (s->format) {
    case TRNSPARSE_FORMAT_CSR:
        st = trnsparseCreateCsr(&s->descr, s->rows, s->cols, s->nnz, s->d_off, s->d_idx, s->d_val,
                                it, it, b, vt);
        break;
    case TRNSPARSE_FORMAT_CSC:
        st = trnsparseCreateCsc(&s->descr, s->rows, s->cols, s->nnz, s->d_off, s->d_idx, s->d_val,
                                it, it, b, vt);
        break;
    case TRNSPARSE_FORMAT_COO:
        st = trnsparseCreateCoo(&s->descr, s->rows, s->cols, s->nnz, s->d_rowind, s->d_idx,
                                s->d_val, it, b, vt);
        break;
    case TRNSPARSE_FORMAT_BSR:
        st = trnsparseCreateBsr(&s->descr, s->rows, s->cols, s->nnz, s->rb, s->cb, s->d_off,
                                s->d_idx, s->d_val, it, it, b, vt, s->order);
        break;
    default: break;
    }
    assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
}

void sp_free(sp_host *s) {
    if (s->descr)
        trnsparseDestroySpMat(s->descr);
    void *dev[] = {s->d_off, s->d_idx, s->d_rowind, s->d_val};
    for (int i = 0; i < 4; i++)
        if (dev[i])
            assert_int_equal(trnsciFree(dev[i]), trnsciSuccess);
    free(s->off);
    free(s->idx);
    free(s->rowind);
    free(s->val);
    memset(s, 0, sizeof(*s));
}

/* ---- test plumbing ------------------------------------------------------------------ */

void su_expect_message(const char *needle) {
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, needle))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, needle);
}

uint64_t su_shards_run(const char *addr) {
    trnsciWorkerInfo w[64];
    int count = 0;
    assert_int_equal(trnsciDaemonGetWorkers(addr, w, 64, &count), trnsciSuccess);
    uint64_t s = 0;
    for (int i = 0; i < count && i < 64; i++)
        s += w[i].usage.shards;
    return s;
}

void su_write_file(const char *dir, const char *name, const void *p, size_t bytes) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (bytes)
        assert_int_equal(fwrite(p, 1, bytes, f), bytes);
    assert_int_equal(fclose(f), 0);
}

void *su_read_file(const char *dir, const char *name, size_t *bytes) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc((size_t)n + 8);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *bytes = (size_t)n;
    return p;
}

void su_run_ref(const char *python, const char *script, const char *cmd, const char *dir) {
    const char *argv[] = {python, script, cmd, dir, NULL};
    char out[512];
    snprintf(out, sizeof(out), "%s/ref.out", dir);
    if (th_run(argv, out) != 0) {
        char text[2048] = "";
        FILE *f = fopen(out, "r");
        if (f) {
            text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
            fclose(f);
        }
        fail_msg("%s %s failed: %s", script, cmd, text);
    }
}

/* The daemons of the running test program, for su_check_idle (a cmocka
 * teardown only gets the case's state). */
static th_daemon *started[2];

int su_start_daemons(th_daemon *one, th_daemon *two) {
    const char *const args1[] = {"--cores", two ? "1" : "2", NULL};
    const char *const args2[] = {"--cores", "2", NULL};
    if (th_daemon_start(one, args1) != 0) {
        fprintf(stderr, "could not start trnscid --cores %s\n", args1[1]);
        return -1;
    }
    if (two && th_daemon_start(two, args2) != 0) {
        fprintf(stderr, "could not start trnscid --cores 2 (these tests need 2 CPUs)\n");
        th_daemon_stop(one);
        return -1;
    }
    started[0] = one;
    started[1] = two;
    return 0;
}

void *su_spsm_shards(trnsparseHandle_t h, const char *addr, trnsparseOperation_t opa,
                     trnsparseOperation_t opb, const void *alpha, trnsparseSpMatDescr_t a,
                     trnsparseDnMatDescr_t mb, trnsparseDnMatDescr_t mc, trnsciDataType type,
                     const void *d_c, size_t bytes, uint64_t min_shards) {
    trnsparseSpSMDescr_t d;
    assert_int_equal(trnsparseSpSM_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpSM_analysis(h, opa, opb, alpha, a, mb, mc, type,
                                            TRNSPARSE_SPSM_ALG_DEFAULT, d, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const uint64_t before = su_shards_run(addr);
    assert_int_equal(
        trnsparseSpSM_solve(h, opa, opb, alpha, a, mb, mc, type, TRNSPARSE_SPSM_ALG_DEFAULT, d),
        TRNSPARSE_STATUS_SUCCESS);
    void *out = su_dev_get(d_c, bytes);
    if (su_shards_run(addr) - before < min_shards)
        fail_msg("the SpSM ran as fewer than %llu shards", (unsigned long long)min_shards);
    trnsparseSpSM_destroyDescr(d);
    trnsparseDestroyDnMat(mb);
    trnsparseDestroyDnMat(mc);
    return out;
}

void su_same_on_cores(void *(*run)(const char *addr, uint64_t min_shards, size_t *bytes),
                      const char *one, const char *two, const char *what) {
    size_t b1, b2;
    void *r1 = run(one, 1, &b1), *r2 = run(two, 2, &b2);
    assert_int_equal(b1, b2);
    if (memcmp(r1, r2, b1) != 0)
        fail_msg("%s: 2 cores differ from 1 core", what);
    free(r1);
    free(r2);
}

int su_main_start(char *dir, size_t size, const char *tmpl, th_daemon *one, th_daemon *two,
                  su_transport *local, su_transport *grpc) {
    snprintf(dir, size, "%s", tmpl);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return -1;
    }
    if (su_start_daemons(one, two) != 0)
        return -1;
    const th_daemon *serve = two ? two : one;
    local->addr = serve->unix_addr;
    grpc->addr = serve->tcp_addr;
    return 0;
}

int su_main_end(int failed, const char *dir) {
    if (started[1]) {
        failed += th_daemon_stop_checked(started[0], "trnscid --cores 1");
        failed += th_daemon_stop_checked(started[1], "trnscid --cores 2");
    } else {
        failed += th_daemon_stop_checked(started[0], "trnscid --cores 2");
    }
    th_remove_dir(dir);
    return failed;
}

int su_check_idle(void **state) {
    (void)state;
    trnsciDeviceReset();
    int rc = 0;
    for (int i = 0; i < 2; i++)
        if (started[i] && th_wait_daemon_idle(started[i]->unix_addr, 10000) != 0)
            rc = -1;
    return rc;
}
