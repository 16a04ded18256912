/*
 * config.c — command-line flags for trnscid. Every setting has a default that
 * makes `trnscid` with no flags a working local daemon on all CPU cores.
 */
#define _GNU_SOURCE
#include "daemon/config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fft_shape.h"
#include "trnsci/trnsci.h"

#define DEFAULT_MAX_SESSION_BYTES (16ULL << 30)
#define DEFAULT_MAX_STREAMS 256u
#define DEFAULT_MAX_QUEUED_OPS 4096u
#define DEFAULT_MAX_SESSIONS_PER_UID 256u
#define DEFAULT_MAX_BYTES_PER_UID (64ULL << 30)
#define DEFAULT_LEASE_MS 30000u
#define DEFAULT_MAX_EVENTS 4096u
#define DEFAULT_COPY_ENGINES 1

static const char usage[] =
    "usage: trnscid [options]\n"
    "\n"
    "The trnsci compute daemon: serves trnblas/trnfft/... requests from many\n"
    "processes over a local socket and gRPC.\n"
    "\n"
    "  --listen ADDR            where to accept clients; repeatable. ADDR is\n"
    "                           unix:/path      local transport (shared memory)\n"
    "                           grpc+unix:/path gRPC on a unix socket\n"
    "                           host:port       gRPC on TCP (e.g. 127.0.0.1:7450)\n"
    "                           Default: unix:$XDG_RUNTIME_DIR/trnscid.sock, or\n"
    "                           unix:/run/trnscid/trnscid.sock without XDG_RUNTIME_DIR\n"
    "  --socket-group GROUP     group of the local sockets (mode 0660; default:\n"
    "                           the daemon's own group)\n"
    "  --cores N|LIST           compute cores: the first N CPUs this process may\n"
    "                           use, or a list such as 0,2-3 (default: all)\n"
    "  --copy-engines N         threads that run data movement (memset, copies,\n"
    "                           staged uploads and downloads) beside the cores,\n"
    "                           like CUDA copy engines; 0 runs it on the cores\n"
    "                           (default 1)\n"
    "  --priority-ceiling P     the most urgent session priority a client may\n"
    "                           ask for, -3..3 (lower is more urgent; default 0:\n"
    "                           clients may only lower their own priority)\n"
    "  --max-events N           events per session (default 4096)\n"
    "  --cache-dir DIR          keep the plan cache here (FFTW wisdom and a\n"
    "                           manifest of plans), so a restarted daemon pre-warms\n"
    "                           them (default: none, plans last one run)\n"
    "  --plan-cache-bytes B     memory bound of unused cached plans (default 1G)\n"
    "  --plan-effort E          planning effort: estimate, measure (default) or\n"
    "                           patient (FFTW_ESTIMATE/MEASURE/PATIENT)\n"
    "  --max-session-bytes B    buffer quota per session, e.g. 512M, 8G (default 16G)\n"
    "  --max-streams N          streams per session (default 256)\n"
    "  --max-queued-ops N       ops one session may have queued or running; past\n"
    "                           it Submit is refused until some complete (4096)\n"
    "  --max-sessions-per-uid N local sessions one user may hold (default 256)\n"
    "  --max-bytes-per-uid B    buffer bytes one user's local sessions may hold\n"
    "                           together (default 64G)\n"
    "  --lease-ms MS            a session with no attached client ends after MS\n"
    "                           without a call (default 30000)\n"
    "  --log-level LEVEL        error, warn, info (default) or debug\n"
    "  --tls-cert FILE          PEM certificate chain: TCP listeners speak TLS\n"
    "  --tls-key FILE           the certificate's PEM private key\n"
    "  --tls-client-ca FILE     require client certificates signed by this CA\n"
    "  --tokens-file FILE       bearer tokens every gRPC call must present (one\n"
    "                           per line: NAME SECRET [sessions=N] [bytes=SIZE]\n"
    "                           [queued-ops=N] [priority-ceiling=P]; mode 600)\n"
    "  --insecure-remote        allow a TCP listener on a non-loopback address\n"
    "                           without TLS (refused otherwise)\n"
    "  --version                print the version and exit\n"
    "  --help                   print this help and exit\n";

char *trn_config_default_listen(char *buf, size_t len) {
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (xdg && xdg[0])
        snprintf(buf, len, "unix:%s/trnscid.sock", xdg);
    else
        snprintf(buf, len, "unix:/run/trnscid/trnscid.sock");
    return buf;
}

