/*
 * trnsci — the command-line tool for a running trnscid.
 *
 *   trnsci status [--addr ADDR]   version, cores, sessions, queued/running ops,
 *                                 bytes held
 */
#include <stdio.h>
#include <string.h>

#include "trnsci/trnsci.h"

static const char usage[] = "usage: trnsci [--addr ADDR] COMMAND\n"
                            "\n"
                            "commands:\n"
                            "  status    print the daemon's version, cores, queued and running\n"
                            "            ops, bytes held, and each session with its transport\n"
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

static int cmd_status(const char *addr) {
    trnsciDaemonStatus st;
    const trnsciError_t e = trnsciDaemonGetStatus(addr, &st);
    if (e != trnsciSuccess) {
        fprintf(stderr, "trnsci: %s: %s\n", trnsciGetErrorName(e), trnsciGetLastErrorMessage());
        return 1;
    }
    printf("daemon version: %s (protocol %u.%u, backend %s)\n", st.daemonVersion, st.protocolMajor,
           st.protocolMinor, st.backend);
    printf("cores:          %u\n", st.coreCount);
    printf("sessions:       %u\n", st.sessions);
    printf("ops queued:     %llu\n", (unsigned long long)st.opsQueued);
    printf("ops running:    %llu\n", (unsigned long long)st.opsRunning);
    printf("ops completed:  %llu\n", (unsigned long long)st.opsCompleted);
    printf("buffers:        %llu\n", (unsigned long long)st.buffers);
    printf("bytes held:     ");
    print_bytes((unsigned long long)st.bytesHeld);
    printf("\nuptime:         %.1f s\n", (double)st.uptimeMs / 1000.0);

    trnsciSessionInfo list[64];
    int n = 0;
    if (trnsciDaemonGetSessions(addr, list, 64, &n) != trnsciSuccess || n == 0)
        return 0;
    printf("\n%-16s  %-9s  %8s  %6s  %8s  %14s  %s\n", "SESSION", "TRANSPORT", "PID", "UID",
           "BUFFERS", "BYTES", "CLIENT");
    for (int i = 0; i < n && i < 64; i++)
        printf("%16llu  %-9s  %8u  %6u  %8llu  %14llu  %s\n", (unsigned long long)list[i].number,
               list[i].transport, list[i].pid, list[i].uid, (unsigned long long)list[i].buffers,
               (unsigned long long)list[i].bytes, list[i].clientName);
    if (n > 64)
        printf("... and %d more\n", n - 64);
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
    if (strcmp(argv[i], "status") == 0)
        return cmd_status(addr);
    fprintf(stderr, "trnsci: unknown command '%s'\n\n%s", argv[i], usage);
    return 2;
}
