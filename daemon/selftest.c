/*
 * selftest.c — the daemon's self-test runs (selftest.h): start-up,
 * on demand, and the --self-test command.
 *
 * What is installed only ever moves away from a routine that failed: the
 * daemon keeps, per routine, the candidate in use (or -1: refused), and an
 * on-demand run installs a later candidate or a refusal, never an earlier
 * one, so a routine replaced at start stays replaced even if it passes
 * later.
 */
#define _GNU_SOURCE
#include "daemon/selftest.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/self_exe.h"

extern char **environ;

typedef struct waiter {
    trn_selftest_done_fn done;
    void *arg;
    struct waiter *next;
} waiter;

struct trn_selftest {
    int workers;
    char blas_why[256];
    atomic_int stop; /* the daemon is stopping: cancel an on-demand run */
    pthread_mutex_t lock;
    /* Under lock: */
    trn_st_report *latest; /* NULL before the first run */
    uint64_t latest_unix_ms;
    int latest_on_demand;
    int installed[TRN_ROUTINE_COUNT]; /* candidate in use; -1 refused */
    int running;                      /* an on-demand run is in progress */
    int thread_live;                  /* its thread exists and is not joined */
    pthread_t thread;
    waiter *waiters; /* callers of the running on-demand run */
};

static uint64_t unix_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (uint64_t)tv.tv_sec * 1000u + (uint64_t)tv.tv_usec / 1000u;
}

/* The children's environment: the daemon's, with OPENBLAS_NUM_THREADS=1 so
 * that their OpenBLAS starts no thread pool (its idle threads spin for a
 * while after start, on the CPUs the other children check on). NULL when
 * out of memory. */
static char **child_environment(void) {
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof(*env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "OPENBLAS_NUM_THREADS=", 21) != 0)
            env[k++] = environ[i];
    env[k] = "OPENBLAS_NUM_THREADS=1";
    return env;
}

/* Starts trnscid again as a self-test child writing to fd; the last
 * argument is this process's pid, which the child must still have as its
 * parent (see trn_selftest_child). */
static pid_t spawn_child(void *arg, int fd, int worker, int workers, int first_id, int first_cand) {
    (void)arg;
    char a[6][16];
    snprintf(a[0], sizeof(a[0]), "%d", fd);
    snprintf(a[1], sizeof(a[1]), "%d", worker);
    snprintf(a[2], sizeof(a[2]), "%d", workers);
    snprintf(a[3], sizeof(a[3]), "%d", first_id);
    snprintf(a[4], sizeof(a[4]), "%d", first_cand);
    snprintf(a[5], sizeof(a[5]), "%d", (int)getpid());
    char *argv[] = {"trnscid", "--self-test-child", a[0], a[1], a[2], a[3], a[4], a[5], NULL};
    char **env = child_environment();
    if (!env) {
        errno = ENOMEM;
        return -1;
    }
    char exe[4096];
    pid_t pid;
    const int rc = posix_spawn(&pid, trn_self_exe(exe, sizeof(exe)), NULL, NULL, argv, env);
    free(env);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return pid;
}

int trn_selftest_child(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "trnscid --self-test-child: expected FD WORKER WORKERS FIRST FIRST_CAND "
                        "PARENT\n");
        return 2;
    }
    long v[6];
    for (int i = 0; i < 6; i++) {
        char *end;
        v[i] = strtol(argv[i], &end, 10);
        if (*end || v[i] < 0 || (i < 5 && v[i] > 1000000) || v[i] > 2147483647L)
            return 2;
    }
    /* Die with the daemon: a check that never ends (the stall the runner
     * kills it for) would otherwise spin on after a daemon killed in the
     * meantime. The parent may have died before the prctl: then it is no
     * longer the parent. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != (pid_t)v[5])
        return TRN_SELFTEST_CHILD_ORPHANED;
    return trn_st_child_main((int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4]);
}

/* Runs the checks; the report is malloc'd. NULL with err on failure. */
static trn_st_report *run(int workers, const atomic_int *stop, char *err, size_t errlen) {
    trn_st_report *r = malloc(sizeof(*r));
    if (!r) {
        snprintf(err, errlen, "self-test: out of memory");
        return NULL;
    }
    const trn_st_options o = {
        .workers = workers, .spawn = spawn_child, .cancel = stop, .stall_ms = 30000};
    if (trn_st_run(&o, r, err, errlen) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

/* A line per routine that did not pass with its library routine. */
static void print_routines(const trn_st_report *r, FILE *to) {
    char line[TRN_ST_TEXT * 2];
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        if (!r->r[id].checked || r->r[id].chosen == 0)
            continue;
        trn_st_describe(r, id, line, sizeof(line));
        if (to)
            fprintf(to, "%s\n", line);
        else
            trn_log(r->r[id].chosen > 0 ? TRN_LOG_WARN : TRN_LOG_ERROR, "self-test: %s", line);
    }
}

static void summary(const trn_st_report *r, const char *when, const char *blas_why, char *buf,
                    size_t len) {
    snprintf(buf, len,
             "self-test (%s): %u routines checked in %.2f s with %d processes: %u passed, %u "
             "replaced, %u refused; %s, kernel set %s (%s)",
             when, r->checked, r->seconds, r->workers, r->passed, r->replaced, r->refused,
             r->blas_config, r->blas_core, blas_why);
}

static void log_report(const trn_st_report *r, const char *when, const char *blas_why) {
    print_routines(r, NULL);
    char line[512];
    summary(r, when, blas_why, line, sizeof(line));
    trn_log(r->replaced || r->refused ? TRN_LOG_WARN : TRN_LOG_INFO, "%s", line);
}

/* Installs what r chose where it moves away from what is in use, and makes
 * r the latest report (taking it). */
static void adopt(trn_selftest *st, trn_st_report *r, int on_demand) {
    pthread_mutex_lock(&st->lock);
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        if (!r->r[id].checked)
            continue;
        const int now = st->installed[id], want = r->r[id].chosen;
        if (now < 0 || (want >= 0 && want <= now))
            continue; /* refused stays refused; never back to an earlier one */
        trn_st_install_choice(id, want);
        st->installed[id] = want;
    }
    free(st->latest);
    st->latest = r;
    st->latest_unix_ms = unix_ms();
    st->latest_on_demand = on_demand;
    pthread_mutex_unlock(&st->lock);
}

