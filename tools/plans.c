/*
 * plans.c — `trnsci plans`: the daemon's plan cache.
 *
 *   trnsci plans              every cached plan (key, state, hits, build time,
 *                             memory, idle time) and the cache's counters, then
 *                             every cached graph structure (key, nodes, lanes,
 *                             hits, preparation time, plans, idle time)
 *   trnsci plans clear        drop the plans nothing uses
 *   trnsci plans warm FILE    prepare the plans a manifest lists (FILE in the
 *                             format of the cache directory's plans.manifest)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/fmt.h"
#include "trnsci/trnsci.h"

static int fail(const char *what) {
    fprintf(stderr, "trnsci plans: %s: %s\n", what, trnsciGetLastErrorMessage());
    return 1;
}

/* The graph cache: a malloc'd array and its length (0 when empty or on
 * failure). */
static trnsciGraphCacheInfo *graphs_of(const char *addr, int *n) {
    int count = 0;
    *n = 0;
    if (trnsciDaemonGetGraphs(addr, NULL, 0, &count) != trnsciSuccess || count == 0)
        return NULL;
    trnsciGraphCacheInfo *g = calloc((size_t)count, sizeof(*g));
    int got = count;
    if (!g || trnsciDaemonGetGraphs(addr, g, count, &got) != trnsciSuccess) {
        free(g);
        return NULL;
    }
    *n = got < count ? got : count;
    return g;
}

static void graphs_json(const trnsciGraphCacheInfo *g, int n) {
    printf(",\n \"graphs\": [");
    for (int i = 0; i < n; i++) {
        printf("%s\n  {\"key\": ", i ? "," : "");
        cli_json_str(stdout, g[i].key);
        printf(", \"nodes\": %u, \"lanes\": %u, \"hits\": %llu, \"prepare_seconds\": %.6f, "
               "\"plans\": %u, \"idle_ms\": %llu}",
               g[i].nodes, g[i].lanes, (unsigned long long)g[i].hits, g[i].prepareSeconds,
               g[i].plans, (unsigned long long)g[i].idleMs);
    }
    printf("]");
}

static void graphs_text(const trnsciGraphCacheInfo *g, int n) {
    printf("graph cache: %d graphs\n", n);
    if (n)
        printf("%-44s %7s %5s %6s %10s %5s %10s\n", "KEY", "NODES", "LANES", "HITS", "PREP s",
               "PLANS", "IDLE s");
    for (int i = 0; i < n; i++)
        printf("%-44s %7u %5u %6llu %10.3f %5u %10.1f\n", g[i].key, g[i].nodes, g[i].lanes,
               (unsigned long long)g[i].hits, g[i].prepareSeconds, g[i].plans,
               (double)g[i].idleMs / 1000.0);
}

static void list_json(const trnsciPlanCacheStats *st, const trnsciPlanInfo *v, int n) {
    printf("{\"entries\": %llu, \"bytes\": %llu, \"max_bytes\": %llu, \"hits\": %llu, "
           "\"misses\": %llu, \"evictions\": %llu, \"builds\": %llu, \"build_failures\": %llu, "
           "\"build_seconds\": %.6f, \"saved_seconds\": %.6f, \"prewarm_done\": %s,\n "
           "\"plans\": [",
           (unsigned long long)st->entries, (unsigned long long)st->bytes,
           (unsigned long long)st->maxBytes, (unsigned long long)st->hits,
           (unsigned long long)st->misses, (unsigned long long)st->evictions,
           (unsigned long long)st->builds, (unsigned long long)st->buildFailures, st->buildSeconds,
           st->savedSeconds, st->prewarmDone ? "true" : "false");
    for (int i = 0; i < n; i++) {
        printf("%s\n  {\"key\": ", i ? "," : "");
        cli_json_str(stdout, v[i].key);
        printf(", \"state\": ");
        cli_json_str(stdout, v[i].state);
        printf(", \"hits\": %llu, \"uses\": %llu, \"build_seconds\": %.6f, \"bytes\": %llu, "
               "\"idle_ms\": %llu}",
               (unsigned long long)v[i].hits, (unsigned long long)v[i].uses, v[i].buildSeconds,
               (unsigned long long)v[i].bytes, (unsigned long long)v[i].idleMs);
    }
    printf("]");
}

