/*
 * main.c — trnscid's entry point: parse flags, pick OpenBLAS's kernel set,
 * start, serve, stop.
 * Exit status: 0 after a clean shutdown, 1 when start-up fails, 2 for bad
 * flags. `--self-test` exits 0/1 (see selftest.h); `--self-test-child` is
 * how the self-test starts its child processes (not for people).
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/blas_coretype.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/selftest.h"

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--self-test-child") == 0)
        return trn_selftest_child(argc - 2, argv + 2);
    trn_log_init();
    trnscid d = {.argc = argc, .argv = argv};
    char err[512];
    const trn_config_result r = trn_config_parse(&d.cfg, argc, argv, err, sizeof(err));
    if (r != TRN_CONFIG_OK) {
        if (r == TRN_CONFIG_ERROR)
            fprintf(stderr, "trnscid: %s\n", err);
        trn_config_free(&d.cfg);
        return r == TRN_CONFIG_EXIT_OK ? 0 : 2;
    }
    if (d.cfg.check_only) {
        char want[32];
        if (trn_blas_coretype_choose(d.cfg.blas_coretype, openblas_get_corename(),
                                     getenv("OPENBLAS_CORETYPE"), want, sizeof(want), d.blas_why,
                                     sizeof(d.blas_why), err, sizeof(err)) != 0) {
            fprintf(stderr, "trnscid: %s\n", err);
            trn_config_free(&d.cfg);
            return 2;
        }
        printf("trnscid: configuration OK (%s and the command line)\n",
               d.cfg.config_path ? d.cfg.config_path : "no config file");
        trn_config_free(&d.cfg);
        return 0;
    }
    /* May start the process again with OPENBLAS_CORETYPE set. */
    if (trn_blas_coretype_apply(d.cfg.blas_coretype, argv, d.blas_why, sizeof(d.blas_why), err,
                                sizeof(err)) != 0) {
        fprintf(stderr, "trnscid: %s\n", err);
        trn_config_free(&d.cfg);
        return 2;
    }
    if (d.cfg.self_test_only) {
        const int status = trn_selftest_cli(d.cfg.ncores, d.blas_why);
        trn_config_free(&d.cfg);
        return status;
    }
    trn_log_set_level(d.cfg.log_level);
    if (trnscid_start(&d) != 0) {
        trn_config_free(&d.cfg);
        return 1;
    }
    trnscid_run(&d);
    trnscid_stop(&d);
    trn_config_free(&d.cfg);
    return 0;
}
