/*
 * fmt.h — the output formatting the `trnsci` commands share: JSON strings
 * for --json (one object per command on stdout, keys in a fixed order) and
 * counts with SI suffixes for the tables.
 */
#ifndef TRN_TOOLS_FMT_H
#define TRN_TOOLS_FMT_H

#include <stddef.h>
#include <stdio.h>

/* Writes s as a JSON string (quotes and escapes included). */
void cli_json_str(FILE *f, const char *s);

/* A count with an SI suffix in at most 7 characters: 950, 12.3k, 4.56G. */
void cli_si(char *buf, size_t len, double v);

#endif
