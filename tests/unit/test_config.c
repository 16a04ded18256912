/*
 * test_config.c — daemon/config.h: trnscid's command-line parsing, the config
 * file (config_file.h) and reload (config_reload.h).
 *
 * Rules checked:
 *  - trn_config_parse_bytes: a decimal count with an optional binary suffix
 *    K/M/G/T (2^10/2^20/2^30/2^40); anything else (sign, unknown suffix,
 *    trailing text, empty, no digits) and any value that does not fit in 64
 *    bits after scaling is refused;
 *  - trn_config_parse_cores: "N" means the first N CPUs this process may run
 *    on (so 0 and more than available are refused); a list "a,b-c" names CPUs
 *    explicitly and each must be available and listed once;
 *  - trn_config_parse: defaults as --help documents them (16G quota, 256
 *    streams, 30000 ms lease, every allowed core, the default local socket);
 *    --listen is repeatable (at most TRN_CONFIG_MAX_LISTEN) and replaces the
 *    default; unknown flags, positional arguments and out-of-range values are
 *    TRN_CONFIG_ERROR with a message naming them; --help/--version are
 *    TRN_CONFIG_EXIT_OK. trn_config_free is called after every parse (the
 *    ASan build checks nothing leaks, whatever the result).
 *  - the config file: every key sets what its flag sets, every flag but
 *    config/help/version is a key, flags override the file (--listen
 *    replaces the file's addresses), and unknown keys, bad values, bad
 *    syntax and unknown sections are errors starting "file:line: ";
 *  - trn_config_reload: changed live keys are copied (and a key removed from
 *    the file returns to its default), others are kept, and reloading the
 *    same configuration again changes nothing.
 * CPU expectations come from this process's own affinity mask.
 *
 * test_parse_bytes_space_then_sign is a regression test: " -1" used to parse
 * as 2^64 - 1 and silently remove the quota.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
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

#include "daemon/config.h"
#include "daemon/config_reload.h"

/* ---- trn_config_parse_bytes ------------------------------------------------ */

static void expect_bytes(const char *s, uint64_t want) {
    uint64_t v = 0xdeadbeef;
    if (trn_config_parse_bytes(s, &v) != 0)
        fail_msg("parse_bytes(\"%s\") refused, expected %llu", s, (unsigned long long)want);
    if (v != want)
        fail_msg("parse_bytes(\"%s\") = %llu, expected %llu", s, (unsigned long long)v,
                 (unsigned long long)want);
}

static void expect_bytes_refused(const char *s) {
    uint64_t v = 12345;
    if (trn_config_parse_bytes(s, &v) != -1)
        fail_msg("parse_bytes(\"%s\") accepted (%llu), expected -1", s, (unsigned long long)v);
}

/* Rule: binary multiples, exact. */
static void test_parse_bytes_valid(void **state) {
    (void)state;
    expect_bytes("0", 0);
    expect_bytes("123", 123);
    expect_bytes("64K", 65536ULL);
    expect_bytes("512M", 536870912ULL);
    expect_bytes("8G", 8589934592ULL);
    expect_bytes("1T", 1099511627776ULL);
    /* Largest plain value, and the largest T multiple: (2^24 - 1) * 2^40. */
    expect_bytes("18446744073709551615", UINT64_MAX);
    expect_bytes("16777215T", 18446742974197923840ULL);
}

/* Rule: signs, unknown suffixes, junk and values beyond 2^64 - 1 are refused. */
static void test_parse_bytes_invalid(void **state) {
    (void)state;
    expect_bytes_refused("");
    expect_bytes_refused("-1");
    expect_bytes_refused("-0");
    expect_bytes_refused("12X");
    expect_bytes_refused("1KB");
    expect_bytes_refused("1 G");
    expect_bytes_refused("M");
    expect_bytes_refused("x1");
    expect_bytes_refused("99999999999999999999"); /* > 2^64 - 1 */
    expect_bytes_refused("18446744073709551616"); /* exactly 2^64 */
    expect_bytes_refused("17179869184T");         /* 2^34 * 2^40 = 2^74 */
    expect_bytes_refused("16777216T");            /* 2^24 * 2^40 = 2^64 */
    expect_bytes_refused("17592186044416M");      /* 2^44 * 2^20 = 2^64 */
}

