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
                            "  status    print the daemon's version, cores, sessions, queued and\n"
                            "            running ops, and bytes held\n"
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
