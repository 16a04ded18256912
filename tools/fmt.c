/*
 * fmt.c — see fmt.h.
 */
#include "tools/fmt.h"

void cli_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void cli_si(char *buf, size_t len, double v) {
    const char *unit[] = {"", "k", "M", "G", "T", "P", "E"};
    int u = 0;
    while (v >= 999.5 && u < 6) {
        v /= 1000.0;
        u++;
    }
    snprintf(buf, len, u ? "%.3g%s" : "%.0f%s", v, unit[u]);
}
