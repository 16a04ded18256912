/*
 * blas_coretype.c — choosing and applying OpenBLAS's kernel set (see
 * blas_coretype.h).
 *
 * What the CPU can run comes from the "flags" line of /proc/cpuinfo, which
 * lists only the instruction sets the kernel has enabled (no AVX there
 * without OS support for its registers).
 */
#include "daemon/blas_coretype.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cblas.h>

#include "daemon/self_exe.h"

/* The kernel sets this module knows, best last, with the /proc/cpuinfo
 * flags each needs. */
static const struct coretype {
    const char *name;
    const char *flags[7];
} coretypes[] = {
    {"Prescott", {"pni"}},
    {"Nehalem", {"pni", "sse4_2"}},
    {"Sandybridge", {"avx"}},
    {"Zen", {"avx", "avx2", "fma"}},
    {"Haswell", {"avx", "avx2", "fma"}},
    {"SkylakeX", {"avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}},
    {"Cooperlake",
     {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16", "fma"}},
};
#define NCORETYPES (sizeof(coretypes) / sizeof(coretypes[0]))

/* The flags line of /proc/cpuinfo, space-padded at both ends ("" when it
 * cannot be read). */
static void cpu_flags(char *buf, size_t len) {
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[8192];
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, "flags", 5) == 0) {
            const char *colon = strchr(line, ':');
            snprintf(buf, len, " %s", colon ? colon + 1 : "");
            const size_t n = strlen(buf);
            if (n > 0 && buf[n - 1] == '\n')
                buf[n - 1] = ' ';
            break;
        }
    fclose(f);
}

static int has_flag(const char *flags, const char *flag) {
    char word[64];
    snprintf(word, sizeof(word), " %s ", flag);
    return strstr(flags, word) != NULL;
}

static const struct coretype *find(const char *name) {
    for (size_t i = 0; i < NCORETYPES; i++)
        if (strcasecmp(coretypes[i].name, name) == 0)
            return &coretypes[i];
    return NULL;
}

/* 1 when flags has everything ct needs, else 0 with the first missing flag. */
static int runnable(const struct coretype *ct, const char *flags, char *missing, size_t len) {
    for (int i = 0; i < 7 && ct->flags[i]; i++)
        if (!has_flag(flags, ct->flags[i])) {
            if (missing)
                snprintf(missing, len, "%s", ct->flags[i]);
            return 0;
        }
    return 1;
}

int trn_blas_coretype_runnable(const char *name, char *missing, size_t len) {
    const struct coretype *ct = find(name);
    if (!ct)
        return -1;
    char flags[8192];
    cpu_flags(flags, sizeof(flags));
    return runnable(ct, flags, missing, len);
}

/* The best kernel set the CPU can run among the AVX2 and AVX-512 ones, or
 * NULL. */
static const char *best_runnable(const char *flags) {
    static const char *const order[] = {"Cooperlake", "SkylakeX", "Haswell"};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
        if (runnable(find(order[i]), flags, NULL, 0))
            return order[i];
    return NULL;
}

static const char *known_names(void) {
    return "auto, default, Prescott, Nehalem, Sandybridge, Haswell, Zen, SkylakeX or Cooperlake";
}

int trn_blas_coretype_choose(const char *setting, const char *loaded, const char *env, char *want,
                             size_t wantlen, char *why, size_t whylen, char *err, size_t errlen) {
    want[0] = '\0';
    if (!setting || strcasecmp(setting, "auto") == 0) {
        if (env && env[0]) {
            snprintf(why, whylen, "from OPENBLAS_CORETYPE=%s in the environment", env);
            return 0;
        }
        if (strcasecmp(loaded, "Prescott") != 0) {
            snprintf(why, whylen, "OpenBLAS's choice for this CPU");
            return 0;
        }
        char flags[8192];
        cpu_flags(flags, sizeof(flags));
        const char *best = best_runnable(flags);
        if (!best) {
            snprintf(why, whylen, "OpenBLAS's choice for this CPU (it has no AVX2)");
            return 0;
        }
        snprintf(want, wantlen, "%s", best);
        snprintf(why, whylen,
                 "auto: OpenBLAS does not know this CPU model and would run its generic "
                 "Prescott kernels; the CPU runs %s's (--blas-coretype default keeps Prescott)",
                 best);
        return 0;
    }
    if (strcasecmp(setting, "default") == 0) {
        snprintf(why, whylen, "%s (--blas-coretype default)",
                 env && env[0] ? "from OPENBLAS_CORETYPE in the environment"
                               : "OpenBLAS's choice for this CPU");
        return 0;
    }
    const struct coretype *ct = find(setting);
    if (!ct) {
        snprintf(err, errlen, "--blas-coretype %s: expected %s", setting, known_names());
        return -1;
    }
    char flags[8192], missing[32];
    cpu_flags(flags, sizeof(flags));
    if (!runnable(ct, flags, missing, sizeof(missing))) {
        snprintf(err, errlen, "--blas-coretype %s: this CPU cannot run those kernels (it lacks %s)",
                 ct->name, missing);
        return -1;
    }
    snprintf(why, whylen, "from --blas-coretype %s", ct->name);
    if (strcasecmp(loaded, ct->name) != 0)
        snprintf(want, wantlen, "%s", ct->name);
    return 0;
}

/* Carries why from the first start to the second (after exec). */
#define WHY_VARIABLE "TRNSCID_BLAS_CORETYPE_WHY"

int trn_blas_coretype_apply(const char *setting, char *const argv[], char *why, size_t whylen,
                            char *err, size_t errlen) {
    const char *loaded = openblas_get_corename();
    const char *env = getenv("OPENBLAS_CORETYPE");
    const char *carried = getenv(WHY_VARIABLE);
    char want[32];
    if (trn_blas_coretype_choose(setting, loaded, env, want, sizeof(want), why, whylen, err,
                                 errlen) != 0)
        return -1;
    if (carried && env && strcasecmp(env, loaded) == 0) {
        /* The second start after our own exec: say why it was made. */
        snprintf(why, whylen, "%s", carried);
        unsetenv(WHY_VARIABLE);
        return 0;
    }
    if (!want[0])
        return 0;
    if (env && strcasecmp(env, want) == 0) {
        snprintf(err, errlen,
                 "OPENBLAS_CORETYPE=%s is set but OpenBLAS runs its %s kernels; refusing to "
                 "start again",
                 env, loaded);
        return -1;
    }
    if (setenv("OPENBLAS_CORETYPE", want, 1) != 0 || setenv(WHY_VARIABLE, why, 1) != 0) {
        snprintf(err, errlen, "cannot set OPENBLAS_CORETYPE: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    char exe[4096];
    execv(trn_self_exe(exe, sizeof(exe)), argv);
    snprintf(err, errlen, "cannot start again with OPENBLAS_CORETYPE=%s: %s", want,
             strerror(errno));
    return -1;
}
