/*
 * nrtsim_cc.c — nrtsim-cc, the simulated kernel compiler, with the command
 * line of program.h:
 *   nrtsim-cc --version
 *   nrtsim-cc compile --source FILE --kernel NAME --params "TEXT"
 *             --target trn1|trn2 --output OUT.neff
 * It checks that FILE defines "def NAME(", that NAME is a kernel it knows
 * (gemm, gemm_seq) and that TEXT is valid for it (trn_nprog_gemm_parse,
 * trn_nprog_seq_parse), and writes the simulated NEFF (format:
 * nrtsim_model.c) with the FNV-1a 64 hash of
 * FILE's bytes, atomically (a temporary file renamed over OUT.neff), so a
 * reader never sees a partial NEFF. Exit 0, or 1 with the reason on stderr
 * (2 for a bad command line).
 *
 * Environment: NRTSIM_CC_MS (default 150) milliseconds of simulated compile
 * time, slept; NRTSIM_CC_FAIL, when set and a substring of TEXT, makes the
 * compile fail ("injected failure").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernels/neuron/program.h"

#define VERSION_LINE "nrtsim-cc 1.0 (simulated neuronx-cc)"

typedef struct options {
    const char *source, *kernel, *params, *target, *output;
} options;

static int usage(void) {
    fprintf(stderr, "usage: nrtsim-cc --version\n"
                    "       nrtsim-cc compile --source FILE --kernel NAME --params TEXT "
                    "--target trn1|trn2 --output OUT.neff\n");
    return 2;
}

static int parse_options(int argc, char **argv, options *o) {
    memset(o, 0, sizeof(*o));
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 >= argc)
            return -1;
        const char *v = argv[i + 1];
        if (strcmp(argv[i], "--source") == 0)
            o->source = v;
        else if (strcmp(argv[i], "--kernel") == 0)
            o->kernel = v;
        else if (strcmp(argv[i], "--params") == 0)
            o->params = v;
        else if (strcmp(argv[i], "--target") == 0)
            o->target = v;
        else if (strcmp(argv[i], "--output") == 0)
            o->output = v;
        else
            return -1;
    }
    return o->source && o->kernel && o->params && o->target && o->output ? 0 : -1;
}

/* The whole file: malloc'd, its length in *len; NULL with errno. */
static unsigned char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    const int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    *len = n;
    return buf;
}

