/*
 * fuzz_tokens.c — libFuzzer target: the tokens file parser and the bearer
 * check. Input: a tokens file's text. Whatever it holds, parsing either
 * fails leaving an empty table or yields tokens within the documented
 * bounds, and each parsed secret authenticates as its own token.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/token.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    trn_tokens t;
    memset(&t, 0, sizeof(t));
    char err[256];
    if (trn_tokens_parse(&t, (const char *)data, size, "fuzz", err, sizeof(err)) != 0) {
        if (t.n || t.v)
            abort();
        return 0;
    }
    for (size_t i = 0; i < t.n; i++) {
        const trn_token *tk = t.v[i];
        if (tk->secret_len < TRN_TOKEN_SECRET_MIN || tk->secret_len > TRN_TOKEN_SECRET_MAX ||
            strlen(tk->name) == 0 || strlen(tk->name) >= TRN_TOKEN_NAME_MAX)
            abort();
        char value[8 + TRN_TOKEN_SECRET_MAX];
        const int n = snprintf(value, sizeof(value), "Bearer %.*s", (int)tk->secret_len,
                               (const char *)tk->secret);
        if (trn_tokens_authenticate(&t, value, (size_t)n) != tk)
            abort();
    }
    trn_tokens_free(&t);
    return 0;
}
