/*
 * validate_fixture.c — the validator unit tests' shared fixture
 * (validate_fixture.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/log.h"
#include "validate_fixture.h"

static int fd_unused;

int vf_setup(void **state) {
    fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->be = trn_backend_cpu_create();
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = 1, .ncopy = 0};
    f->sched = trn_sched_create(f->be, &sc, err, sizeof(err));
    assert_non_null(f->sched);
    f->cfg.max_session_bytes = 1u << 24;
    f->cfg.max_streams = 4;
    f->cfg.lease_ms = 30000;
    f->cfg.ncores = 1;
    f->cfg.log_level = TRN_LOG_WARN;
    trn_session_table_init(&f->table, f->sched, &f->cfg);
    trn_wire_code code;
    f->s1 = trn_session_open(&f->table, "validate-a", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL,
                             0, &code, err, sizeof(err));
    f->s2 = trn_session_open(&f->table, "validate-b", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL,
                             0, &code, err, sizeof(err));
    assert_non_null(f->s1);
    assert_non_null(f->s2);
    *state = f;
    return 0;
}

int vf_teardown(void **state) {
    fx *f = *state;
    trn_session_close(f->s1, "done");
    trn_session_unref(f->s1);
    trn_session_close(f->s2, "done");
    trn_session_unref(f->s2);
    assert_int_equal(atomic_load(&f->table.bytes_held), 0);
    trn_sched_shutdown(f->sched);
    trn_session_table_destroy(&f->table);
    trn_sched_destroy(f->sched);
    f->be->destroy(f->be);
    free(f);
    return 0;
}

uint64_t vf_alloc(trn_session *s, uint64_t bytes) {
    uint64_t id = 0;
    char err[256] = "";
    if (trn_session_alloc(s, bytes, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)) != TRN_WIRE_OK)
        fail_msg("alloc %llu: %s", (unsigned long long)bytes, err);
    return id;
}

void vf_expect_ok(fx *f, trn_session *s, const Trnsci__V1__Op *op, int nrefs) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->err[0] = '\0';
    const trn_wire_code rc = trn_validate_op(s, op, &f->desc, &f->refs, f->err, sizeof(f->err));
    if (rc != TRN_WIRE_OK)
        fail_msg("expected OK, got %d: %s", (int)rc, f->err);
    assert_int_equal(f->refs.n, nrefs);
    trn_op_refs_release(&f->refs);
}

void vf_expect_err(fx *f, trn_session *s, const Trnsci__V1__Op *op, trn_wire_code code,
                   const char *needle) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->err[0] = '\0';
    const trn_wire_code rc = trn_validate_op(s, op, &f->desc, &f->refs, f->err, sizeof(f->err));
    if (rc != code)
        fail_msg("expected %d (\"%s\"), got %d: %s", (int)code, needle, (int)rc, f->err);
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
    assert_int_equal(f->refs.n, 0);
}
