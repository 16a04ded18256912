/*
 * sparse_util.h — support for the trnsparse integration tests
 * (test_sparse*.c): test matrices as sorted triplets (random, banded,
 * power-law rows, empty rows, one dense row), their CSR/CSC/COO/BSR arrays
 * in either index type and base, device copies with descriptors, and dense
 * helpers. Values are generated in double and, for float tests, rounded to
 * float once, so every reference sees exactly the uploaded numbers.
 */
#ifndef TRN_TESTS_SPARSE_UTIL_H
#define TRN_TESTS_SPARSE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"
#include "trnsci/trnsparse.h"

/* A sparse matrix as triplets sorted by (row, column), positions unique. */
typedef struct trip {
    int64_t m, n, nnz;
    int64_t *r, *c;
    double *v;
} trip;

typedef enum shape {
    SH_RANDOM,    /* each row about density * n entries */
    SH_BANDED,    /* |i - j| <= 3 */
    SH_POWERLAW,  /* row lengths n / (1 + rank), rows permuted */
    SH_EMPTYROWS, /* random, with empty rows at both ends and every third row */
    SH_DENSEROW,  /* one full row, a few scattered entries */
} shape;

/* A fresh matrix of shape sh; values in [-1, 1), rounded to float when
 * !dbl. */
void trip_make(trip *t, shape sh, int64_t m, int64_t n, double density, int dbl, uint64_t seed);
void trip_free(trip *t);

/* A uniform number in [-1, 1) from the tests' xorshift generator. */
double su_uniform(uint64_t *state);

/* A sparse matrix in one format: host arrays, device copies, descriptor. */
typedef struct sp_host {
    trnsparseFormat_t format;
    int64_t rows, cols, nnz; /* as the descriptor has them (BSR: blocks) */
    int64_t rb, cb;
    trnsparseOrder_t order;
    int idx64, base, dbl;
    void *off, *idx, *rowind, *val; /* host */
    size_t off_n, idx_n, val_n;     /* elements */
    void *d_off, *d_idx, *d_rowind, *d_val;
    trnsparseSpMatDescr_t descr;
} sp_host;

/* Builds format f of t (BSR: rb x cb blocks in `order`, t's size a multiple
 * of them); COO entries are shuffled with `seed` (CSR/CSC keep sorted
 * indices). */
void sp_build(sp_host *s, const trip *t, trnsparseFormat_t f, int idx64, int base, int dbl,
              int64_t rb, int64_t cb, trnsparseOrder_t order, uint64_t seed);
/* Copies the arrays to the device and makes the descriptor. */
void sp_upload(sp_host *s);
void sp_free(sp_host *s);

/* Index element k of an array of either type. */
int64_t su_idx(const void *a, size_t k, int idx64);
void su_set_idx(void *a, size_t k, int64_t v, int idx64);

/* Device memory holding bytes copied from host (NULL for 0 bytes). */
void *su_dev_put(const void *host, size_t bytes);
/* The bytes at dev (after the queued work) in a fresh host buffer. */
void *su_dev_get(const void *dev, size_t bytes);

/* Element i of a float or double array as long double, and back. */
static inline long double su_get(const void *a, size_t i, int dbl) {
    return dbl ? ((const double *)a)[i] : ((const float *)a)[i];
}
static inline void su_put(void *a, size_t i, long double v, int dbl) {
    if (dbl)
        ((double *)a)[i] = (double)v;
    else
        ((float *)a)[i] = (float)v;
}

/* ---- test plumbing the sparse test programs share ------------------------------ */

/* A transport a test runs over (the state of its cmocka entry). */
typedef struct su_transport {
    const char *name;
    const char *addr;
} su_transport;

static inline const char *su_addr(void **state) {
    return ((const su_transport *)*state)->addr;
}

/* Fails the test unless the last error message contains needle. */
void su_expect_message(const char *needle);
/* Shards every worker of the daemon at addr has run so far. */
uint64_t su_shards_run(const char *addr);
/* dir/name: written from / read into memory (*bytes set to the size). */
void su_write_file(const char *dir, const char *name, const void *p, size_t bytes);
void *su_read_file(const char *dir, const char *name, size_t *bytes);
/* Runs `python script cmd dir` and fails the test with its output if it
 * does not exit 0. */
void su_run_ref(const char *python, const char *script, const char *cmd, const char *dir);
/* Starts a 1-core daemon and a 2-core one (two may be NULL: only `one`,
 * with 2 cores) and remembers both for su_check_idle. 0, or -1 after saying
 * why on stderr. */
int su_start_daemons(th_daemon *one, th_daemon *two);
/* SpSM of the sparse a on B into C (mb, mc; both destroyed here) on the
 * daemon at addr: analysis, then the solve, which must run as at least
 * min_shards shards. Returns C's bytes, read from d_c. */
void *su_spsm_shards(trnsparseHandle_t h, const char *addr, trnsparseOperation_t opa,
                     trnsparseOperation_t opb, const void *alpha, trnsparseSpMatDescr_t a,
                     trnsparseDnMatDescr_t mb, trnsparseDnMatDescr_t mc, trnsciDataType type,
                     const void *d_c, size_t bytes, uint64_t min_shards);
/* Runs run on the 1-core daemon (at least 1 shard) and on the 2-core one
 * (at least 2) and fails unless the results agree byte for byte; what
 * names the routine in the message. */
void su_same_on_cores(void *(*run)(const char *addr, uint64_t min_shards, size_t *bytes),
                      const char *one, const char *two, const char *what);
/* The start of a test program's main: a fresh directory from tmpl (ending
 * in XXXXXX) into dir (size bytes), the daemons as su_start_daemons starts
 * them, and the local and gRPC transports aimed at the 2-core one. 0, or -1
 * after saying why on stderr. */
int su_main_start(char *dir, size_t size, const char *tmpl, th_daemon *one, th_daemon *two,
                  su_transport *local, su_transport *grpc);
/* The end of main: stops the daemons su_main_start started (each must exit
 * cleanly) and removes dir. failed plus the daemons that did not. */
int su_main_end(int failed, const char *dir);
/* cmocka teardown: ends the client's session and waits until each daemon
 * su_start_daemons started holds nothing. 0, or -1. */
int su_check_idle(void **state);

/* A cmocka case run once per transport (state = that transport) and one run
 * once (no state), both torn down by su_check_idle. */
#define SU_ON(fn, t)                                                                               \
    { #fn "/" #t, fn, NULL, su_check_idle, &t##_t }
#define SU_ONCE(fn)                                                                                \
    { #fn, fn, NULL, su_check_idle, NULL }

/* The unit roundoff of the type and gamma_k = k u / (1 - k u) (Higham). */
long double su_gamma(int dbl, long double k);

#endif
