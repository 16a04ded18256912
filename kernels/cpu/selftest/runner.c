/*
 * runner.c — runs the self-test in child processes and keeps the verdicts
 * (selftest.h).
 *
 * A child takes the routines id ≡ worker (mod workers), from first_id on,
 * and for each writes a BEGIN record before it calls a candidate's check
 * and a RESULT record after; it moves to the next candidate only when one
 * failed. If it dies, a fatal-signal handler first writes a CRASH record
 * naming the case and where the fault was (guard.h). Records are fixed-size
 * writes below PIPE_BUF, so they arrive whole and in order.
 *
 * The parent polls every child's pipe. A child whose pipe closes while a
 * candidate is pending crashed in it; one that is silent for stall_ms is
 * killed and its pending candidate timed out. Either way a new child
 * carries on from the next candidate, so one bad routine costs one
 * respawn. The decomposition depends only on the worker count.
 */
#define _GNU_SOURCE
#include "kernels/cpu/selftest/selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/cpu/selftest/checks.h"

enum { REC_BEGIN = 1, REC_RESULT = 2, REC_CRASH = 3, REC_DONE = 4, REC_INFO = 5 };

typedef struct record {
    int32_t kind, id, cand, verdict;
    uint32_t cases, failed;
    double worst, ms;
    char text[TRN_ST_TEXT];
} record;

_Static_assert(sizeof(record) <= 512, "a record is written atomically (PIPE_BUF)");

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

const char *trn_st_verdict_name(trn_st_verdict v) {
    switch (v) {
    case TRN_ST_UNTRIED: return "not tried";
    case TRN_ST_PASSED: return "passed";
    case TRN_ST_FAILED: return "failed";
    case TRN_ST_CRASHED: return "crashed";
    case TRN_ST_TIMED_OUT: return "timed out";
    }
    return "?";
}

/* The candidates of id with the options' overrides applied. */
static int candidates(const trn_st_options *o, int id, st_candidate *out) {
    const int n = st_candidates(id, out);
    for (int i = 0; o && i < o->noverrides; i++)
        if (o->overrides[i].id == id)
            out[0].fn = o->overrides[i].fn;
    return n;
}

static int wanted(const trn_st_options *o, int id) {
    return !o || !o->want || o->want(id);
}

/* ---- the child ------------------------------------------------------------------------- */

/* What the fatal-signal handler needs: the child's only process-wide
 * state, set before the handler is installed. */
static int child_fd = -1;
static st_check *child_check;
static st_guard *child_guard;

static void put_record(int fd, const record *r) {
    /* One write: atomic on a pipe. EINTR cannot split it. */
    while (write(fd, r, sizeof(*r)) < 0 && errno == EINTR)
        ;
}

static void append(char *buf, size_t len, size_t *at, const char *s) {
    while (*s && *at + 1 < len)
        buf[(*at)++] = *s++;
    buf[*at] = '\0';
}

static void on_fatal(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    record r;
    memset(&r, 0, sizeof(r));
    r.kind = REC_CRASH;
    r.verdict = sig;
    size_t at = 0;
    if (child_check) {
        r.id = child_check->id;
        append(r.text, sizeof(r.text), &at, child_check->current);
    }
    if ((sig == SIGSEGV || sig == SIGBUS) && child_guard) {
        char where[96];
        st_guard_locate(child_guard, si->si_addr, where, sizeof(where));
        append(r.text, sizeof(r.text), &at, ": access ");
        append(r.text, sizeof(r.text), &at, where);
    }
    put_record(child_fd, &r);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_fatal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaction(sigs[i], &sa, NULL);
}

static int child_run(const trn_st_options *o, int fd, int worker, int workers, int first_id,
                     int first_cand) {
    openblas_set_num_threads(1);
    child_fd = fd;
    child_guard = st_guard_create();
    if (!child_guard)
        return 3;
    install_fatal_handlers();
    record info;
    memset(&info, 0, sizeof(info));
    info.kind = REC_INFO;
    snprintf(info.text, sizeof(info.text), "%s\n%s", openblas_get_corename(),
             openblas_get_config());
    put_record(fd, &info);
    st_check c;
    for (int id = first_id; id < TRN_ROUTINE_COUNT; id += workers) {
        if (id % workers != worker || !wanted(o, id))
            continue;
        st_candidate cand[ST_MAX_CANDIDATES];
        const int n = candidates(o, id, cand);
        for (int k = id == first_id ? first_cand : 0; k < n; k++) {
            record r;
            memset(&r, 0, sizeof(r));
            r.kind = REC_BEGIN;
            r.id = id;
            r.cand = k;
            put_record(fd, &r);
            st_check_begin(&c, id, cand[k].fn, child_guard);
            child_check = &c;
            const double t0 = now_ms();
            st_check_run(&c);
            r.ms = now_ms() - t0;
            child_check = NULL;
            r.kind = REC_RESULT;
            r.verdict = c.failed ? TRN_ST_FAILED : TRN_ST_PASSED;
            r.cases = c.cases;
            r.failed = c.failed;
            r.worst = c.worst;
            snprintf(r.text, sizeof(r.text), "%s", c.failure);
            st_check_end(&c);
            put_record(fd, &r);
            if (!c.failed)
                break;
        }
    }
    record done;
    memset(&done, 0, sizeof(done));
    done.kind = REC_DONE;
    put_record(fd, &done);
    st_guard_destroy(child_guard);
    return 0;
}

