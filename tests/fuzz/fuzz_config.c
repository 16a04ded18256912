/*
 * fuzz_config.c — libFuzzer target: trnscid's config file (daemon/config.c
 * through daemon/config_file.c and inih). Input: the file's text. Whatever
 * it holds, trn_config_parse either refuses it with a "file:line"-style
 * message or yields a configuration within the documented bounds; it never
 * crashes, reads out of bounds or leaks (the config is freed either way).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/trnsci-fuzz-config-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        return 0;
    }
    fwrite(data, 1, size, f);
    fclose(f);

    /* --cores 1 keeps the parse independent of the machine's CPUs. */
    char a0[] = "trnscid", a1[] = "--config", a3[] = "--cores", a4[] = "1";
    char *argv[] = {a0, a1, path, a3, a4, NULL};
    trn_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    char err[512] = "";
    const trn_config_result r = trn_config_parse(&cfg, 5, argv, err, sizeof(err));
    if (r == TRN_CONFIG_ERROR && err[0] == '\0')
        abort(); /* a refusal always says why */
    if (r == TRN_CONFIG_OK && (cfg.nlisten < 1 || cfg.nlisten > TRN_CONFIG_MAX_LISTEN ||
                               cfg.ncores != 1 || cfg.max_streams == 0))
        abort();
    trn_config_free(&cfg);
    unlink(path);
    return 0;
}
