/*
 * json.h — the small JSON writer the `trnsci` commands share for --json:
 * one object per command on stdout, keys in a fixed order.
 */
#ifndef TRN_TOOLS_JSON_H
#define TRN_TOOLS_JSON_H

#include <stdio.h>

/* Writes s as a JSON string (quotes and escapes included). */
void cli_json_str(FILE *f, const char *s);

#endif