static uint64_t fnv1a64(const unsigned char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Whether hay[0..n) contains the string needle. */
static int contains(const unsigned char *hay, size_t n, const char *needle) {
    const size_t l = strlen(needle);
    for (size_t i = 0; i + l <= n; i++)
        if (memcmp(hay + i, needle, l) == 0)
            return 1;
    return 0;
}

/* Reads the source, checks it defines the kernel, and hashes it. */
static int check_source(const options *o, uint64_t *hash) {
    size_t len = 0;
    unsigned char *src = read_all(o->source, &len);
    if (!src) {
        fprintf(stderr, "nrtsim-cc: error: cannot read %s: %s\n", o->source, strerror(errno));
        return -1;
    }
    char def[128];
    snprintf(def, sizeof(def), "def %s(", o->kernel);
    const int found = strlen(o->kernel) < 100 && contains(src, len, def);
    *hash = fnv1a64(src, len);
    free(src);
    if (!found) {
        fprintf(stderr, "nrtsim-cc: error: %s defines no kernel %s (no \"%s\")\n", o->source,
                o->kernel, def);
        return -1;
    }
    return 0;
}

static void write_tensor(FILE *f, const char *name, const char *usage, uint64_t bytes, int ndim,
                         const uint64_t *dims) {
    fprintf(f, "tensor %s %s float32 %" PRIu64 " %d", name, usage, bytes, ndim);
    for (int i = 0; i < ndim; i++)
        fprintf(f, " %" PRIu64, dims[i]);
    fputc('\n', f);
}

/* The tensors of one GEMM, with names ending in suffix ("" for gemm, the
 * node's index for gemm_seq): its at, b and c inputs (those whose source
 * is an input) or, with output, its d. */
static void write_node(FILE *f, const trn_nprog_gemm *g, const int src[3], const char *suffix,
                       int output) {
    const trn_nprog_gemm_bytes b = trn_nprog_gemm_sizes(g);
    const uint64_t B = (uint64_t)g->batch, P = g->complex ? 2 : 1, M = (uint64_t)g->m,
                   N = (uint64_t)g->n, K = (uint64_t)g->k;
    const int cm = g->layout == TRN_NPROG_COLMAJOR;
    const char *const base[3] = {cm ? "a" : "at", "b", "c"};
    const uint64_t bytes[3] = {b.at, b.b, b.c};
    uint64_t dims[4][4] = {{B, P, K, M}, {B, P, K, N}, {B, P, M, N}, {B, P, M, N}};
    if (cm) { /* program.h: the matrices column by column */
        int rows[2], cols[2];
        trn_nprog_gemm_stored(g, 0, &rows[0], &cols[0]);
        trn_nprog_gemm_stored(g, 1, &rows[1], &cols[1]);
        const uint64_t cmd[4][2] = {{(uint64_t)cols[0], (uint64_t)rows[0]},
                                    {(uint64_t)cols[1], (uint64_t)rows[1]},
                                    {N, M},
                                    {N, M}};
        for (int w = 0; w < 4; w++)
            dims[w][2] = cmd[w][0], dims[w][3] = cmd[w][1];
    }
    char name[16];
    if (output) {
        snprintf(name, sizeof(name), "d%s", suffix);
        write_tensor(f, name, "output", b.d, 4, dims[3]);
        return;
    }
    for (int w = 0; w < 3; w++)
        if (src[w] == TRN_NPROG_SEQ_IN) {
            snprintf(name, sizeof(name), "%s%s", base[w], suffix);
            write_tensor(f, name, "input", bytes[w], 4, dims[w]);
        }
}

/* The NEFF of the program, a gemm (s NULL, g) or a gemm_seq (s): the
 * inputs, scal, then the outputs. */
static void write_neff(FILE *f, const options *o, const trn_nprog_gemm *g, const trn_nprog_seq *s,
                       uint64_t hash) {
    fprintf(f, "NRTSIM-NEFF 1\ntarget %s\nkernel %s\nparams %s\nsource fnv1a64:%016" PRIx64 "\n",
            o->target, o->kernel, o->params, hash);
    const int in3[3] = {TRN_NPROG_SEQ_IN, TRN_NPROG_SEQ_IN, TRN_NPROG_SEQ_IN};
    const uint64_t P = (s ? s->complex : g->complex) ? 2 : 1;
    if (!s) {
        write_node(f, g, in3, "", 0);
        write_tensor(f, "scal", "input", 4 * 2 * P, 1, (const uint64_t[]){2 * P});
        write_node(f, g, in3, "", 1);
    } else {
        for (int out = 0; out <= 1; out++) {
            if (out)
                write_tensor(f, "scal", "input", 4 * 2 * P * (uint64_t)s->nodes, 2,
                             (const uint64_t[]){(uint64_t)s->nodes, 2 * P});
            for (int j = 0; j < s->nodes; j++) {
                char suffix[12];
                snprintf(suffix, sizeof(suffix), "%d", j);
                write_node(f, &s->node[j], s->src[j], suffix, out);
            }
        }
    }
    fputs("end\n", f);
}

/* Writes OUT through a temporary file in its directory and a rename. */
static int write_output(const options *o, const trn_nprog_gemm *g, const trn_nprog_seq *s,
                        uint64_t hash) {
    char tmp[4096];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", o->output, (long)getpid()) >= (int)sizeof(tmp)) {
        fprintf(stderr, "nrtsim-cc: error: output path too long\n");
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "nrtsim-cc: error: cannot write %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    write_neff(f, o, g, s, hash);
    const int bad = ferror(f) | (fflush(f) != 0) | (fsync(fileno(f)) != 0);
    if ((fclose(f) != 0) | bad || rename(tmp, o->output) != 0) {
        fprintf(stderr, "nrtsim-cc: error: cannot write %s: %s\n", o->output, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static void simulate_compile_time(void) {
    const char *s = getenv("NRTSIM_CC_MS");
    const long ms = s && s[0] ? strtol(s, NULL, 10) : 150;
    if (ms <= 0)
        return;
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int compile(const options *o) {
    const char *inject = getenv("NRTSIM_CC_FAIL");
    if (inject && inject[0] && strstr(o->params, inject)) {
        fprintf(stderr, "nrtsim-cc: error: injected failure for %s\n", o->params);
        return 1;
    }
    if (strcmp(o->target, "trn1") != 0 && strcmp(o->target, "trn2") != 0) {
        fprintf(stderr, "nrtsim-cc: error: unknown target %s (trn1 or trn2)\n", o->target);
        return 1;
    }
    uint64_t hash;
    if (check_source(o, &hash) != 0)
        return 1;
    trn_nprog_gemm g;
    trn_nprog_seq s;
    const int seq = strcmp(o->kernel, "gemm_seq") == 0;
    char err[400];
    if (!seq && strcmp(o->kernel, "gemm") != 0) {
        fprintf(stderr, "nrtsim-cc: error: unknown kernel %s\n", o->kernel);
        return 1;
    }
    if (seq ? trn_nprog_seq_parse(o->params, &s, err, sizeof(err)) != 0
            : trn_nprog_gemm_parse(o->params, &g, err, sizeof(err)) != 0) {
        fprintf(stderr, "nrtsim-cc: error: kernel %s: %s\n", o->kernel, err);
        return 1;
    }
    simulate_compile_time();
    return write_output(o, seq ? NULL : &g, seq ? &s : NULL, hash) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        puts(VERSION_LINE);
        return 0;
    }
    options o;
    if (argc < 2 || strcmp(argv[1], "compile") != 0 || parse_options(argc, argv, &o) != 0)
        return usage();
    return compile(&o);
}