int trn_st_child_main(int fd, int worker, int workers, int first_id, int first_cand) {
    if (workers < 1 || worker < 0 || worker >= workers || first_id < 0)
        return 2;
    return child_run(NULL, fd, worker, workers, first_id, first_cand);
}

/* ---- the parent ------------------------------------------------------------------------ */

typedef struct child {
    pid_t pid; /* 0: none running */
    int fd;
    int worker;
    int pending_id, pending_cand; /* BEGIN without RESULT, or -1 */
    double last_ms;               /* when it last reported */
    int done;                     /* sent DONE: nothing left for this worker */
    int restarts;                 /* after dying outside any check */
    int crash_sig;                /* from a CRASH record */
    char crash_text[TRN_ST_TEXT];
    unsigned char buf[sizeof(record)];
    size_t have;
} child;

static pid_t fork_child(const trn_st_options *o, int fd, int worker, int workers, int first_id,
                        int first_cand) {
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0)
        _exit(child_run(o, fd, worker, workers, first_id, first_cand));
    return pid;
}

static int start_child(const trn_st_options *o, child *ch, int workers, int first_id,
                       int first_cand) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    /* The write end goes to the child (exec keeps it only without CLOEXEC). */
    const int flags = fcntl(p[1], F_GETFD);
    fcntl(p[1], F_SETFD, flags & ~FD_CLOEXEC);
    const pid_t pid = o->spawn
                          ? o->spawn(o->spawn_arg, p[1], ch->worker, workers, first_id, first_cand)
                          : fork_child(o, p[1], ch->worker, workers, first_id, first_cand);
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    ch->pid = pid;
    ch->fd = p[0];
    ch->pending_id = ch->pending_cand = -1;
    ch->last_ms = now_ms();
    ch->done = 0;
    ch->crash_sig = 0;
    ch->crash_text[0] = '\0';
    ch->have = 0;
    return 0;
}

static void take_record(trn_st_report *rep, child *ch, const record *r) {
    ch->last_ms = now_ms();
    if (r->kind == REC_INFO) {
        const char *nl = strchr(r->text, '\n');
        const size_t n = nl ? (size_t)(nl - r->text) : strlen(r->text);
        snprintf(rep->blas_core, sizeof(rep->blas_core), "%.*s", (int)n, r->text);
        snprintf(rep->blas_config, sizeof(rep->blas_config), "%s", nl ? nl + 1 : "");
        return;
    }
    if (r->kind == REC_DONE) {
        ch->done = 1;
        return;
    }
    if (r->id < 0 || r->id >= TRN_ROUTINE_COUNT)
        return;
    if (r->kind == REC_BEGIN) {
        ch->pending_id = r->id;
        ch->pending_cand = r->cand;
        return;
    }
    if (r->kind == REC_CRASH) {
        ch->crash_sig = r->verdict;
        snprintf(ch->crash_text, sizeof(ch->crash_text), "%s", r->text);
        return;
    }
    if (r->kind != REC_RESULT || r->cand < 0 || r->cand >= TRN_ST_MAX_CANDIDATES)
        return;
    trn_st_candidate_result *c = &rep->r[r->id].cand[r->cand];
    c->verdict = (trn_st_verdict)r->verdict;
    c->cases = r->cases;
    c->failed = r->failed;
    c->worst = r->worst;
    c->ms = r->ms;
    snprintf(c->detail, sizeof(c->detail), "%s", r->text);
    ch->pending_id = ch->pending_cand = -1;
}

