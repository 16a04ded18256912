/*
 * test_token_store.c — daemon/token_store.h: the published tokens table and
 * its reload, without a daemon. Built from the few sources it needs (no
 * gRPC, no frontends), so that make test-tsan runs it under
 * ThreadSanitizer.
 *
 * Rules checked:
 *  - reload: a token with the same name and secret stays the same object
 *    (its sessions and usage carry over) and takes the new limits; a removed
 *    token, or one whose secret changed, is revoked, no longer
 *    authenticates, and stays valid for whoever holds a reference; an added
 *    one authenticates; the counts of added, removed and changed tokens;
 *  - a file that fails a check (a syntax error, mode 0640, no token left, a
 *    symlink) changes nothing, and the error names the file (and the line);
 *  - without a tokens file nothing is required and nothing authenticates;
 *  - threads authenticating, taking and dropping references and reading
 *    limits while the table is swapped 200 times always find the token every
 *    table has, with one table's limits or the other's (and ThreadSanitizer
 *    sees no race).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/log.h"
#include "daemon/token.h"
#include "daemon/token_store.h"

#define S1 "0123456789abcdef"
#define S2 "ZYXWVUTSRQPONMLK~+/=-._"

#define S3 "carol-secret-0123456789"
#define S4 "dave-secret-0123456789+/"

/* Writes text to path with the given mode. */
static void write_tokens(const char *path, const char *text, mode_t mode) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, mode), 0);
}

/* The token "Bearer SECRET" authenticates as in s, with a reference the
 * caller drops. */
static trn_token *auth_as(trn_token_store *s, const char *secret) {
    char v[200];
    const int n = snprintf(v, sizeof(v), "Bearer %s", secret);
    return trn_token_store_authenticate(s, v, (size_t)n);
}

static void test_reload(void **state) {
    (void)state;
    char path[] = "/tmp/trnsci-tokens-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_tokens(path, "alice " S1 " sessions=2 bytes=1M\nbob " S2 "\ncarol " S3 " queued-ops=4\n",
                 0600);
    trn_token_store st;
    char err[512];
    assert_int_equal(trn_token_store_init(&st, path, err, sizeof(err)), 0);
    assert_true(trn_token_store_required(&st));
    trn_token *alice = auth_as(&st, S1), *bob = auth_as(&st, S2), *carol = auth_as(&st, S3);
    assert_non_null(alice);
    assert_non_null(bob);
    assert_non_null(carol);
    assert_string_equal(alice->name, "alice");

    /* bob removed, alice's limits lowered, carol's secret changed, dave
     * added. */
    write_tokens(
        path, "alice " S1 " sessions=1 bytes=4K\ncarol " S4 " queued-ops=4\ndave " S2 "x\n", 0600);
    trn_tokens_reload r;
    assert_int_equal(trn_token_store_reload(&st, &r, err, sizeof(err)), 0);
    assert_int_equal(r.total, 3);
    assert_int_equal(r.added, 2);   /* carol's new secret, dave */
    assert_int_equal(r.removed, 2); /* bob, carol's old secret */
    assert_int_equal(r.changed, 1); /* alice */
    trn_token *a2 = auth_as(&st, S1);
    assert_ptr_equal(a2, alice); /* the same token: its sessions go on */
    const trn_token_limits lim = trn_token_get_limits(alice);
    assert_int_equal(lim.sessions, 1);
    assert_int_equal(lim.bytes, 4096);
    assert_false(atomic_load(&alice->revoked));
    assert_null(auth_as(&st, S2)); /* bob */
    assert_true(atomic_load(&bob->revoked));
    assert_string_equal(bob->name, "bob"); /* still valid for whoever holds it */
    assert_null(auth_as(&st, S3));         /* carol's old secret */
    assert_true(atomic_load(&carol->revoked));
    trn_token *c2 = auth_as(&st, S4);
    assert_non_null(c2);
    assert_ptr_not_equal(c2, carol);
    assert_string_equal(c2->name, "carol");
    trn_token *dave = auth_as(&st, S2 "x");
    assert_non_null(dave);
    assert_string_equal(dave->name, "dave");

    /* Broken files change nothing, and say where. */
    write_tokens(path, "alice " S1 "\nerin short\n", 0600);
    assert_int_equal(trn_token_store_reload(&st, &r, err, sizeof(err)), -1);
    char want[128];
    snprintf(want, sizeof(want), "%s:2: the secret must be", path);
    assert_non_null(strstr(err, want));
    write_tokens(path, "alice " S1 "\n", 0640);
    assert_int_equal(trn_token_store_reload(&st, &r, err, sizeof(err)), -1);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "chmod 600"));
    write_tokens(path, "# no tokens left\n", 0600);
    assert_int_equal(trn_token_store_reload(&st, &r, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "lists no token"));
    char link[64];
    snprintf(link, sizeof(link), "%s.real", path);
    write_tokens(link, "alice " S1 "\n", 0600);
    unlink(path);
    assert_int_equal(symlink(link, path), 0);
    assert_int_equal(trn_token_store_reload(&st, &r, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "a symbolic link"));
    assert_int_equal(trn_token_store_count(&st), 3);
    trn_token *still = auth_as(&st, S2 "x");
    assert_ptr_equal(still, dave);
    assert_int_equal(trn_token_get_limits(alice).bytes, 4096);

    for (trn_token **tk = (trn_token *[]){alice, bob, carol, a2, c2, dave, still, NULL}; *tk; tk++)
        trn_token_unref(*tk);
    trn_token_store_destroy(&st);
    unlink(path);
    unlink(link);

    /* No tokens file: nothing required, nothing authenticates. */
    assert_int_equal(trn_token_store_init(&st, NULL, err, sizeof(err)), 0);
    assert_false(trn_token_store_required(&st));
    assert_null(auth_as(&st, S1));
    trn_token_store_destroy(&st);
}

