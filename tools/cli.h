/*
 * cli.h — the `trnsci` tool's commands, one file each (tools/).
 */
#ifndef TRN_TOOLS_CLI_H
#define TRN_TOOLS_CLI_H

/* `trnsci plans [clear | warm FILE]` (plans.c); argv holds the words after
 * "plans". Returns the exit status. */
int trnsci_cmd_plans(const char *addr, int argc, char **argv);

#endif