/* Regression test.
 * Rule: a size is an unsigned decimal count; a sign is refused. "-1" is, but
 * " -1" and "\t-2" are accepted as 2^64 - 1 and 2^64 - 2: config.c checks
 * only s[0] for '-', and strtoull skips leading white space and negates. So
 * `--max-session-bytes " -1"` silently removes the quota. */
static void test_parse_bytes_space_then_sign(void **state) {
    (void)state;
    expect_bytes_refused(" -1");
    expect_bytes_refused("\t-2");
}

/* ---- trn_config_parse_cores ----------------------------------------------- */

typedef struct allowed_cpus {
    int cpu[TRN_CONFIG_MAX_CORES];
    int n;
    int unavailable; /* some CPU index < CPU_SETSIZE this process may not use */
} allowed_cpus;

static void get_allowed(allowed_cpus *a) {
    cpu_set_t set;
    CPU_ZERO(&set);
    assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
    a->n = 0;
    a->unavailable = -1;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &set)) {
            if (a->n < TRN_CONFIG_MAX_CORES)
                a->cpu[a->n++] = c;
        } else if (a->unavailable < 0) {
            a->unavailable = c;
        }
    }
    assert_true(a->n >= 1);
}

static void expect_cores_refused(const char *s) {
    int cpus[TRN_CONFIG_MAX_CORES];
    int n = -7;
    char err[256] = "";
    if (trn_config_parse_cores(s, cpus, &n, err, sizeof(err)) != -1)
        fail_msg("parse_cores(\"%s\") accepted (%d cores), expected -1", s, n);
    /* The message names the flag. */
    if (!strstr(err, "--cores"))
        fail_msg("parse_cores(\"%s\"): message \"%s\" does not name --cores", s, err);
}

