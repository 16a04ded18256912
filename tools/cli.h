/*
 * cli.h — the `trnsci` tool's commands, one file each (tools/).
 */
#ifndef TRN_TOOLS_CLI_H
#define TRN_TOOLS_CLI_H

/* `trnsci plans [clear | warm FILE] [--json]` (plans.c); argv holds the
 * words after "plans" (--json removed). Returns the exit status. */
int trnsci_cmd_plans(const char *addr, int argc, char **argv, int json);

/* `trnsci bench [--json]` (bench.c): a quick self-check of each family. */
int trnsci_cmd_bench(const char *addr, int argc, char **argv, int json);

/* `trnsci top [--once] [--interval S] [--iterations N] [--json]` (top.c). */
int trnsci_cmd_top(const char *addr, int argc, char **argv, int json);

/* `trnsci selftest [--latest] [--json]` (selftest.c): the daemon's self-test
 * of the outside routines, run again (or the latest run). */
int trnsci_cmd_selftest(const char *addr, int argc, char **argv, int json);
/* The self-test's lines of `trnsci status` (and its JSON member, with a
 * leading comma). Print nothing when the daemon cannot say. */
void trnsci_print_selftest_status(const char *addr);
void trnsci_json_selftest_status(const char *addr);

#endif
