/*
 * main.c — trnscid's entry point: parse flags, start, serve, stop.
 * Exit status: 0 after a clean shutdown, 1 when start-up fails, 2 for bad
 * flags.
 */
#include <stdio.h>

#include "daemon/daemon.h"
#include "daemon/log.h"

int main(int argc, char **argv) {
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
        printf("trnscid: configuration OK (%s and the command line)\n",
               d.cfg.config_path ? d.cfg.config_path : "no config file");
        trn_config_free(&d.cfg);
        return 0;
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
