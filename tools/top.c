/*
 * top.c — `trnsci top`: a refreshing view of a running trnscid, like
 * nvidia-smi / neuron-top: per-core utilisation bars, and each session with
 * its transport, pid, uid, pending ops and throughput.
 *
 *   trnsci top                       refresh every second until q (or Ctrl-C)
 *   trnsci top --interval 0.5        refresh period in seconds
 *   trnsci top --iterations N        stop after N frames (batch use)
 *   trnsci top --once                one frame (two samples --interval apart)
 *   trnsci top --once --json         that frame as one JSON object
 *
 * Rates (utilisation, ops/s, FLOP/s) are differences between two samples of
 * the daemon's counters (trnsciDaemonGetWorkers / GetSessions) divided by the
 * time between them, so the first frame comes one interval after start. On a
 * terminal the screen is redrawn in place and keys are read unbuffered; with
 * output to a pipe or file, frames follow one another. The rows are the
 * sessions the daemon lets this caller see (docs/security.md); the header's
 * count is daemon-wide, and says how many are shown when they differ.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/fmt.h"
#include "trnsci/trnsci.h"

#define MAX_ROWS 256
#define BAR 30

typedef struct frame {
    trnsciDaemonStatus st;
    trnsciWorkerInfo w[MAX_ROWS];
    int nw;
    trnsciSessionInfo s[MAX_ROWS];
    int ns;
    int listed; /* sessions the daemon listed, before the MAX_ROWS cut */
    double t;   /* seconds, monotonic */
} frame;

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int sample(const char *addr, frame *f) {
    if (trnsciDaemonGetStatus(addr, &f->st) != trnsciSuccess ||
        trnsciDaemonGetWorkers(addr, f->w, MAX_ROWS, &f->nw) != trnsciSuccess ||
        trnsciDaemonGetSessions(addr, f->s, MAX_ROWS, &f->ns) != trnsciSuccess)
        return -1;
    if (f->nw > MAX_ROWS)
        f->nw = MAX_ROWS;
    f->listed = f->ns;
    if (f->ns > MAX_ROWS)
        f->ns = MAX_ROWS;
    f->t = now_s();
    return 0;
}

/* A worker's busy fraction between two frames (0 when it is new). */
static double worker_util(const frame *prev, const frame *cur, int i) {
    for (int j = 0; j < prev->nw; j++) {
        if (prev->w[j].index == cur->w[i].index &&
            strcmp(prev->w[j].engine, cur->w[i].engine) == 0) {
            const double dt = cur->t - prev->t;
            const double u =
                dt > 0 ? (double)(cur->w[i].usage.runNs - prev->w[j].usage.runNs) * 1e-9 / dt : 0;
            return u < 0 ? 0 : u > 1 ? 1 : u;
        }
    }
    return 0;
}

/* A session's ops/s and FLOP/s between two frames (from its start if new). */
static void session_rates(const frame *prev, const frame *cur, int i, double *ops, double *flops) {
    const trnsciSessionInfo *s = &cur->s[i];
    uint64_t ops0 = 0;
    double cost0 = 0;
    for (int j = 0; j < prev->ns; j++) {
        if (prev->s[j].number == s->number) {
            ops0 = prev->s[j].usage.ops;
            cost0 = prev->s[j].usage.cost;
        }
    }
    const double dt = cur->t - prev->t;
    *ops = dt > 0 ? (double)(s->usage.ops - ops0) / dt : 0;
    *flops = dt > 0 ? (s->usage.cost - cost0) / dt : 0;
}

static void render_text(const frame *prev, const frame *cur) {
    const trnsciDaemonStatus *st = &cur->st;
    char shown[32] = "";
    if ((unsigned)cur->listed < st->sessions)
        snprintf(shown, sizeof(shown), " (%d shown)", cur->listed);
    printf("trnscid %s (%s), up %.0f s: %u cores, %u sessions%s, %llu queued, %llu running, "
           "%llu completed\n\n",
           st->daemonVersion, st->backend, (double)st->uptimeMs / 1000.0, st->coreCount,
           st->sessions, shown, (unsigned long long)st->opsQueued,
           (unsigned long long)st->opsRunning, (unsigned long long)st->opsCompleted);
    for (int i = 0; i < cur->nw; i++) {
        const double u = worker_util(prev, cur, i);
        char bar[BAR + 1], cpu[16] = "-";
        const int fill = (int)(u * BAR + 0.5);
        for (int k = 0; k < BAR; k++)
            bar[k] = k < fill ? '#' : '.';
        bar[BAR] = '\0';
        if (cur->w[i].cpu >= 0)
            snprintf(cpu, sizeof(cpu), "%d", cur->w[i].cpu);
        printf("%-4s %3u  cpu %-3s [%s] %5.1f%%\n", cur->w[i].engine, cur->w[i].index, cpu, bar,
               100.0 * u);
    }
    printf("\n%8s  %-9s  %8s  %6s  %7s  %9s  %9s  %4s  %s\n", "SESSION", "TRANSPORT", "PID", "UID",
           "PENDING", "OPS/s", "FLOP/s", "PRIO", "CLIENT");
    for (int i = 0; i < cur->ns; i++) {
        const trnsciSessionInfo *s = &cur->s[i];
        double ops, flops;
        session_rates(prev, cur, i, &ops, &flops);
        char o[16], fl[16];
        cli_si(o, sizeof(o), ops);
        cli_si(fl, sizeof(fl), flops);
        printf("%8llu  %-9s  %8u  %6u  %7u  %9s  %9s  %4d  %s\n", (unsigned long long)s->number,
               s->transport, s->pid, s->uid, s->opsPending, o, fl, s->priority, s->clientName);
    }
    if (cur->ns == 0)
        printf(st->sessions ? "(no session this caller may see)\n" : "(no sessions)\n");
    fflush(stdout);
}