/* Threads authenticate with a token every table has (alice) and with one
 * only every other table has (bob), taking and dropping references and
 * reading limits, while the table is swapped under them. */
typedef struct race {
    trn_token_store *st;
    atomic_int stop;
    atomic_long seen_alice, wrong;
} race;

static void *race_reader(void *arg) {
    race *r = arg;
    while (!atomic_load(&r->stop)) {
        trn_token *a = auth_as(r->st, S1);
        if (a) {
            const trn_token_limits lim = trn_token_get_limits(a);
            if (lim.sessions != 1 && lim.sessions != 2) /* one file's or the other's */
                atomic_fetch_add(&r->wrong, 1);
            atomic_fetch_add(&r->seen_alice, 1);
            trn_token_unref(a);
        } else {
            atomic_fetch_add(&r->wrong, 1); /* alice is in every table */
        }
        trn_token *b = auth_as(r->st, S2);
        if (b) {
            if (strcmp(b->name, "bob") != 0)
                atomic_fetch_add(&r->wrong, 1);
            trn_token_unref(b);
        }
    }
    return NULL;
}

static void test_reload_concurrent(void **state) {
    (void)state;
    char path[] = "/tmp/trnsci-tokens-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    static const char *const files[2] = {"alice " S1 " sessions=1\n",
                                         "alice " S1 " sessions=2\nbob " S2 "\n"};
    write_tokens(path, files[0], 0600);
    trn_token_store st;
    char err[512];
    assert_int_equal(trn_token_store_init(&st, path, err, sizeof(err)), 0);
    trn_log_set_level(TRN_LOG_ERROR); /* 200 reloads' worth of change lines */
    race r = {.st = &st};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, race_reader, &r), 0);
    for (int i = 1; i <= 200; i++) {
        write_tokens(path, files[i % 2], 0600);
        trn_tokens_reload rr;
        assert_int_equal(trn_token_store_reload(&st, &rr, err, sizeof(err)), 0);
    }
    atomic_store(&r.stop, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    trn_log_set_level(TRN_LOG_INFO);
    assert_int_equal(atomic_load(&r.wrong), 0);
    assert_true(atomic_load(&r.seen_alice) > 0);
    trn_token_store_destroy(&st);
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reload),
        cmocka_unit_test(test_reload_concurrent),
    };
    return cmocka_run_group_tests_name("token_store", tests, NULL, NULL);
}
