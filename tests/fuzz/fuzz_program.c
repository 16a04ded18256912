/*
 * fuzz_program.c — libFuzzer target: the kernel programs' parameter texts
 * (kernels/neuron/program.h), which the NEFF cache keys by and the
 * simulator reads from NEFF files. Input: a text. Whatever it holds, a
 * parse either fails with a message or gives parameters whose tensors are
 * under 2^40 bytes and that format to a text parsing to the same; a
 * sequence's text is exactly the one its parameters format to (one text
 * per sequence), and its nodes read only earlier nodes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/neuron/program.h"

/* The gemm parser finds its fields by name (it also reads texts written
 * by hand): what it accepts formats to a text that parses to the same. */
static void check_gemm(const char *text) {
    trn_nprog_gemm g, again;
    char err[300], back[TRN_NPROG_PARAMS_LEN];
    if (trn_nprog_gemm_parse(text, &g, err, sizeof(err)) != 0) {
        if (!err[0])
            abort();
        return;
    }
    const trn_nprog_gemm_bytes b = trn_nprog_gemm_sizes(&g);
    if (b.at > (1ull << 40) || b.b > (1ull << 40) || b.c > (1ull << 40) || b.d > (1ull << 40))
        abort();
    if (trn_nprog_gemm_format(&g, back, sizeof(back)) < 0 ||
        trn_nprog_gemm_parse(back, &again, err, sizeof(err)) != 0 ||
        memcmp(&again, &g, sizeof(g)) != 0)
        abort();
}

static void check_seq(const char *text) {
    trn_nprog_seq s;
    char err[400], back[TRN_NPROG_SEQ_PARAMS_LEN];
    if (trn_nprog_seq_parse(text, &s, err, sizeof(err)) != 0) {
        if (!err[0])
            abort();
        return;
    }
    for (int j = 0; j < s.nodes; j++)
        for (int w = 0; w < 3; w++)
            if (s.src[j][w] != TRN_NPROG_SEQ_IN && (s.src[j][w] < 0 || s.src[j][w] >= j))
                abort();
    if (trn_nprog_seq_format(&s, back, sizeof(back)) < 0 || strcmp(back, text) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1024)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    check_gemm(text);
    check_seq(text);
    free(text);
    return 0;
}