static void render_json(const frame *prev, const frame *cur) {
    const trnsciDaemonStatus *st = &cur->st;
    printf("{\"interval_s\": %.3f, \"version\": ", cur->t - prev->t);
    cli_json_str(stdout, st->daemonVersion);
    printf(", \"cores\": %u, \"sessions\": %u, \"ops_queued\": %llu, \"ops_running\": %llu, "
           "\"ops_completed\": %llu,\n \"workers\": [",
           st->coreCount, st->sessions, (unsigned long long)st->opsQueued,
           (unsigned long long)st->opsRunning, (unsigned long long)st->opsCompleted);
    for (int i = 0; i < cur->nw; i++) {
        printf("%s{\"engine\": ", i ? ", " : "");
        cli_json_str(stdout, cur->w[i].engine);
        printf(", \"index\": %u, \"cpu\": %d, \"utilisation\": %.4f}", cur->w[i].index,
               cur->w[i].cpu, worker_util(prev, cur, i));
    }
    printf("],\n \"session_rows\": [");
    for (int i = 0; i < cur->ns; i++) {
        const trnsciSessionInfo *s = &cur->s[i];
        double ops, flops;
        session_rates(prev, cur, i, &ops, &flops);
        printf("%s\n  {\"session\": %llu, \"transport\": ", i ? "," : "",
               (unsigned long long)s->number);
        cli_json_str(stdout, s->transport);
        printf(", \"client\": ");
        cli_json_str(stdout, s->clientName);
        printf(", \"pid\": %u, \"uid\": %u, \"ops_pending\": %u, \"priority\": %d, "
               "\"ops_per_s\": %.3f, \"flops_per_s\": %.6g}",
               s->pid, s->uid, s->opsPending, s->priority, ops, flops);
    }
    printf("]}\n");
    fflush(stdout);
}

/* Waits up to seconds for a key on a terminal: 1 when q was pressed. */
static int wait_key(double seconds, int tty) {
    const double end = now_s() + seconds;
    for (;;) {
        const double left = end - now_s();
        if (left <= 0 || interrupted)
            return 0;
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (tty && poll(&p, 1, (int)(left * 1000) + 1) == 1) {
            char c;
            if (read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q'))
                return 1;
        } else if (!tty) {
            struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
}

int trnsci_cmd_top(const char *addr, int argc, char **argv, int json) {
    double interval = 1.0;
    long iterations = 0;
    int once = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--once") == 0)
            once = 1;
        else if (strcmp(argv[i], "--interval") == 0 && i + 1 < argc)
            interval = atof(argv[++i]);
        else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
            iterations = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: trnsci top [--once] [--interval S] [--iterations N] "
                            "[--json]\n");
            return 2;
        }
    }
    if (interval < 0.05 || interval > 3600) {
        fprintf(stderr, "trnsci top: --interval between 0.05 and 3600 seconds\n");
        return 2;
    }
    if (once)
        iterations = 1;
    frame *f = calloc(2, sizeof(frame));
    if (!f)
        return 1;
    const int screen = !json && isatty(STDOUT_FILENO);
    const int keys = screen && isatty(STDIN_FILENO);
    struct termios saved;
    if (keys) {
        tcgetattr(STDIN_FILENO, &saved);
        struct termios raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    signal(SIGINT, on_sigint);
    int rc = 0, cur = 0;
    if (sample(addr, &f[cur]) != 0) {
        fprintf(stderr, "trnsci top: %s\n", trnsciGetLastErrorMessage());
        rc = 1;
    }
    for (long n = 0; rc == 0 && (iterations == 0 || n < iterations); n++) {
        if (wait_key(interval, keys) || interrupted)
            break;
        const int next = 1 - cur;
        if (sample(addr, &f[next]) != 0) {
            fprintf(stderr, "trnsci top: %s\n", trnsciGetLastErrorMessage());
            rc = 1;
            break;
        }
        if (screen)
            fputs("\033[H\033[2J", stdout);
        else if (n > 0 && !json)
            putchar('\n');
        if (json)
            render_json(&f[cur], &f[next]);
        else
            render_text(&f[cur], &f[next]);
        if (screen)
            printf("\n(q quits; every %.1f s)\n", interval);
        cur = next;
    }
    if (keys)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    free(f);
    return rc;
}