trn_selftest *trn_selftest_create(int workers, const char *blas_why) {
    trn_selftest *st = calloc(1, sizeof(*st));
    if (!st)
        return NULL;
    /* Past a few processes the longest routine's checks bound the time. */
    st->workers = workers < 1                          ? 1
                  : workers > TRN_SELFTEST_MAX_WORKERS ? TRN_SELFTEST_MAX_WORKERS
                                                       : workers;
    snprintf(st->blas_why, sizeof(st->blas_why), "%s", blas_why ? blas_why : "");
    pthread_mutex_init(&st->lock, NULL);
    atomic_init(&st->stop, 0);
    return st;
}

int trn_selftest_startup(trn_selftest *st, char *err, size_t errlen) {
    trn_st_report *r = run(st->workers, &st->stop, err, errlen);
    if (!r)
        return -1;
    log_report(r, "start-up", st->blas_why);
    adopt(st, r, 0);
    return 0;
}

static void *on_demand(void *arg) {
    trn_selftest *st = arg;
    char err[256] = "";
    trn_st_report *r = run(st->workers, &st->stop, err, sizeof(err));
    if (r) {
        log_report(r, "on demand", st->blas_why);
        adopt(st, r, 1);
    }
    /* Answer every caller, also those who joined while answers went out.
     * r stays valid meanwhile: it is the latest report, and no other run
     * can replace it while this one is `running`. */
    for (;;) {
        pthread_mutex_lock(&st->lock);
        waiter *w = st->waiters;
        st->waiters = NULL;
        if (!w)
            st->running = 0;
        pthread_mutex_unlock(&st->lock);
        if (!w)
            break;
        pthread_mutex_lock(&st->lock);
        const trn_selftest_meta meta = {st->latest_unix_ms, 1, st->blas_why};
        pthread_mutex_unlock(&st->lock);
        while (w) {
            waiter *next = w->next;
            w->done(w->arg, r, &meta, r ? NULL : err);
            free(w);
            w = next;
        }
    }
    return NULL;
}

int trn_selftest_request(trn_selftest *st, trn_selftest_done_fn done, void *arg) {
    waiter *w = malloc(sizeof(*w));
    if (!w)
        return -1;
    w->done = done;
    w->arg = arg;
    pthread_mutex_lock(&st->lock);
    if (atomic_load(&st->stop)) {
        pthread_mutex_unlock(&st->lock);
        free(w);
        done(arg, NULL, NULL, "the daemon is shutting down");
        return 0;
    }
    w->next = st->waiters;
    st->waiters = w;
    if (st->running) {
        pthread_mutex_unlock(&st->lock);
        return 0;
    }
    if (st->thread_live) /* the last run's thread has returned or is about to */
        pthread_join(st->thread, NULL);
    st->thread_live = 0;
    const int rc = pthread_create(&st->thread, NULL, on_demand, st);
    if (rc != 0) {
        st->waiters = w->next;
        pthread_mutex_unlock(&st->lock);
        free(w);
        done(arg, NULL, NULL, "cannot start the self-test's thread");
        return 0;
    }
    st->running = 1;
    st->thread_live = 1;
    pthread_mutex_unlock(&st->lock);
    return 0;
}

void trn_selftest_read(trn_selftest *st, trn_selftest_done_fn fn, void *arg) {
    pthread_mutex_lock(&st->lock);
    const trn_selftest_meta meta = {st->latest_unix_ms, st->latest_on_demand, st->blas_why};
    fn(arg, st->latest, &meta, st->latest ? NULL : "no self-test has run yet");
    pthread_mutex_unlock(&st->lock);
}

void trn_selftest_stop(trn_selftest *st) {
    if (!st)
        return;
    atomic_store(&st->stop, 1);
    pthread_mutex_lock(&st->lock);
    const int live = st->thread_live;
    st->thread_live = 0;
    pthread_mutex_unlock(&st->lock);
    if (live)
        pthread_join(st->thread, NULL);
}

void trn_selftest_destroy(trn_selftest *st) {
    if (!st)
        return;
    trn_selftest_stop(st);
    free(st->latest);
    pthread_mutex_destroy(&st->lock);
    free(st);
}

int trn_selftest_cli(int workers, const char *blas_why) {
    char err[256];
    if (workers > TRN_SELFTEST_MAX_WORKERS)
        workers = TRN_SELFTEST_MAX_WORKERS;
    trn_st_report *r = run(workers, NULL, err, sizeof(err));
    if (!r) {
        fprintf(stderr, "trnscid: %s\n", err);
        return 2;
    }
    print_routines(r, stdout);
    char line[512];
    summary(r, "--self-test", blas_why, line, sizeof(line));
    printf("%s\n", line);
    const int status = r->passed == r->checked ? 0 : 1;
    free(r);
    return status;
}
