/*
 * config.h — trnscid's settings: the config file and the command line.
 *
 * The settings that a reload may change while the daemon runs (quotas,
 * priority ceiling, lease) are _Atomic: the main thread writes them on SIGHUP
 * while frontend and worker threads read them.
 */
#ifndef TRN_DAEMON_CONFIG_H
#define TRN_DAEMON_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/log.h"
#include "ops/op.h"

#define TRN_CONFIG_MAX_LISTEN 8
#define TRN_CONFIG_MAX_CORES 1024
/* --run-ahead auto (the default): the daemon decides at start (daemon.c). */
#define TRN_RUN_AHEAD_AUTO (-1)
#define TRN_CONFIG_DEFAULT_FILE "/etc/trnscid/trnscid.conf"

/* A setting as the file or a flag gave it. */
typedef struct trn_config_setting {
    const char *key; /* the flag's name without "--" (static storage) */
    char *value;     /* "true" for a flag without an argument */
} trn_config_setting;

typedef enum trn_backend_choice {
    TRN_BACKEND_AUTO = 0, /* neuron when libnrt loads and reports cores, else cpu */
    TRN_BACKEND_CPU = 1,
    TRN_BACKEND_NEURON = 2,
} trn_backend_choice;

/* What a device pointer is to a local client (docs/neuron.md, "Memory
 * model"): the client's mapping of the buffer's shared memory, or an opaque
 * address whose bytes only the daemon touches. */
typedef enum trn_pointer_choice {
    TRN_POINTERS_AUTO = 0, /* opaque on the Neuron backend, mapped on the CPU one */
    TRN_POINTERS_MAPPED = 1,
    TRN_POINTERS_OPAQUE = 2,
} trn_pointer_choice;

typedef struct trn_config {
    /* "unix:/path" (local transport), "grpc+unix:/path" or "host:port" (gRPC) */
    char *listen[TRN_CONFIG_MAX_LISTEN];
    int nlisten;
    int cpus[TRN_CONFIG_MAX_CORES]; /* CPU each worker is pinned to */
    int ncores;
    int ncopy;                 /* copy engine workers (data movement) */
    char *cache_dir;           /* NULL: no persistent plan cache */
    uint64_t plan_cache_bytes; /* bound of the plan cache's unused plans */
    trn_plan_effort plan_effort;
    char *socket_group;                 /* group of the local sockets, or NULL */
    _Atomic uint64_t max_session_bytes; /* per-session buffer quota */
    /* Per user: the sessions of one kernel-checked uid (local and grpc+unix
     * clients), and likewise those of one bearer token. */
    _Atomic uint32_t max_sessions_per_uid;
    _Atomic uint64_t max_bytes_per_uid;      /* buffer bytes of one user's sessions */
    _Atomic uint32_t max_queued_ops_per_uid; /* ops one user's sessions have queued */
    _Atomic uint32_t max_streams;            /* per session, default stream included */
    _Atomic uint32_t max_queued_ops;         /* per session: submitted and not yet completed */
    _Atomic uint32_t max_events;             /* per session */
    /* Session priorities run from TRN_PRIORITY_LEAST (lowest) to
     * TRN_PRIORITY_GREATEST; a client may ask for any of them, and gets at
     * most priority_ceiling (a number: lower is more urgent). */
    _Atomic int priority_ceiling;
    _Atomic uint32_t lease_ms; /* lease of a session with no Attach stream */
    trn_log_level log_level;
    char *metrics_listen; /* "host:port" of the metrics endpoint, or NULL */
    char *config_path;    /* the file read, or NULL */
    int check_only;       /* --check-config: parse, report and exit */
    int self_test_only;   /* --self-test: check the outside routines, report and exit */
    char *blas_coretype;  /* --blas-coretype: OpenBLAS's kernel set (blas_coretype.h); NULL auto */
    /* Every setting applied, in order (file, then flags). */
    trn_config_setting *settings;
    int nsettings, settings_cap;
    /* Remote access (daemon/tls.h, daemon/token.h). */
    char *tls_cert;                /* PEM certificate chain of the TCP listeners, or NULL */
    char *tls_key;                 /* its private key */
    char *tls_client_ca;           /* when set, clients must present a certificate it signed */
    char *tokens_file;             /* when set, every gRPC call needs a bearer token */
    int insecure_remote;           /* allow a non-loopback TCP listener without TLS */
    int allow_unauthenticated_tcp; /* allow a TCP listener without a tokens file */
    /* Executor processes (daemon/executor.h). */
    int executors;     /* kernels run in them (default) */
    int convert_ahead; /* format conversions as copy-engine stages (ops/convert_stage.h) */
    int run_ahead;     /* conversions started before their turn (scheduler/sched.h):
                          1, 0 or TRN_RUN_AHEAD_AUTO (daemon.c decides) */
    uint64_t executor_watchdog_floor_ms; /* the least an op may run */
    uint32_t executor_watchdog_factor;   /* × its estimated time, if longer */
    int fault_injection;                 /* test builds: the test-fault ops run */
    /* The compute backend (kernels/neuron/backend_neuron.h). */
    trn_backend_choice backend;
    trn_pointer_choice device_pointers;
    char *neuron_lib;     /* libnrt, or NULL: the default places */
    char *neuron_cc;      /* the compiler driver, or NULL: none */
    char *neuron_kernels; /* the NKI sources, or NULL: the installed ones */
    char *neuron_target;  /* "trn1" (NULL) or "trn2" */
    uint32_t neuron_compile_jobs;
    uint32_t neuron_compile_timeout_s;
    uint32_t neuron_split_min_mflop; /* 0: GEMMs are never split over NeuronCores */
    int neuron_resident;             /* GEMM operands stay in a core's memory until they change */
    int neuron_locality;             /* a big GEMM goes to the core that holds its inputs */
    int neuron_in_place;             /* real GEMM operands move as they lie (program.h layout=cm) */
    int neuron_core_copies;          /* one copy per core of such a matrix, bound by programs */
} trn_config;