int trn_config_parse_bytes(const char *s, uint64_t *out) {
    errno = 0;
    char *end;
    if (s[0] < '0' || s[0] > '9') /* strtoull would accept " -1" */
        return -1;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'K':
    case 'k':
        shift = 10;
        end++;
        break;
    case 'M':
    case 'm':
        shift = 20;
        end++;
        break;
    case 'G':
    case 'g':
        shift = 30;
        end++;
        break;
    case 'T':
    case 't':
        shift = 40;
        end++;
        break;
    default: return -1;
    }
    if (*end != '\0' || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out) {
    errno = 0;
    char *end;
    if (s[0] < '0' || s[0] > '9')
        return -1;
    const unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end != '\0' || v > max)
        return -1;
    *out = v;
    return 0;
}

int trn_config_parse_cores(const char *s, int *cpus, int *ncores, char *err, size_t errlen) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        snprintf(err, errlen, "--cores: cannot read this process's CPU affinity");
        return -1;
    }
    unsigned long n;
    if (!strchr(s, ',') && !strchr(s, '-') && parse_uint(s, TRN_CONFIG_MAX_CORES, &n) == 0) {
        if (n == 0 || n > (unsigned long)CPU_COUNT(&allowed)) {
            snprintf(err, errlen, "--cores %s: between 1 and %d cores are available", s,
                     CPU_COUNT(&allowed));
            return -1;
        }
        int k = 0;
        for (int cpu = 0; cpu < CPU_SETSIZE && k < (int)n; cpu++)
            if (CPU_ISSET(cpu, &allowed))
                cpus[k++] = cpu;
        *ncores = k;
        return 0;
    }
    /* A list: "a,b-c,...". */
    int k = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        const long lo = strtol(p, &end, 10);
        long hi = lo;
        if (end == p || errno || lo < 0)
            goto bad;
        if (*end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            if (end == p || errno || hi < lo)
                goto bad;
        }
        for (long c = lo; c <= hi; c++) {
            if (c >= CPU_SETSIZE || !CPU_ISSET((int)c, &allowed)) {
                snprintf(err, errlen, "--cores %s: CPU %ld is not available to this process", s, c);
                return -1;
            }
            for (int i = 0; i < k; i++) {
                if (cpus[i] == (int)c) {
                    snprintf(err, errlen, "--cores %s: CPU %ld listed twice", s, c);
                    return -1;
                }
            }
            if (k == TRN_CONFIG_MAX_CORES)
                goto bad;
            cpus[k++] = (int)c;
        }
        if (*end == ',')
            end++;
        else if (*end != '\0')
            goto bad;
        p = end;
    }
    if (k == 0)
        goto bad;
    *ncores = k;
    return 0;
bad:
    snprintf(err, errlen, "--cores %s: expected a count or a list like 0,2-3", s);
    return -1;
}

static int all_allowed_cpus(int *cpus, int *ncores, char *err, size_t errlen) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        snprintf(err, errlen, "cannot read this process's CPU affinity");
        return -1;
    }
    int k = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && k < TRN_CONFIG_MAX_CORES; cpu++)
        if (CPU_ISSET(cpu, &allowed))
            cpus[k++] = cpu;
    *ncores = k;
    return 0;
}

static void set_defaults(trn_config *cfg) {
    memset(cfg, 0, sizeof(*cfg));
    cfg->max_session_bytes = DEFAULT_MAX_SESSION_BYTES;
    cfg->max_streams = DEFAULT_MAX_STREAMS;
    cfg->max_queued_ops = DEFAULT_MAX_QUEUED_OPS;
    cfg->max_sessions_per_uid = DEFAULT_MAX_SESSIONS_PER_UID;
    cfg->max_bytes_per_uid = DEFAULT_MAX_BYTES_PER_UID;
    cfg->lease_ms = DEFAULT_LEASE_MS;
    cfg->max_events = DEFAULT_MAX_EVENTS;
    cfg->plan_cache_bytes = (uint64_t)1 << 30;
    cfg->plan_effort = TRN_PLAN_MEASURE;
    cfg->ncopy = DEFAULT_COPY_ENGINES;
    cfg->log_level = TRN_LOG_INFO;
}

static int add_listen(trn_config *cfg, const char *addr, char *err, size_t errlen) {
    if (cfg->nlisten == TRN_CONFIG_MAX_LISTEN) {
        snprintf(err, errlen, "--listen: at most %d addresses", TRN_CONFIG_MAX_LISTEN);
        return -1;
    }
    const int is_unix = strncmp(addr, "unix:", 5) == 0;
    const int is_grpc_unix = strncmp(addr, "grpc+unix:", 10) == 0;
    if (is_unix ? addr[5] != '/' : is_grpc_unix ? addr[10] != '/' : strrchr(addr, ':') == NULL) {
        snprintf(err, errlen,
                 "--listen %s: expected unix:/absolute/path, grpc+unix:/absolute/path or "
                 "host:port",
                 addr);
        return -1;
    }
    cfg->listen[cfg->nlisten] = strdup(addr);
    if (!cfg->listen[cfg->nlisten]) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cfg->nlisten++;
    return 0;
}

