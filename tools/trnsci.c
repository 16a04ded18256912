/*
 * trnsci — the command-line tool for a running trnscid.
 *
 *   trnsci status [--addr ADDR]   version, cores, sessions, queued/running ops,
 *                                 bytes held; each session with its priority
 *                                 and work; each engine worker with its load
 *
 *   trnsci plans [clear | warm FILE]
 *                                 the plan cache (tools/plans.c)
 *
 *   trnsci top [--once] [--interval S] [--iterations N]
 *                                 a refreshing view (tools/top.c)
 *
 *   trnsci bench                  a quick self-check of each family (tools/bench.c)
 *
 *   trnsci selftest [--latest]    the daemon's self-test of OpenBLAS, LAPACK and
 *                                 FFTW, run again (tools/selftest.c)
 *
 * --json after a command (status, plans, top, bench) prints JSON.
 *
 * Everything it prints comes from the daemon through the public API
 * (trnsciDaemonGetStatus/GetSessions/GetWorkers, trnsciDaemonGetPlans/...);
 * it opens no session. The daemon lists only the sessions the caller may
 * see (its token's, or its uid's unless it is root: docs/security.md); the
 * counts above the list are daemon-wide, so when they differ it says so.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/fmt.h"
#include "trnsci/trnsci.h"

static const char usage[] = "usage: trnsci [--addr ADDR] COMMAND\n"
                            "\n"
                            "commands:\n"
                            "  status    print the daemon's version, cores, queued and running\n"
                            "            ops, bytes held; each session with its transport,\n"
                            "            priority and work done (the sessions this caller\n"
                            "            may see); each engine worker with its busy time\n"
                            "            and utilisation\n"
                            "  plans     list the plan cache: each plan's key, state, hits,\n"
                            "            build time, memory and idle time, and the counters\n"
                            "  plans clear       drop every plan nothing uses\n"
                            "  plans warm FILE   prepare the plans a manifest lists\n"
                            "  top       a refreshing view: per-core utilisation bars, and each\n"
                            "            session's transport, pid, uid, pending ops and\n"
                            "            throughput; q quits. --once prints one frame;\n"
                            "            --interval S (default 1), --iterations N\n"
                            "  bench     a quick self-check of each family (blas, fft, rand,\n"
                            "            solver, sparse): a small op checked exactly, and its\n"
                            "            speed; exit status 1 if a check fails\n"
                            "  selftest  run the daemon's self-test of the outside routines\n"
                            "            (OpenBLAS, LAPACK, FFTW) again and print each\n"
                            "            routine's result and what runs for it; --latest\n"
                            "            shows the last run instead; exit status 1 if a\n"
                            "            routine was replaced or refused\n"
                            "\n"
                            "--json (after status, plans, top, bench or selftest) prints JSON.\n"
                            "\n"
                            "ADDR defaults to $TRNSCI_ADDR, else the default local socket.\n";

static void print_bytes(unsigned long long b) {
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    printf("%llu (%.1f %s)", b, v, unit[u]);
}

/* A duration in nanoseconds as seconds with millisecond resolution. */
static void secs(char *buf, size_t len, uint64_t ns) {
    snprintf(buf, len, "%.3f s", (double)ns / 1e9);
}

static void print_sessions(const trnsciSessionInfo *list, int n) {
    if (n == 0)
        return;
    printf("\n%-16s  %-9s  %8s  %6s  %8s  %14s  %4s  %7s  %8s  %7s  %11s  %11s  %s\n", "SESSION",
           "TRANSPORT", "PID", "UID", "BUFFERS", "BYTES", "PRIO", "PENDING", "OPS", "FLOPS",
           "QUEUED", "RUN", "CLIENT");
    for (int i = 0; i < n && i < 64; i++) {
        const trnsciSessionInfo *s = &list[i];
        char cost[16], queued[24], run[24];
        cli_si(cost, sizeof(cost), s->usage.cost);
        secs(queued, sizeof(queued), s->usage.queueNs);
        secs(run, sizeof(run), s->usage.runNs);
        printf("%16llu  %-9s  %8u  %6u  %8llu  %14llu  %4d  %7u  %8llu  %7s  %11s  %11s  %s\n",
               (unsigned long long)s->number, s->transport, s->pid, s->uid,
               (unsigned long long)s->buffers, (unsigned long long)s->bytes, s->priority,
               s->opsPending, (unsigned long long)s->usage.ops, cost, queued, run, s->clientName);
    }
    if (n > 64)
        printf("... and %d more\n", n - 64);
}