/* Rule: "N" is the first N allowed CPUs, in order. */
static void test_parse_cores_count(void **state) {
    (void)state;
    allowed_cpus a;
    get_allowed(&a);
    int cpus[TRN_CONFIG_MAX_CORES];
    int n = 0;
    char err[256] = "";

    assert_int_equal(trn_config_parse_cores("1", cpus, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 1);
    assert_int_equal(cpus[0], a.cpu[0]);

    char s[32];
    snprintf(s, sizeof(s), "%d", a.n);
    assert_int_equal(trn_config_parse_cores(s, cpus, &n, err, sizeof(err)), 0);
    assert_int_equal(n, a.n);
    for (int i = 0; i < a.n; i++)
        assert_int_equal(cpus[i], a.cpu[i]);

    /* Zero cores, or one more than this process may use. */
    expect_cores_refused("0");
    snprintf(s, sizeof(s), "%d", a.n + 1);
    expect_cores_refused(s);
    expect_cores_refused("999999");
}

/* Rule: a list names CPUs explicitly; each must be available, once. */
static void test_parse_cores_list(void **state) {
    (void)state;
    allowed_cpus a;
    get_allowed(&a);
    int cpus[TRN_CONFIG_MAX_CORES];
    int n = 0;
    char err[256] = "", s[64];
    const int c0 = a.cpu[0];

    snprintf(s, sizeof(s), "%d-%d", c0, c0);
    assert_int_equal(trn_config_parse_cores(s, cpus, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 1);
    assert_int_equal(cpus[0], c0);

    if (a.n >= 2) {
        const int c1 = a.cpu[1];
        snprintf(s, sizeof(s), "%d,%d", c0, c1);
        assert_int_equal(trn_config_parse_cores(s, cpus, &n, err, sizeof(err)), 0);
        assert_int_equal(n, 2);
        assert_int_equal(cpus[0], c0);
        assert_int_equal(cpus[1], c1);
        if (c1 == c0 + 1) {
            snprintf(s, sizeof(s), "%d-%d", c0, c1);
            assert_int_equal(trn_config_parse_cores(s, cpus, &n, err, sizeof(err)), 0);
            assert_int_equal(n, 2);
            assert_int_equal(cpus[0], c0);
            assert_int_equal(cpus[1], c1);
        }
    }

    /* Listed twice (directly and through a range). */
    snprintf(s, sizeof(s), "%d,%d", c0, c0);
    expect_cores_refused(s);
    assert_int_equal(trn_config_parse_cores(s, cpus, &n, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "twice"));
    snprintf(s, sizeof(s), "%d-%d,%d", c0, c0, c0);
    expect_cores_refused(s);

    /* Malformed lists. */
    expect_cores_refused("x");
    expect_cores_refused("");
    expect_cores_refused("-1");
    expect_cores_refused("1-0");
    expect_cores_refused("0-");
    expect_cores_refused(",0");
    expect_cores_refused("0,,1");
    expect_cores_refused("0;1");

    /* CPUs this process may not run on. */
    if (a.unavailable >= 0) {
        snprintf(s, sizeof(s), "%d,%d", c0, a.unavailable);
        expect_cores_refused(s);
        assert_int_equal(trn_config_parse_cores(s, cpus, &n, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "not available"));
    }
    expect_cores_refused("0,999999");
}

/* ---- trn_config_parse ------------------------------------------------------- */

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Rule: with no flags, the documented defaults. */
static void test_parse_defaults(void **state) {
    (void)state;
    allowed_cpus a;
    get_allowed(&a);
    char *argv[] = {"trnscid", NULL};
    trn_config cfg;
    char err[256] = "", want[512];
    assert_int_equal(trn_config_parse(&cfg, 1, argv, err, sizeof(err)), TRN_CONFIG_OK);
    assert_int_equal(cfg.nlisten, 1);
    assert_string_equal(cfg.listen[0], trn_config_default_listen(want, sizeof(want)));
    assert_int_equal(cfg.ncores, a.n);
    for (int i = 0; i < a.n; i++)
        assert_int_equal(cfg.cpus[i], a.cpu[i]);
    assert_null(cfg.cache_dir);
    assert_int_equal(cfg.max_session_bytes, 16ULL << 30);
    assert_int_equal(cfg.max_streams, 256);
    assert_int_equal(cfg.lease_ms, 30000);
    assert_int_equal(cfg.log_level, TRN_LOG_INFO);
    assert_int_equal(cfg.plan_cache_bytes, 1ULL << 30);
    assert_int_equal(cfg.plan_effort, TRN_PLAN_MEASURE);
    assert_int_equal(cfg.convert_ahead, 1);
    assert_int_equal(cfg.run_ahead, TRN_RUN_AHEAD_AUTO);
    assert_int_equal(cfg.neuron_resident, 1);
    assert_int_equal(cfg.neuron_locality, 1);
    assert_int_equal(cfg.neuron_in_place, 1);
    assert_int_equal(cfg.neuron_core_copies, 1);
    trn_config_free(&cfg);
}

/* Rule: the default socket is unix:$XDG_RUNTIME_DIR/trnscid.sock, or
 * unix:/run/trnscid/trnscid.sock when XDG_RUNTIME_DIR is unset or empty. */
static void test_default_listen(void **state) {
    (void)state;
    const char *saved = getenv("XDG_RUNTIME_DIR");
    char *copy = saved ? strdup(saved) : NULL;
    char buf[512];

    assert_int_equal(setenv("XDG_RUNTIME_DIR", "/tmp/trnsci-xdg-test", 1), 0);
    assert_string_equal(trn_config_default_listen(buf, sizeof(buf)),
                        "unix:/tmp/trnsci-xdg-test/trnscid.sock");
    char *argv[] = {"trnscid", NULL};
    trn_config cfg;
    char err[256] = "";
    assert_int_equal(trn_config_parse(&cfg, 1, argv, err, sizeof(err)), TRN_CONFIG_OK);
    assert_int_equal(cfg.nlisten, 1);
    assert_string_equal(cfg.listen[0], "unix:/tmp/trnsci-xdg-test/trnscid.sock");
    trn_config_free(&cfg);

    assert_int_equal(setenv("XDG_RUNTIME_DIR", "", 1), 0);
    assert_string_equal(trn_config_default_listen(buf, sizeof(buf)),
                        "unix:/run/trnscid/trnscid.sock");
    assert_int_equal(unsetenv("XDG_RUNTIME_DIR"), 0);
    assert_string_equal(trn_config_default_listen(buf, sizeof(buf)),
                        "unix:/run/trnscid/trnscid.sock");

    if (copy)
        setenv("XDG_RUNTIME_DIR", copy, 1);
    free(copy);
}

/* Rule: every flag sets its field; --listen repeats in order and then no
 * default is added; --cache-dir given twice keeps the last. */
static void test_parse_all_flags(void **state) {
    (void)state;
    allowed_cpus a;
    get_allowed(&a);
    char cores[32];
    snprintf(cores, sizeof(cores), "%d-%d", a.cpu[0], a.cpu[0]);
    // clang-format off
    char *argv[] = {"trnscid",
                    "--listen", "unix:/tmp/a.sock",
                    "--listen=127.0.0.1:7450",
                    "--cores", cores,
                    "--cache-dir", "/tmp/first",
                    "--cache-dir", "/tmp/second",
                    "--max-session-bytes", "512M",
                    "--max-streams", "65536",
                    "--lease-ms", "100",
                    "--log-level", "debug",
                    "--plan-cache-bytes", "64M",
                    "--plan-effort", "patient",
                    "--convert-ahead", "off",
                    "--run-ahead", "off",
                    "--neuron-resident", "off",
                    "--neuron-locality", "off",
                    "--neuron-in-place", "off",
                    "--neuron-core-copies", "off"};
    // clang-format on
    trn_config cfg;
    char err[256] = "";
    assert_int_equal(trn_config_parse(&cfg, ARGC(argv), argv, err, sizeof(err)), TRN_CONFIG_OK);
    assert_int_equal(cfg.nlisten, 2);
    assert_string_equal(cfg.listen[0], "unix:/tmp/a.sock");
    assert_string_equal(cfg.listen[1], "127.0.0.1:7450");
    assert_int_equal(cfg.ncores, 1);
    assert_int_equal(cfg.cpus[0], a.cpu[0]);
    assert_string_equal(cfg.cache_dir, "/tmp/second");
    assert_int_equal(cfg.max_session_bytes, 536870912ULL);
    assert_int_equal(cfg.max_streams, 65536);
    assert_int_equal(cfg.lease_ms, 100);
    assert_int_equal(cfg.log_level, TRN_LOG_DEBUG);
    assert_int_equal(cfg.plan_cache_bytes, 64ULL << 20);
    assert_int_equal(cfg.plan_effort, TRN_PLAN_PATIENT);
    assert_int_equal(cfg.convert_ahead, 0);
    assert_int_equal(cfg.run_ahead, 0);
    assert_int_equal(cfg.neuron_resident, 0);
    assert_int_equal(cfg.neuron_locality, 0);
    assert_int_equal(cfg.neuron_in_place, 0);
    assert_int_equal(cfg.neuron_core_copies, 0);
    trn_config_free(&cfg);
}

/* Fills argv with "trnscid" and n pairs "--listen h:1" .. "--listen h:n",
 * NULL-terminated (argv needs 2 + 2n slots). Returns argc. */
static int listen_argv(char **argv, char (*addrs)[16], int n) {
    int argc = 0;
    argv[argc++] = "trnscid";
    for (int i = 0; i < n; i++) {
        snprintf(addrs[i], sizeof(addrs[i]), "h:%d", i + 1);
        argv[argc++] = "--listen";
        argv[argc++] = addrs[i];
    }
    argv[argc] = NULL;
    return argc;
}

/* Parses argv (NULL-terminated) expecting TRN_CONFIG_ERROR with a message
 * containing `needle`. */
static void expect_parse_error(char **argv, const char *needle) {
    int argc = 0;
    while (argv[argc])
        argc++;
    trn_config cfg;
    char err[256] = "";
    const trn_config_result r = trn_config_parse(&cfg, argc, argv, err, sizeof(err));
    trn_config_free(&cfg);
    if (r != TRN_CONFIG_ERROR)
        fail_msg("%s %s: result %d, expected TRN_CONFIG_ERROR", argv[1], argc > 2 ? argv[2] : "",
                 (int)r);
    if (!strstr(err, needle))
        fail_msg("%s: message \"%s\" does not contain \"%s\"", argv[1], err, needle);
}

/* Rule: unknown flags, stray arguments, missing and out-of-range values are
 * errors that name what was wrong. */
static void test_parse_errors(void **state) {
    (void)state;
    expect_parse_error((char *[]){"trnscid", "--bogus", NULL}, "--bogus");
    expect_parse_error((char *[]){"trnscid", "--listen", "127.0.0.1:1", "--frobnicate", NULL},
                       "--frobnicate");
    expect_parse_error((char *[]){"trnscid", "stray", NULL}, "stray");
    expect_parse_error((char *[]){"trnscid", "--listen", NULL}, "--listen");
    expect_parse_error((char *[]){"trnscid", "--listen", "nocolon", NULL}, "nocolon");
    expect_parse_error((char *[]){"trnscid", "--listen", "unix:relative.sock", NULL},
                       "unix:relative.sock");
    expect_parse_error((char *[]){"trnscid", "--cores", "x", NULL}, "--cores");
    expect_parse_error((char *[]){"trnscid", "--max-session-bytes", "0", NULL},
                       "--max-session-bytes");
    expect_parse_error((char *[]){"trnscid", "--max-session-bytes", "12X", NULL},
                       "--max-session-bytes");
    expect_parse_error((char *[]){"trnscid", "--max-streams", "0", NULL}, "--max-streams");
    expect_parse_error((char *[]){"trnscid", "--max-streams", "65537", NULL}, "--max-streams");
    expect_parse_error((char *[]){"trnscid", "--max-streams", "-1", NULL}, "--max-streams");
    expect_parse_error((char *[]){"trnscid", "--lease-ms", "99", NULL}, "--lease-ms");
    expect_parse_error((char *[]){"trnscid", "--lease-ms", "86400001", NULL}, "--lease-ms");
    expect_parse_error((char *[]){"trnscid", "--log-level", "loud", NULL}, "--log-level");
    expect_parse_error((char *[]){"trnscid", "--plan-effort", "exhaustive", NULL}, "--plan-effort");
    expect_parse_error((char *[]){"trnscid", "--plan-cache-bytes", "lots", NULL},
                       "--plan-cache-bytes");
    expect_parse_error((char *[]){"trnscid", "--run-ahead", "maybe", NULL}, "--run-ahead");
    expect_parse_error((char *[]){"trnscid", "--neuron-resident", "yes", NULL},
                       "--neuron-resident yes");
    expect_parse_error((char *[]){"trnscid", "--neuron-locality", "1", NULL},
                       "--neuron-locality 1");
    expect_parse_error((char *[]){"trnscid", "--neuron-in-place", "packed", NULL},
                       "--neuron-in-place packed");
    expect_parse_error((char *[]){"trnscid", "--neuron-core-copies", "shared", NULL},
                       "--neuron-core-copies shared");

    /* At most TRN_CONFIG_MAX_LISTEN (8) addresses; the 9th is an error, and the
     * eight already copied are freed by trn_config_free (ASan checks). */
    char *argv[2 + 2 * 9], addrs[9][16];
    listen_argv(argv, addrs, 9);
    expect_parse_error(argv, "--listen");
}

/* Rule: exactly TRN_CONFIG_MAX_LISTEN addresses are accepted. */
static void test_parse_max_listen(void **state) {
    (void)state;
    char *argv[2 + 2 * TRN_CONFIG_MAX_LISTEN], addrs[TRN_CONFIG_MAX_LISTEN][16];
    const int argc = listen_argv(argv, addrs, TRN_CONFIG_MAX_LISTEN);
    trn_config cfg;
    char err[256] = "";
    assert_int_equal(trn_config_parse(&cfg, argc, argv, err, sizeof(err)), TRN_CONFIG_OK);
    assert_int_equal(cfg.nlisten, TRN_CONFIG_MAX_LISTEN);
    assert_string_equal(cfg.listen[0], "h:1");
    assert_string_equal(cfg.listen[7], "h:8");
    trn_config_free(&cfg);
}

/* Rule: --help and --version mean "print and exit 0", whatever else is on
 * the command line after them. (They print to stdout.) */
static void test_parse_help_version(void **state) {
    (void)state;
    trn_config cfg;
    char err[256] = "";
    char *help[] = {"trnscid", "--help"};
    assert_int_equal(trn_config_parse(&cfg, ARGC(help), help, err, sizeof(err)),
                     TRN_CONFIG_EXIT_OK);
    trn_config_free(&cfg);
    char *h[] = {"trnscid", "-h"};
    assert_int_equal(trn_config_parse(&cfg, ARGC(h), h, err, sizeof(err)), TRN_CONFIG_EXIT_OK);
    trn_config_free(&cfg);
    char *version[] = {"trnscid", "--listen", "127.0.0.1:1", "--version"};
    assert_int_equal(trn_config_parse(&cfg, ARGC(version), version, err, sizeof(err)),
                     TRN_CONFIG_EXIT_OK);
    trn_config_free(&cfg);
    fflush(stdout);
}

/* Rule: parse starts from the defaults every time: a second parse in the same
 * process sees nothing of the first. */
static void test_parse_twice(void **state) {
    (void)state;
    trn_config cfg;
    char err[256] = "";
    char *first[] = {"trnscid", "--listen", "h:1", "--listen", "h:2", "--max-streams", "3"};
    assert_int_equal(trn_config_parse(&cfg, ARGC(first), first, err, sizeof(err)), TRN_CONFIG_OK);
    trn_config_free(&cfg);
    char *second[] = {"trnscid", "--listen", "h:3"};
    assert_int_equal(trn_config_parse(&cfg, ARGC(second), second, err, sizeof(err)), TRN_CONFIG_OK);
    assert_int_equal(cfg.nlisten, 1);
    assert_string_equal(cfg.listen[0], "h:3");
    assert_int_equal(cfg.max_streams, 256);
    trn_config_free(&cfg);
}

/* ---- the config file (config_file.h) and reload (config_reload.h) ---------- */

/* Writes `text` to a fresh temp file; its path goes into path (mkstemp). */
static void write_conf(char *path, size_t len, const char *text) {
    snprintf(path, len, "/tmp/trnsci-test-config-XXXXXX");
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static trn_config_result parse_with_conf(trn_config *cfg, const char *text, char **extra,
                                         int nextra, char *path, char *err, size_t errlen) {
    write_conf(path, 64, text);
    char *argv[16] = {"trnscid", "--config", path};
    int argc = 3;
    for (int i = 0; i < nextra; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    return trn_config_parse(cfg, argc, argv, err, errlen);
}

/* Parses a config file expecting TRN_CONFIG_ERROR with a message containing
 * "<path>:<line>: " and `needle`. */
static void expect_conf_error(const char *text, int line, const char *needle) {
    trn_config cfg;
    char path[64], err[512] = "", where[128];
    const trn_config_result r = parse_with_conf(&cfg, text, NULL, 0, path, err, sizeof(err));
    trn_config_free(&cfg);
    unlink(path);
    if (r != TRN_CONFIG_ERROR)
        fail_msg("config \"%s\": result %d, expected TRN_CONFIG_ERROR", text, (int)r);
    snprintf(where, sizeof(where), "%s:%d: ", path, line);
    if (strncmp(err, where, strlen(where)) != 0 || !strstr(err, needle))
        fail_msg("config \"%s\": message \"%s\" should start with \"%s\" and contain \"%s\"", text,
                 err, where, needle);
}

/* Rule: every key sets what its flag sets; comments, blank lines and a
 * [trnscid] section are allowed; listen is repeatable. */
static void test_conf_keys(void **state) {
    (void)state;
    trn_config cfg;
    char path[64], err[512] = "";
    const char *text = "# trnscid.conf\n"
                       "; another comment\n"
                       "\n"
                       "listen = 127.0.0.1:7450\n"
                       "[trnscid]\n"
                       "listen = unix:/tmp/x.sock\n"
                       "max-streams = 17   ; inline comment\n"
                       "max-session-bytes = 2G\n"
                       "priority-ceiling = -2\n"
                       "log-level = debug\n"
                       "plan-effort = estimate\n"
                       "lease-ms = 1500\n"
                       "cores = 1\n";
    assert_int_equal(parse_with_conf(&cfg, text, NULL, 0, path, err, sizeof(err)), TRN_CONFIG_OK);
    unlink(path);
    assert_int_equal(cfg.nlisten, 2);
    assert_string_equal(cfg.listen[0], "127.0.0.1:7450");
    assert_string_equal(cfg.listen[1], "unix:/tmp/x.sock");
    assert_int_equal(cfg.max_streams, 17);
    assert_int_equal(cfg.max_session_bytes, 2ULL << 30);
    assert_int_equal(cfg.priority_ceiling, -2);
    assert_int_equal(cfg.log_level, TRN_LOG_DEBUG);
    assert_int_equal(cfg.plan_effort, TRN_PLAN_ESTIMATE);
    assert_int_equal(cfg.lease_ms, 1500);
    assert_int_equal(cfg.ncores, 1);
    assert_non_null(cfg.config_path);
    assert_string_equal(cfg.config_path, path);
    char v[128];
    assert_int_equal(trn_config_value(&cfg, "listen", v, sizeof(v)), 1);
    assert_string_equal(v, "127.0.0.1:7450,unix:/tmp/x.sock");
    assert_int_equal(trn_config_value(&cfg, "max-events", v, sizeof(v)), 0);
    trn_config_free(&cfg);
}

/* Rule: flags override the file; a --listen replaces the file's addresses. */
static void test_conf_flags_override(void **state) {
    (void)state;
    trn_config cfg;
    char path[64], err[512] = "";
    char *extra[] = {"--max-streams", "99", "--listen", "h:1"};
    assert_int_equal(parse_with_conf(&cfg,
                                     "max-streams = 17\nmax-events = 5\nlisten = h:7\n"
                                     "listen = h:8\n",
                                     extra, 4, path, err, sizeof(err)),
                     TRN_CONFIG_OK);
    unlink(path);
    assert_int_equal(cfg.max_streams, 99);
    assert_int_equal(cfg.max_events, 5);
    assert_int_equal(cfg.nlisten, 1);
    assert_string_equal(cfg.listen[0], "h:1");
    char v[64];
    assert_int_equal(trn_config_value(&cfg, "listen", v, sizeof(v)), 1);
    assert_string_equal(v, "h:1");
    assert_int_equal(trn_config_value(&cfg, "max-streams", v, sizeof(v)), 1);
    assert_string_equal(v, "99");
    trn_config_free(&cfg);
}

/* Rule: unknown keys, bad values, bad syntax, unknown sections, keys that
 * only make sense as flags, and an unreadable file are errors naming
 * file:line. */
static void test_conf_errors(void **state) {
    (void)state;
    expect_conf_error("max-streams = 4\nfrobnicate = 1\n", 2, "unknown key 'frobnicate'");
    expect_conf_error("# c\n\nmax-streams = 0\n", 3, "max-streams 0: expected 1..65536");
    expect_conf_error("max-session-bytes = 12X\n", 1, "max-session-bytes");
    expect_conf_error("listen = nocolon\n", 1, "nocolon");
    expect_conf_error("log-level = loud\n", 1, "log-level");
    expect_conf_error("cores = x\n", 1, "cores");
    expect_conf_error("max-streams = 4\njust words\n", 2, "expected 'key = value'");
    expect_conf_error("[server]\nmax-streams = 4\n", 2, "unknown section [server]");
    expect_conf_error("config = /etc/other.conf\n", 1, "unknown key 'config'");
    expect_conf_error("help = true\n", 1, "unknown key 'help'");
    expect_conf_error("version = true\n", 1, "unknown key 'version'");
    /* Not a key: the flag's spelling. */
    expect_conf_error("--max-streams = 4\n", 1, "unknown key '--max-streams'");

    trn_config cfg;
    char err[512] = "";
    char *argv[] = {"trnscid", "--config", "/nonexistent/trnscid.conf"};
    assert_int_equal(trn_config_parse(&cfg, ARGC(argv), argv, err, sizeof(err)), TRN_CONFIG_ERROR);
    assert_non_null(strstr(err, "/nonexistent/trnscid.conf: cannot read"));
    trn_config_free(&cfg);
}

/* Rule: every flag of the table except config/help/version is a key, so a
 * flag added to config.c is a key without further work. Checked by feeding
 * each key a value that is wrong for every numeric key: the answer may be a
 * value error, never "unknown key". */
static void test_conf_every_flag_is_a_key(void **state) {
    (void)state;
    int n = 0;
    for (int i = 0; trn_config_key(i); i++, n++) {
        const char *key = trn_config_key(i);
        assert_true(strcmp(key, "config") && strcmp(key, "help") && strcmp(key, "version"));
        char text[128], path[64], err[512] = "";
        snprintf(text, sizeof(text), "%s = @\n", key);
        trn_config cfg;
        parse_with_conf(&cfg, text, NULL, 0, path, err, sizeof(err));
        unlink(path);
        if (strstr(err, "unknown key"))
            fail_msg("key %s: %s", key, err);
        trn_config_free(&cfg);
    }
    /* The flags --help documents, less --config/--version/--help. */
    assert_true(n >= 16);
}

/* Rule: a reload copies the keys that can change live, logs the others as
 * ignored and keeps them; a second reload of the same file changes nothing. */
static void test_conf_reload(void **state) {
    (void)state;
    trn_config live, fresh;
    char path[64], err[512] = "";
    assert_int_equal(parse_with_conf(&live,
                                     "max-streams = 17\ncores = 1\nmax-events = 9\n"
                                     "plan-effort = estimate\n",
                                     NULL, 0, path, err, sizeof(err)),
                     TRN_CONFIG_OK);
    unlink(path);
    char *keep[] = {"--max-events", "9"};
    assert_int_equal(parse_with_conf(&fresh,
                                     "max-streams = 40\ncores = 1\npriority-ceiling = -1\n"
                                     "plan-effort = measure\nlease-ms = 2000\n",
                                     keep, 2, path, err, sizeof(err)),
                     TRN_CONFIG_OK);
    unlink(path);
    /* max-streams, priority-ceiling and lease-ms apply; plan-effort needs a
     * restart; max-events and cores did not change. */
    assert_int_equal(trn_config_reload(&live, &fresh), 3);
    assert_int_equal(live.max_streams, 40);
    assert_int_equal(live.priority_ceiling, -1);
    assert_int_equal(live.lease_ms, 2000);
    assert_int_equal(live.max_events, 9);
    assert_int_equal(live.plan_effort, TRN_PLAN_ESTIMATE);
    assert_int_equal(trn_config_reload(&live, &fresh), 0);
    trn_config_free(&fresh);

    /* A key removed from the file goes back to its default. */
    assert_int_equal(parse_with_conf(&fresh, "cores = 1\nplan-effort = measure\n", NULL, 0, path,
                                     err, sizeof(err)),
                     TRN_CONFIG_OK);
    unlink(path);
    assert_int_equal(trn_config_reload(&live, &fresh), 4);
    assert_int_equal(live.max_streams, 256);
    assert_int_equal(live.priority_ceiling, 0);
    assert_int_equal(live.lease_ms, 30000);
    assert_int_equal(live.max_events, 4096);
    trn_config_free(&fresh);
    trn_config_free(&live);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_bytes_valid),
        cmocka_unit_test(test_parse_bytes_invalid),
        cmocka_unit_test(test_parse_bytes_space_then_sign),
        cmocka_unit_test(test_parse_cores_count),
        cmocka_unit_test(test_parse_cores_list),
        cmocka_unit_test(test_parse_defaults),
        cmocka_unit_test(test_default_listen),
        cmocka_unit_test(test_parse_all_flags),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_max_listen),
        cmocka_unit_test(test_parse_help_version),
        cmocka_unit_test(test_parse_twice),
        cmocka_unit_test(test_conf_keys),
        cmocka_unit_test(test_conf_flags_override),
        cmocka_unit_test(test_conf_errors),
        cmocka_unit_test(test_conf_every_flag_is_a_key),
        cmocka_unit_test(test_conf_reload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