/* Session priorities, numbered like CUDA stream priorities: lower numbers
 * are more urgent, 0 is the default. A session of priority p gets 2^-p times
 * the share of a session of priority 0. */
#define TRN_PRIORITY_LEAST 3
#define TRN_PRIORITY_GREATEST (-3)

typedef enum trn_config_result {
    TRN_CONFIG_OK = 0,
    TRN_CONFIG_EXIT_OK, /* --help / --version printed: exit 0 */
    TRN_CONFIG_ERROR,   /* message in err: exit 2 */
} trn_config_result;

/* Fills cfg over the defaults from the config file (--config FILE, else
 * TRN_CONFIG_DEFAULT_FILE if it exists) and then from argv. Must be paired
 * with trn_config_free whatever it returns. */
trn_config_result trn_config_parse(trn_config *cfg, int argc, char **argv, char *err,
                                   size_t errlen);
void trn_config_free(trn_config *cfg);

/* The i-th key a config file may set (0, 1, ...), NULL past the last. */
const char *trn_config_key(int i);
/* The value cfg's file and flags gave `key`, as text (the repeatable
 * "listen" joins its values with commas). Returns 0 when nothing set it. */
int trn_config_value(const trn_config *cfg, const char *key, char *buf, size_t len);
/* Makes live's record of `key` what fresh's is (after a reload applied it).
 * Returns 0, or -1 when out of memory. */
int trn_config_adopt(trn_config *live, const trn_config *fresh, const char *key);

/* The default local socket address: unix:$XDG_RUNTIME_DIR/trnscid.sock, or
 * unix:/run/trnscid/trnscid.sock. Writes into buf; returns buf. */
char *trn_config_default_listen(char *buf, size_t len);

/* Parses "123", "64K", "512M", "8G", "1T" (binary multiples). Returns 0/-1. */
int trn_config_parse_bytes(const char *s, uint64_t *out);
/* Parses "N" (the first N CPUs this process may run on) or a list such as
 * "0,2-3". Returns 0, or -1 with err written. */
int trn_config_parse_cores(const char *s, int *cpus, int *ncores, char *err, size_t errlen);

#endif