static void print_workers(const char *addr, uint64_t uptime_ms) {
    trnsciWorkerInfo list[256];
    int n = 0;
    if (trnsciDaemonGetWorkers(addr, list, 256, &n) != trnsciSuccess || n == 0)
        return;
    printf("\n%-6s  %5s  %4s  %11s  %10s  %6s\n", "ENGINE", "INDEX", "CPU", "BUSY", "SHARDS",
           "UTIL");
    const double uptime_ns = (double)uptime_ms * 1e6;
    for (int i = 0; i < n && i < 256; i++) {
        const trnsciWorkerInfo *w = &list[i];
        char busy[24], cpu[16];
        secs(busy, sizeof(busy), w->usage.runNs);
        if (w->cpu >= 0)
            snprintf(cpu, sizeof(cpu), "%d", w->cpu);
        else
            snprintf(cpu, sizeof(cpu), "-");
        const double util = uptime_ns > 0 ? 100.0 * (double)w->usage.runNs / uptime_ns : 0.0;
        printf("%-6s  %5u  %4s  %11s  %10llu  %5.1f%%\n", w->engine, w->index, cpu, busy,
               (unsigned long long)w->usage.shards, util > 100.0 ? 100.0 : util);
    }
}

static void json_usage(const trnsciUsage *u) {
    printf("{\"ops\": %llu, \"shards\": %llu, \"queue_ns\": %llu, \"run_ns\": %llu, "
           "\"cost\": %.17g, \"expired\": %llu}",
           (unsigned long long)u->ops, (unsigned long long)u->shards,
           (unsigned long long)u->queueNs, (unsigned long long)u->runNs, u->cost,
           (unsigned long long)u->expired);
}

/* `trnsci status --json`: the same facts as one JSON object. */
static int status_json(const char *addr, const trnsciDaemonStatus *st) {
    printf("{\"daemon\": {\"version\": ");
    cli_json_str(stdout, st->daemonVersion);
    printf(", \"protocol\": \"%u.%u\", \"backend\": ", st->protocolMajor, st->protocolMinor);
    cli_json_str(stdout, st->backend);
    printf(", \"cores\": %u, \"sessions\": %u, \"ops_queued\": %llu, \"ops_running\": %llu, "
           "\"ops_completed\": %llu, \"buffers\": %llu, \"bytes_held\": %llu, "
           "\"uptime_ms\": %llu, \"workers\": %u}",
           st->coreCount, st->sessions, (unsigned long long)st->opsQueued,
           (unsigned long long)st->opsRunning, (unsigned long long)st->opsCompleted,
           (unsigned long long)st->buffers, (unsigned long long)st->bytesHeld,
           (unsigned long long)st->uptimeMs, st->workers);
    int nplans = 0;
    trnsciPlanCacheStats ps;
    if (trnsciDaemonGetPlans(addr, NULL, 0, &nplans, &ps) == trnsciSuccess)
        printf(",\n \"plans\": {\"entries\": %d, \"hits\": %llu, \"misses\": %llu, "
               "\"saved_seconds\": %.6f}",
               nplans, (unsigned long long)ps.hits, (unsigned long long)ps.misses, ps.savedSeconds);
    trnsci_json_selftest_status(addr);
    trnsciSessionInfo sl[64];
    int n = 0;
    printf(",\n \"sessions\": [");
    if (trnsciDaemonGetSessions(addr, sl, 64, &n) == trnsciSuccess)
        for (int i = 0; i < n && i < 64; i++) {
            const trnsciSessionInfo *s = &sl[i];
            printf("%s\n  {\"session\": %llu, \"transport\": ", i ? "," : "",
                   (unsigned long long)s->number);
            cli_json_str(stdout, s->transport);
            printf(", \"client\": ");
            cli_json_str(stdout, s->clientName);
            printf(", \"pid\": %u, \"uid\": %u, \"buffers\": %llu, \"bytes\": %llu, "
                   "\"priority\": %d, \"ops_pending\": %u, \"usage\": ",
                   s->pid, s->uid, (unsigned long long)s->buffers, (unsigned long long)s->bytes,
                   s->priority, s->opsPending);
            json_usage(&s->usage);
            printf("}");
        }
    printf("],\n \"workers\": [");
    trnsciWorkerInfo wl[256];
    if (trnsciDaemonGetWorkers(addr, wl, 256, &n) == trnsciSuccess)
        for (int i = 0; i < n && i < 256; i++) {
            printf("%s\n  {\"engine\": ", i ? "," : "");
            cli_json_str(stdout, wl[i].engine);
            printf(", \"index\": %u, \"cpu\": %d, \"usage\": ", wl[i].index, wl[i].cpu);
            json_usage(&wl[i].usage);
            printf("}");
        }
    printf("]}\n");
    return 0;
}