/* Reads what the child wrote. Returns 0 at end of file. */
static int drain(trn_st_report *rep, child *ch) {
    for (;;) {
        const ssize_t n = read(ch->fd, ch->buf + ch->have, sizeof(ch->buf) - ch->have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno == EAGAIN ? 1 : 0;
        if (n == 0)
            return 0;
        ch->have += (size_t)n;
        if (ch->have == sizeof(record)) {
            record r;
            memcpy(&r, ch->buf, sizeof(r));
            ch->have = 0;
            take_record(rep, ch, &r);
        }
        return 1;
    }
}

/* Where a child whose pending candidate ended abnormally resumes. */
static void next_after(const trn_st_options *o, int id, int cand, int *next_id, int *next_cand) {
    st_candidate list[ST_MAX_CANDIDATES];
    const int n = candidates(o, id, list);
    if (cand + 1 < n) {
        *next_id = id;
        *next_cand = cand + 1;
    } else {
        *next_id = id + (o->workers > 0 ? o->workers : 1);
        *next_cand = 0;
    }
}

/* The child is gone (pipe closed, or killed): reap it, record how the
 * pending candidate ended, and say where a new one resumes (-1: none). */
static int reap(const trn_st_options *o, trn_st_report *rep, child *ch, int timed_out, int *next_id,
                int *next_cand) {
    int status = 0;
    close(ch->fd);
    while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR)
        ;
    ch->pid = 0;
    if (ch->pending_id < 0)
        return ch->done ? -1 : -2; /* -2: died between routines: resume unknown */
    trn_st_candidate_result *c = &rep->r[ch->pending_id].cand[ch->pending_cand];
    c->verdict = timed_out ? TRN_ST_TIMED_OUT : TRN_ST_CRASHED;
    if (timed_out) {
        snprintf(c->detail, sizeof(c->detail), "no result within %u ms; the check was killed",
                 o->stall_ms ? o->stall_ms : 20000u);
    } else {
        const int sig = ch->crash_sig ? ch->crash_sig : WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        const char *abbrev = sig ? sigabbrev_np(sig) : NULL;
        if (sig)
            snprintf(c->detail, sizeof(c->detail), "SIG%s in %.290s", abbrev ? abbrev : "?",
                     ch->crash_text[0] ? ch->crash_text : "the check");
        else
            snprintf(c->detail, sizeof(c->detail), "the check's process exited with status %d",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    next_after(o, ch->pending_id, ch->pending_cand, next_id, next_cand);
    return 0;
}

/* The first routine of worker w that has no verdict yet (TRN_ROUTINE_COUNT:
 * none). */
static int first_unchecked(const trn_st_options *o, const trn_st_report *rep, int w) {
    for (int id = w; id < TRN_ROUTINE_COUNT; id += o->workers) {
        if (!rep->r[id].checked)
            continue;
        int any = 0;
        for (int k = 0; k < rep->r[id].ncand; k++)
            any |= rep->r[id].cand[k].verdict != TRN_ST_UNTRIED;
        if (!any)
            return id;
    }
    return TRN_ROUTINE_COUNT;
}

static void choose(const trn_st_options *o, trn_st_report *rep) {
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        trn_st_routine_result *r = &rep->r[id];
        if (!r->checked)
            continue;
        r->chosen = -1;
        for (int k = 0; k < r->ncand; k++)
            if (r->cand[k].verdict == TRN_ST_PASSED) {
                r->chosen = k;
                break;
            }
        if (r->chosen == 0)
            rep->passed++;
        else if (r->chosen > 0)
            rep->replaced++;
        else
            rep->refused++;
    }
    (void)o;
}

int trn_st_run(const trn_st_options *opt, trn_st_report *out, char *err, size_t errlen) {
    trn_st_options o = *opt;
    if (o.workers < 1)
        o.workers = 1;
    if (o.workers > TRN_ROUTINE_COUNT)
        o.workers = TRN_ROUTINE_COUNT;
    const unsigned stall = o.stall_ms ? o.stall_ms : 20000u;
    memset(out, 0, sizeof(*out));
    out->workers = o.workers;
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        if (!wanted(&o, id))
            continue;
        st_candidate list[ST_MAX_CANDIDATES];
        trn_st_routine_result *r = &out->r[id];
        r->checked = 1;
        r->ncand = candidates(&o, id, list);
        for (int k = 0; k < r->ncand; k++)
            r->cand[k].name = list[k].name;
        out->checked++;
    }
    const double t0 = now_ms();
    child *ch = calloc((size_t)o.workers, sizeof(*ch));
    if (!ch) {
        snprintf(err, errlen, "self-test: out of memory");
        return -1;
    }
    int running = 0, rc = 0;
    for (int w = 0; w < o.workers; w++) {
        ch[w].worker = w;
        if (start_child(&o, &ch[w], o.workers, w, 0) != 0) {
            snprintf(err, errlen, "self-test: cannot start a child process: %s", strerror(errno));
            rc = -1;
            continue;
        }
        running++;
    }
    struct pollfd *pf = calloc((size_t)o.workers, sizeof(*pf));
    while (running > 0 && pf) {
        int np = 0;
        for (int w = 0; w < o.workers; w++)
            if (ch[w].pid) {
                pf[np].fd = ch[w].fd;
                pf[np].events = POLLIN;
                pf[np].revents = 0;
                np++;
            }
        const int ready = poll(pf, (nfds_t)np, 100);
        if (ready < 0 && errno != EINTR)
            break;
        if (o.cancel && atomic_load(o.cancel)) {
            for (int w = 0; w < o.workers; w++)
                if (ch[w].pid) {
                    kill(ch[w].pid, SIGKILL);
                    close(ch[w].fd);
                    while (waitpid(ch[w].pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                    ch[w].pid = 0;
                }
            snprintf(err, errlen, "self-test: stopped");
            rc = -1;
            break;
        }
        for (int w = 0, p = 0; w < o.workers; w++) {
            child *c = &ch[w];
            if (!c->pid)
                continue;
            const short ev = pf[p++].revents;
            int alive = 1, timed_out = 0;
            if (ev & (POLLIN | POLLHUP | POLLERR))
                alive = drain(out, c);
            if (alive && now_ms() - c->last_ms > stall) {
                kill(c->pid, SIGKILL);
                alive = 0;
                timed_out = 1;
            }
            if (alive)
                continue;
            running--;
            int next_id = -1, next_cand = 0;
            int r = reap(&o, out, c, timed_out, &next_id, &next_cand);
            if (r == -2) {
                /* It died outside any check (it could not even set up): try
                 * again from its first routine without a verdict, a few
                 * times, so that no routine is refused for it. */
                if (++c->restarts > 3) {
                    snprintf(err, errlen,
                             "self-test: child processes keep dying outside the "
                             "checks");
                    rc = -1;
                    continue;
                }
                r = 0;
                next_id = first_unchecked(&o, out, w);
                next_cand = 0;
            }
            if (r != 0 || next_id >= TRN_ROUTINE_COUNT)
                continue;
            if (start_child(&o, c, o.workers, next_id, next_cand) == 0) {
                running++;
            } else {
                /* The routines left would have no verdict: the run fails
                 * rather than refuse them. */
                snprintf(err, errlen, "self-test: cannot start a child process: %s",
                         strerror(errno));
                rc = -1;
            }
        }
    }
    free(pf);
    free(ch);
    out->seconds = (now_ms() - t0) / 1e3;
    choose(&o, out);
    return rc;
}

/* ---- installing the verdicts ------------------------------------------------------------- */

void trn_st_install_choice(int id, int chosen) {
    if (id < 0 || id >= TRN_ROUTINE_COUNT)
        return;
    st_candidate list[ST_MAX_CANDIDATES];
    const int n = st_candidates(id, list);
    if (chosen >= 0 && chosen < n)
        trn_routine_install((trn_routine_id)id, list[chosen].fn, 0);
    else
        trn_routine_install((trn_routine_id)id, st_refusal_fn(id), 1);
}

void trn_st_install(const trn_st_report *r) {
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++)
        if (r->r[id].checked)
            trn_st_install_choice(id, r->r[id].chosen);
}

const char *trn_st_used_name(const trn_st_report *r, int id) {
    if (id < 0 || id >= TRN_ROUTINE_COUNT || !r->r[id].checked)
        return "not checked";
    const trn_st_routine_result *rr = &r->r[id];
    return rr->chosen >= 0 ? rr->cand[rr->chosen].name : "refused";
}

void trn_st_describe(const trn_st_report *r, int id, char *buf, size_t len) {
    const trn_st_routine_result *rr = &r->r[id];
    const trn_st_candidate_result *first = &rr->cand[0];
    if (rr->chosen == 0) {
        snprintf(buf, len, "%s passed (%u cases, worst error %.2g of its bound) in %.1f ms",
                 trn_routine_name(id), first->cases, first->worst, first->ms);
        return;
    }
    int at = snprintf(buf, len, "%s (%s) %s: %s", trn_routine_name(id), first->name,
                      trn_st_verdict_name(first->verdict), first->detail);
    if (at < 0 || (size_t)at >= len)
        return;
    if (rr->chosen > 0) {
        snprintf(buf + at, len - (size_t)at, "; replaced by %s", rr->cand[rr->chosen].name);
        return;
    }
    at += snprintf(buf + at, len - (size_t)at, "; no correct implementation");
    for (int k = 1; k < rr->ncand && (size_t)at < len; k++)
        at += snprintf(buf + at, len - (size_t)at, " (%s %s)", rr->cand[k].name,
                       trn_st_verdict_name(rr->cand[k].verdict));
    if ((size_t)at < len)
        snprintf(buf + at, len - (size_t)at, ": the ops that need it fail");
}
