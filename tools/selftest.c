/*
 * selftest.c — `trnsci selftest [--latest] [--json]`: runs the daemon's
 * self-test of the outside routines again (or, with --latest, shows the
 * last run) and prints a line per routine: what its checks found and what
 * the daemon runs for it. Also the self-test lines of `trnsci status`.
 *
 * Exit status: 0 when every routine passed with its library routine, 1 when
 * some were replaced or refused (or the daemon could not be asked).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/fmt.h"
#include "trnsci/trnsci.h"

#define MAX_ROUTINES 512

/* Two lines; `indent` starts the second (under a label of `trnsci status`). */
static void print_summary(const trnsciSelfTestSummary *s, const char *indent) {
    printf("%u routines checked in %.2f s (%s, %u processes): %u passed, %u replaced, %u "
           "refused\n",
           s->checked, s->seconds, s->onDemand ? "on demand" : "at start-up", s->processes,
           s->passed, s->replaced, s->refused);
    printf("%sOpenBLAS kernel set %s (%s); %s\n", indent, s->blasCore, s->blasWhy, s->blasConfig);
}

static void print_table(const trnsciSelfTestRoutine *r, int n) {
    printf("%-22s %-6s %-8s %-30s %6s %6s %9s %8s\n", "ROUTINE", "GROUP", "RESULT", "RUNS", "CASES",
           "FAILED", "WORST", "MS");
    for (int i = 0; i < n; i++)
        printf("%-22s %-6s %-8s %-30s %6u %6u %9.2g %8.1f\n", r[i].routine, r[i].group, r[i].result,
               r[i].used, r[i].cases, r[i].failedCases, r[i].worstRatio, r[i].ms);
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(r[i].result, "passed") == 0)
            continue;
        if (!shown++)
            printf("\n");
        printf("%s (%s): %s\n", r[i].routine, r[i].verdict, r[i].detail);
    }
}

static void print_json(const trnsciSelfTestRoutine *r, int n, const trnsciSelfTestSummary *s) {
    printf("{\"checked\": %u, \"passed\": %u, \"replaced\": %u, \"refused\": %u, "
           "\"seconds\": %.6f, \"processes\": %u, \"on_demand\": %s, \"finished_unix_ms\": %llu, "
           "\"blas_core\": ",
           s->checked, s->passed, s->replaced, s->refused, s->seconds, s->processes,
           s->onDemand ? "true" : "false", (unsigned long long)s->finishedUnixMs);
    cli_json_str(stdout, s->blasCore);
    printf(", \"blas_why\": ");
    cli_json_str(stdout, s->blasWhy);
    printf(", \"blas_config\": ");
    cli_json_str(stdout, s->blasConfig);
    printf(",\n \"routines\": [");
    for (int i = 0; i < n; i++) {
        printf("%s\n  {\"routine\": ", i ? "," : "");
        cli_json_str(stdout, r[i].routine);
        printf(", \"group\": ");
        cli_json_str(stdout, r[i].group);
        printf(", \"result\": ");
        cli_json_str(stdout, r[i].result);
        printf(", \"used\": ");
        cli_json_str(stdout, r[i].used);
        printf(", \"verdict\": ");
        cli_json_str(stdout, r[i].verdict);
        printf(", \"cases\": %u, \"failed_cases\": %u, \"worst_ratio\": %.6g, \"ms\": %.3f, "
               "\"detail\": ",
               r[i].cases, r[i].failedCases, r[i].worstRatio, r[i].ms);
        cli_json_str(stdout, r[i].detail);
        printf("}");
    }
    printf("]}\n");
}

int trnsci_cmd_selftest(const char *addr, int argc, char **argv, int json) {
    int rerun = 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--latest") == 0) {
            rerun = 0;
            continue;
        }
        fprintf(stderr, "trnsci selftest: unknown argument '%s'\n", argv[i]);
        return 2;
    }
    trnsciSelfTestRoutine *list = calloc(MAX_ROUTINES, sizeof(*list));
    if (!list) {
        fprintf(stderr, "trnsci: out of memory\n");
        return 1;
    }
    int n = 0;
    trnsciSelfTestSummary s;
    const trnsciError_t e = trnsciDaemonSelfTest(addr, rerun, list, MAX_ROUTINES, &n, &s);
    if (e != trnsciSuccess) {
        fprintf(stderr, "trnsci: %s: %s\n", trnsciGetErrorName(e), trnsciGetLastErrorMessage());
        free(list);
        return 1;
    }
    if (n > MAX_ROUTINES)
        n = MAX_ROUTINES;
    if (json) {
        print_json(list, n, &s);
    } else {
        print_table(list, n);
        printf("\n");
        print_summary(&s, "");
    }
    free(list);
    return s.passed == s.checked ? 0 : 1;
}

void trnsci_print_selftest_status(const char *addr) {
    trnsciSelfTestRoutine *list = calloc(MAX_ROUTINES, sizeof(*list));
    int n = 0;
    trnsciSelfTestSummary s;
    if (!list || trnsciDaemonSelfTest(addr, 0, list, MAX_ROUTINES, &n, &s) != trnsciSuccess) {
        free(list);
        return;
    }
    printf("self-test:      ");
    print_summary(&s, "                ");
    for (int i = 0; i < n && i < MAX_ROUTINES; i++)
        if (strcmp(list[i].result, "passed") != 0)
            printf("                %s %s: %s (%s)\n", list[i].routine, list[i].result,
                   list[i].used, list[i].verdict);
    free(list);
}

void trnsci_json_selftest_status(const char *addr) {
    trnsciSelfTestSummary s;
    int n = 0;
    trnsciSelfTestRoutine *list = calloc(MAX_ROUTINES, sizeof(*list));
    if (!list || trnsciDaemonSelfTest(addr, 0, list, MAX_ROUTINES, &n, &s) != trnsciSuccess) {
        free(list);
        return;
    }
    printf(",\n \"selftest\": {\"checked\": %u, \"passed\": %u, \"replaced\": %u, \"refused\": %u, "
           "\"seconds\": %.6f, \"blas_core\": ",
           s.checked, s.passed, s.replaced, s.refused, s.seconds);
    cli_json_str(stdout, s.blasCore);
    printf(", \"not_passed\": [");
    int k = 0;
    for (int i = 0; i < n && i < MAX_ROUTINES; i++) {
        if (strcmp(list[i].result, "passed") == 0)
            continue;
        printf("%s{\"routine\": ", k++ ? ", " : "");
        cli_json_str(stdout, list[i].routine);
        printf(", \"result\": ");
        cli_json_str(stdout, list[i].result);
        printf(", \"used\": ");
        cli_json_str(stdout, list[i].used);
        printf("}");
    }
    printf("]}");
    free(list);
}