static void set_path(char **field, const char *value) {
    free(*field);
    *field = strdup(value);
}

trn_config_result trn_config_parse(trn_config *cfg, int argc, char **argv, char *err,
                                   size_t errlen) {
    enum {
        O_LISTEN = 256,
        O_GROUP,
        O_UID_SESSIONS,
        O_UID_BYTES,
        O_QUEUED,
        O_CORES,
        O_CACHE,
        O_MAXBYTES,
        O_STREAMS,
        O_LEASE,
        O_LOG,
        O_COPY,
        O_CEILING,
        O_EVENTS,
        O_PLAN_BYTES,
        O_PLAN_EFFORT,
        O_VERSION,
        O_TLS_CERT,
        O_TLS_KEY,
        O_TLS_CLIENT_CA,
        O_TOKENS,
        O_INSECURE_REMOTE
    };
    static const struct option opts[] = {
        {"listen", required_argument, NULL, O_LISTEN},
        {"socket-group", required_argument, NULL, O_GROUP},
        {"max-sessions-per-uid", required_argument, NULL, O_UID_SESSIONS},
        {"max-bytes-per-uid", required_argument, NULL, O_UID_BYTES},
        {"max-queued-ops", required_argument, NULL, O_QUEUED},
        {"cores", required_argument, NULL, O_CORES},
        {"cache-dir", required_argument, NULL, O_CACHE},
        {"max-session-bytes", required_argument, NULL, O_MAXBYTES},
        {"max-streams", required_argument, NULL, O_STREAMS},
        {"lease-ms", required_argument, NULL, O_LEASE},
        {"log-level", required_argument, NULL, O_LOG},
        {"copy-engines", required_argument, NULL, O_COPY},
        {"priority-ceiling", required_argument, NULL, O_CEILING},
        {"max-events", required_argument, NULL, O_EVENTS},
        {"plan-cache-bytes", required_argument, NULL, O_PLAN_BYTES},
        {"plan-effort", required_argument, NULL, O_PLAN_EFFORT},
        {"version", no_argument, NULL, O_VERSION},
        {"tls-cert", required_argument, NULL, O_TLS_CERT},
        {"tls-key", required_argument, NULL, O_TLS_KEY},
        {"tls-client-ca", required_argument, NULL, O_TLS_CLIENT_CA},
        {"tokens-file", required_argument, NULL, O_TOKENS},
        {"insecure-remote", no_argument, NULL, O_INSECURE_REMOTE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    set_defaults(cfg);
    optind = 1;
    opterr = 0;
    int c;
    unsigned long v;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_LISTEN:
            if (add_listen(cfg, optarg, err, errlen))
                return TRN_CONFIG_ERROR;
            break;
        case O_GROUP:
            free(cfg->socket_group);
            cfg->socket_group = strdup(optarg);
            break;
        case O_QUEUED:
            if (parse_uint(optarg, 10000000, &v) || v == 0) {
                snprintf(err, errlen, "--max-queued-ops %s: expected 1..10000000", optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->max_queued_ops = (uint32_t)v;
            break;
        case O_UID_SESSIONS:
            if (parse_uint(optarg, 1000000, &v) || v == 0) {
                snprintf(err, errlen, "--max-sessions-per-uid %s: expected 1..1000000", optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->max_sessions_per_uid = (uint32_t)v;
            break;
        case O_UID_BYTES:
            if (trn_config_parse_bytes(optarg, &cfg->max_bytes_per_uid) ||
                cfg->max_bytes_per_uid == 0) {
                snprintf(err, errlen, "--max-bytes-per-uid %s: expected a size like 8G", optarg);
                return TRN_CONFIG_ERROR;
            }
            break;
        case O_CORES:
            if (trn_config_parse_cores(optarg, cfg->cpus, &cfg->ncores, err, errlen))
                return TRN_CONFIG_ERROR;
            break;
        case O_CACHE:
            free(cfg->cache_dir);
            cfg->cache_dir = strdup(optarg);
            break;
        case O_MAXBYTES:
            if (trn_config_parse_bytes(optarg, &cfg->max_session_bytes) ||
                cfg->max_session_bytes == 0) {
                snprintf(err, errlen, "--max-session-bytes %s: expected a size like 512M", optarg);
                return TRN_CONFIG_ERROR;
            }
            break;
        case O_STREAMS:
            if (parse_uint(optarg, 65536, &v) || v == 0) {
                snprintf(err, errlen, "--max-streams %s: expected 1..65536", optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->max_streams = (uint32_t)v;
            break;
        case O_COPY:
            if (parse_uint(optarg, 64, &v)) {
                snprintf(err, errlen, "--copy-engines %s: expected 0..64", optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->ncopy = (int)v;
            break;
        case O_CEILING: {
            const int neg = optarg[0] == '-';
            if (parse_uint(optarg + neg, 3, &v)) {
                snprintf(err, errlen, "--priority-ceiling %s: expected %d..%d", optarg,
                         TRN_PRIORITY_GREATEST, TRN_PRIORITY_LEAST);
                return TRN_CONFIG_ERROR;
            }
            cfg->priority_ceiling = neg ? -(int)v : (int)v;
            break;
        }
        case O_EVENTS:
            if (parse_uint(optarg, 1000000, &v) || v == 0) {
                snprintf(err, errlen, "--max-events %s: expected 1..1000000", optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->max_events = (uint32_t)v;
            break;
        case O_PLAN_BYTES:
            if (trn_config_parse_bytes(optarg, &cfg->plan_cache_bytes) != 0) {
                snprintf(err, errlen, "--plan-cache-bytes %s: expected a size such as 512M",
                         optarg);
                return TRN_CONFIG_ERROR;
            }
            break;
        case O_PLAN_EFFORT: {
            const int e = trn_plan_effort_parse(optarg);
            if (e < 0) {
                snprintf(err, errlen, "--plan-effort %s: expected estimate, measure or patient",
                         optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->plan_effort = (trn_plan_effort)e;
            break;
        }
        case O_LEASE:
            if (parse_uint(optarg, 86400000, &v) || v < 100) {
                snprintf(err, errlen, "--lease-ms %s: expected 100..86400000", optarg);
                return TRN_CONFIG_ERROR;
            }
            cfg->lease_ms = (uint32_t)v;
            break;
        case O_LOG:
            if (trn_log_parse_level(optarg, &cfg->log_level)) {
                snprintf(err, errlen, "--log-level %s: expected error, warn, info or debug",
                         optarg);
                return TRN_CONFIG_ERROR;
            }
            break;
        case O_TLS_CERT: set_path(&cfg->tls_cert, optarg); break;
        case O_TLS_KEY: set_path(&cfg->tls_key, optarg); break;
        case O_TLS_CLIENT_CA: set_path(&cfg->tls_client_ca, optarg); break;
        case O_TOKENS: set_path(&cfg->tokens_file, optarg); break;
        case O_INSECURE_REMOTE: cfg->insecure_remote = 1; break;
        case O_VERSION:
            printf("trnscid %d.%d.%d\n", TRNSCI_VERSION_MAJOR, TRNSCI_VERSION_MINOR,
                   TRNSCI_VERSION_PATCH);
            return TRN_CONFIG_EXIT_OK;
        case 'h': fputs(usage, stdout); return TRN_CONFIG_EXIT_OK;
        default:
            snprintf(err, errlen, "unknown or incomplete option '%s' (see --help)",
                     argv[optind - 1]);
            return TRN_CONFIG_ERROR;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
        return TRN_CONFIG_ERROR;
    }
    if (!cfg->tls_cert != !cfg->tls_key || (cfg->tls_client_ca && !cfg->tls_cert)) {
        snprintf(err, errlen, "--tls-cert and --tls-key go together; --tls-client-ca needs both");
        return TRN_CONFIG_ERROR;
    }
    if (cfg->nlisten == 0) {
        char buf[512];
        if (add_listen(cfg, trn_config_default_listen(buf, sizeof(buf)), err, errlen))
            return TRN_CONFIG_ERROR;
    }
    if (cfg->ncores == 0 && all_allowed_cpus(cfg->cpus, &cfg->ncores, err, errlen))
        return TRN_CONFIG_ERROR;
    return TRN_CONFIG_OK;
}

void trn_config_free(trn_config *cfg) {
    for (int i = 0; i < cfg->nlisten; i++)
        free(cfg->listen[i]);
    cfg->nlisten = 0;
    free(cfg->cache_dir);
    cfg->cache_dir = NULL;
    free(cfg->socket_group);
    cfg->socket_group = NULL;
    free(cfg->tls_cert);
    free(cfg->tls_key);
    free(cfg->tls_client_ca);
    free(cfg->tokens_file);
    cfg->tls_cert = cfg->tls_key = cfg->tls_client_ca = cfg->tokens_file = NULL;
}