static int cmd_status(const char *addr, int json) {
    trnsciDaemonStatus st;
    const trnsciError_t e = trnsciDaemonGetStatus(addr, &st);
    if (e != trnsciSuccess) {
        fprintf(stderr, "trnsci: %s: %s\n", trnsciGetErrorName(e), trnsciGetLastErrorMessage());
        return 1;
    }
    if (json)
        return status_json(addr, &st);
    printf("daemon version: %s (protocol %u.%u, backend %s)\n", st.daemonVersion, st.protocolMajor,
           st.protocolMinor, st.backend);
    printf("cores:          %u\n", st.coreCount);
    trnsciSessionInfo list[64];
    int n = 0;
    if (trnsciDaemonGetSessions(addr, list, 64, &n) != trnsciSuccess)
        n = 0;
    printf("sessions:       %u", st.sessions);
    if ((unsigned)n < st.sessions)
        printf(" (%d listed: the daemon lists only the sessions this caller may see)", n);
    printf("\n");
    printf("ops queued:     %llu\n", (unsigned long long)st.opsQueued);
    printf("ops running:    %llu\n", (unsigned long long)st.opsRunning);
    printf("ops completed:  %llu\n", (unsigned long long)st.opsCompleted);
    printf("buffers:        %llu\n", (unsigned long long)st.buffers);
    printf("bytes held:     ");
    print_bytes((unsigned long long)st.bytesHeld);
    printf("\nuptime:         %.1f s\n", (double)st.uptimeMs / 1000.0);
    int nplans = 0;
    trnsciPlanCacheStats ps;
    if (trnsciDaemonGetPlans(addr, NULL, 0, &nplans, &ps) == trnsciSuccess)
        printf("plans:          %d cached, %llu hits, %llu misses, %.3f s planning saved "
               "(trnsci plans)\n",
               nplans, (unsigned long long)ps.hits, (unsigned long long)ps.misses, ps.savedSeconds);
    printf("workers:        %u\n", st.workers);
    trnsci_print_selftest_status(addr);

    print_sessions(list, n);
    print_workers(addr, st.uptimeMs);
    return 0;
}

int main(int argc, char **argv) {
    const char *addr = NULL;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--addr") == 0 && i + 1 < argc)
            addr = argv[++i];
        else if (strncmp(argv[i], "--addr=", 7) == 0)
            addr = argv[i] + 7;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else
            break;
    }
    if (i >= argc) {
        fputs(usage, stderr);
        return 2;
    }
    /* --json after the command, on every read command. */
    int json = 0, nargs = 0;
    char *args[32];
    for (int k = i + 1; k < argc && nargs < 32; k++) {
        if (strcmp(argv[k], "--json") == 0)
            json = 1;
        else
            args[nargs++] = argv[k];
    }
    if (strcmp(argv[i], "status") == 0 && nargs == 0)
        return cmd_status(addr, json);
    if (strcmp(argv[i], "plans") == 0)
        return trnsci_cmd_plans(addr, nargs, args, json);
    if (strcmp(argv[i], "top") == 0)
        return trnsci_cmd_top(addr, nargs, args, json);
    if (strcmp(argv[i], "bench") == 0)
        return trnsci_cmd_bench(addr, nargs, args, json);
    if (strcmp(argv[i], "selftest") == 0)
        return trnsci_cmd_selftest(addr, nargs, args, json);
    fprintf(stderr, "trnsci: unknown command '%s'\n\n%s", argv[i], usage);
    return 2;
}