static int list(const char *addr, int json) {
    int count = 0;
    trnsciPlanCacheStats st;
    if (trnsciDaemonGetPlans(addr, NULL, 0, &count, &st) != trnsciSuccess)
        return fail("list");
    trnsciPlanInfo *v = count ? calloc((size_t)count, sizeof(*v)) : NULL;
    int n = count;
    if (count && (!v || trnsciDaemonGetPlans(addr, v, count, &n, &st) != trnsciSuccess)) {
        free(v);
        return fail("list");
    }
    if (n > count)
        n = count; /* plans added between the two calls */
    int ng = 0;
    trnsciGraphCacheInfo *g = graphs_of(addr, &ng);
    if (json) {
        list_json(&st, v, n);
        graphs_json(g, ng);
        printf("}\n");
        free(v);
        free(g);
        return 0;
    }
    printf("plan cache: %llu plans, %llu bytes of %llu; %llu hits, %llu misses, %llu evictions\n",
           (unsigned long long)st.entries, (unsigned long long)st.bytes,
           (unsigned long long)st.maxBytes, (unsigned long long)st.hits,
           (unsigned long long)st.misses, (unsigned long long)st.evictions);
    printf("planning: %llu builds (%llu failed), %.3f s spent, %.3f s saved by hits; pre-warm %s\n",
           (unsigned long long)st.builds, (unsigned long long)st.buildFailures, st.buildSeconds,
           st.savedSeconds, st.prewarmDone ? "done" : "running");
    if (n)
        printf("%-44s %-10s %6s %5s %10s %10s %10s\n", "KEY", "STATE", "HITS", "USES", "BUILD s",
               "BYTES", "IDLE s");
    for (int i = 0; i < n; i++)
        printf("%-44s %-10s %6llu %5llu %10.3f %10llu %10.1f\n", v[i].key, v[i].state,
               (unsigned long long)v[i].hits, (unsigned long long)v[i].uses, v[i].buildSeconds,
               (unsigned long long)v[i].bytes, (double)v[i].idleMs / 1000.0);
    graphs_text(g, ng);
    free(v);
    free(g);
    return 0;
}

/* The whole file (at most 16 MiB), NUL-terminated, or NULL. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = malloc((16u << 20) + 1);
    const size_t n = buf ? fread(buf, 1, 16u << 20, f) : 0;
    const int too_big = buf && n == (16u << 20) && fgetc(f) != EOF;
    fclose(f);
    if (!buf || too_big) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

int trnsci_cmd_plans(const char *addr, int argc, char **argv, int json) {
    if (argc == 0)
        return list(addr, json);
    if (strcmp(argv[0], "clear") == 0 && argc == 1) {
        unsigned cleared = 0, kept = 0;
        if (trnsciDaemonClearPlans(addr, &cleared, &kept) != trnsciSuccess)
            return fail("clear");
        printf("cleared %u plans; %u in use kept\n", cleared, kept);
        return 0;
    }
    if (strcmp(argv[0], "warm") == 0 && argc == 2) {
        char *text = read_file(argv[1]);
        if (!text) {
            fprintf(stderr, "trnsci plans warm: cannot read %s (or it exceeds 16 MiB)\n", argv[1]);
            return 1;
        }
        unsigned queued = 0, rejected = 0;
        const trnsciError_t e = trnsciDaemonWarmPlans(addr, text, &queued, &rejected);
        free(text);
        if (e != trnsciSuccess)
            return fail("warm");
        printf("queued %u plans for preparation", queued);
        if (rejected)
            printf("; %u lines rejected (last: %s)", rejected, trnsciGetLastErrorMessage());
        printf("\n");
        return rejected ? 1 : 0;
    }
    fprintf(stderr, "usage: trnsci plans [clear | warm FILE]\n");
    return 2;
}
