/*
 * config.c — trnscid's settings: defaults, the config file, the flags.
 *
 * Every setting has a default that makes `trnscid` with no flags a working
 * local daemon on all CPU cores. One table (options[]) names the settings;
 * each is a long flag and, under the same name without "--", a key of the
 * config file (config_file.h), parsed and checked by the same code. Order of
 * precedence: defaults, then the file, then the flags.
 *
 * Each applied setting is also kept as given (key and text) so that a reload
 * can tell which settings changed without knowing what each one means
 * (config_reload.c).
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
#include <strings.h>
#include <unistd.h>

#include "daemon/config_file.h"
#include "ops/fft_shape.h"
#include "trnsci_wire.h"

#define DEFAULT_MAX_SESSION_BYTES (16ULL << 30)
#define DEFAULT_MAX_STREAMS 256u
#define DEFAULT_MAX_QUEUED_OPS 4096u
#define DEFAULT_MAX_SESSIONS_PER_UID 256u
#define DEFAULT_MAX_BYTES_PER_UID (64ULL << 30)
#define DEFAULT_MAX_QUEUED_OPS_PER_UID 65536u
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
    "  --max-session-bytes B    buffer (and graph) memory quota per session, e.g. 512M, 8G "
    "(default 16G)\n"
    "  --max-streams N          streams per session (default 256)\n"
    "  --max-queued-ops N       ops one session may have queued or running; past\n"
    "                           it a local client's launches wait, a gRPC Submit\n"
    "                           is refused, until some complete (4096)\n"
    "  --max-sessions-per-uid N sessions one user may hold: a local or grpc+unix\n"
    "                           client's uid, or a gRPC client's token (default 256)\n"
    "  --max-bytes-per-uid B    buffer bytes one user's (or token's) sessions may\n"
    "                           hold together (default 64G)\n"
    "  --max-queued-ops-per-uid N\n"
    "                           ops one user's (or token's) sessions may have\n"
    "                           queued or running together; past it a launch is\n"
    "                           refused until some complete (default 65536)\n"
    "  --lease-ms MS            a session with no attached client ends after MS\n"
    "                           without a call (default 30000)\n"
    "  --log-level LEVEL        error, warn, info (default) or debug\n"
    "  --metrics-listen ADDR    serve Prometheus metrics, /healthz and /readyz over\n"
    "                           HTTP on ADDR, e.g. 127.0.0.1:9464 (default: off)\n"
    "  --config FILE            read settings from FILE (INI: key = value, the keys\n"
    "                           are these flags without --); flags override it.\n"
    "                           Default: " TRN_CONFIG_DEFAULT_FILE " if it exists\n"
    "  --check-config           parse the config file and flags, report, exit\n"
    "  --tls-cert FILE          PEM certificate chain: TCP listeners speak TLS\n"
    "  --tls-key FILE           the certificate's PEM private key\n"
    "  --tls-client-ca FILE     require client certificates signed by this CA\n"
    "  --tokens-file FILE       bearer tokens every gRPC call must present (one\n"
    "                           per line: NAME SECRET [sessions=N] [bytes=SIZE]\n"
    "                           [queued-ops=N] [priority-ceiling=P] [scope=admin];\n"
    "                           mode 600)\n"
    "  --insecure-remote        allow a TCP listener on a non-loopback address\n"
    "                           without TLS (refused otherwise)\n"
    "  --allow-unauthenticated-tcp\n"
    "                           allow a TCP listener without --tokens-file\n"
    "                           (refused otherwise: any local user could connect\n"
    "                           around the socket's permissions, unaccounted by\n"
    "                           the per-user limits); a warning is logged\n"
    "  --blas-coretype NAME     OpenBLAS kernel set: auto (default: OpenBLAS's\n"
    "                           choice, or the best set the CPU runs where OpenBLAS\n"
    "                           does not know the CPU), default (OpenBLAS's choice\n"
    "                           or OPENBLAS_CORETYPE), or Prescott, Nehalem,\n"
    "                           Sandybridge, Haswell, Zen, SkylakeX, Cooperlake\n"
    "  --executors on|off       run kernels in executor processes, one per core,\n"
    "                           so that a crash or hang fails only its op (on)\n"
    "  --convert-ahead on|off   run GEMM operands' low-precision conversions as a\n"
    "                           stage of their own on a copy engine (on), or inside\n"
    "                           the GEMM on the cores (off)\n"
    "  --run-ahead on|off|auto  let a stream's next conversion start while the op\n"
    "                           in front of it computes, when their memory does not\n"
    "                           overlap (auto: when the copy engine does not share\n"
    "                           the cores' CPUs)\n"
    "  --executor-watchdog-floor-ms MS\n"
    "                           the least time an op may run before its executor\n"
    "                           is killed (default 30000)\n"
    "  --executor-watchdog-factor F\n"
    "                           ... or F times its estimated time, if longer\n"
    "                           (default 100)\n"
    "  --backend B              the compute backend: cpu, neuron (NeuronCores\n"
    "                           through libnrt; ops without a Neuron kernel run on\n"
    "                           the CPU) or auto (default: neuron when libnrt loads\n"
    "                           and reports cores, else cpu)\n"
    "  --device-pointers P      what a local client's device pointers are: mapped\n"
    "                           (its mapping of the buffer's shared memory) or\n"
    "                           opaque (only the daemon touches the bytes; copies\n"
    "                           are staged, as on a GPU); auto (default): opaque on\n"
    "                           the neuron backend, mapped on cpu\n"
    "  --neuron-lib PATH        the Neuron runtime library (default: libnrt.so.1\n"
    "                           where the loader finds it, or /opt/aws/neuron/lib)\n"
    "  --neuron-cc PATH         the Neuron compiler driver that builds NEFFs from\n"
    "                           kernel programs (scripts/trnsci-nki-cc on a Trainium\n"
    "                           host; default: none, every op runs on the CPU)\n"
    "  --neuron-kernels DIR     the NKI kernel sources (default: the installed ones)\n"
    "  --neuron-target T        trn1 (default) or trn2\n"
    "  --neuron-compile-jobs N  NEFF compiles at a time (default 2)\n"
    "  --neuron-compile-timeout-s S\n"
    "                           a compile still running after S seconds is stopped\n"
    "                           and fails (default 600)\n"
    "  --neuron-split-min-mflop N\n"
    "                           split a GEMM over NeuronCores when each core's part\n"
    "                           still carries N MFLOP (default 1024; 0: never split)\n"
    "  --neuron-resident on|off leave GEMM operands in a NeuronCore's memory and\n"
    "                           move them again only once they change (default on;\n"
    "                           needs opaque device pointers)\n"
    "  --neuron-locality on|off run a big GEMM on the NeuronCore that holds its\n"
    "                           inputs when waiting for it costs less than moving\n"
    "                           them (default on; with --neuron-resident on)\n"
    "  --neuron-in-place on|off move a real GEMM's operands as they lie in memory\n"
    "                           and transpose on the NeuronCore (default on; off:\n"
    "                           pack them on the host)\n"
    "  --neuron-core-copies on|off\n"
    "                           keep one copy per NeuronCore of a matrix that\n"
    "                           programs there bind (default on; with\n"
    "                           --neuron-in-place and --neuron-resident on)\n"
#ifdef TRNSCI_FAULT_INJECTION
    "  --fault-injection        (test builds) run the test-fault ops\n"
#endif
    "  --self-test              check every outside routine the kernels call\n"
    "                           (OpenBLAS, LAPACK, FFTW) on awkward shapes, print\n"
    "                           what failed and what replaces it, exit 0 when all\n"
    "                           passed and 1 when some did not\n"
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
    cfg->max_queued_ops_per_uid = DEFAULT_MAX_QUEUED_OPS_PER_UID;
    cfg->lease_ms = DEFAULT_LEASE_MS;
    cfg->max_events = DEFAULT_MAX_EVENTS;
    cfg->plan_cache_bytes = (uint64_t)1 << 30;
    cfg->plan_effort = TRN_PLAN_MEASURE;
    cfg->ncopy = DEFAULT_COPY_ENGINES;
    cfg->executors = 1;
    cfg->convert_ahead = 1;
    cfg->run_ahead = TRN_RUN_AHEAD_AUTO;
    cfg->executor_watchdog_floor_ms = 30000;
    cfg->executor_watchdog_factor = 100;
    cfg->backend = TRN_BACKEND_AUTO;
    cfg->neuron_compile_jobs = 2;
    cfg->neuron_compile_timeout_s = 600;
    cfg->neuron_split_min_mflop = 1024;
    cfg->neuron_resident = 1;
    cfg->neuron_locality = 1;
    cfg->neuron_in_place = 1;
    cfg->neuron_core_copies = 1;
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

/* The flags. Every entry is also a key of the config file (config_file.h),
 * except the ones only_on_command_line names: a flag added here is a key too,
 * with the same parsing and the same checks. */
enum option_code {
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
    O_CONFIG,
    O_METRICS,
    O_CHECK,
    O_TLS_CERT,
    O_TLS_KEY,
    O_TLS_CLIENT_CA,
    O_TOKENS,
    O_INSECURE_REMOTE,
    O_UNAUTH_TCP,
    O_UID_QUEUED,
    O_BLAS_CORETYPE,
    O_SELF_TEST,
    O_EXECUTORS,
    O_CONVERT_AHEAD,
    O_RUN_AHEAD,
    O_WATCHDOG_FLOOR,
    O_WATCHDOG_FACTOR,
    O_FAULT_INJECTION,
    O_BACKEND,
    O_DEVICE_POINTERS,
    O_NEURON_LIB,
    O_NEURON_CC,
    O_NEURON_KERNELS,
    O_NEURON_TARGET,
    O_NEURON_JOBS,
    O_NEURON_TIMEOUT,
    O_NEURON_SPLIT,
    O_NEURON_RESIDENT,
    O_NEURON_LOCALITY,
    O_NEURON_IN_PLACE,
    O_NEURON_CORE_COPIES,
};
static const struct option options[] = {
    {"listen", required_argument, NULL, O_LISTEN},
    {"socket-group", required_argument, NULL, O_GROUP},
    {"max-sessions-per-uid", required_argument, NULL, O_UID_SESSIONS},
    {"max-bytes-per-uid", required_argument, NULL, O_UID_BYTES},
    {"max-queued-ops", required_argument, NULL, O_QUEUED},
    {"max-queued-ops-per-uid", required_argument, NULL, O_UID_QUEUED},
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
    {"metrics-listen", required_argument, NULL, O_METRICS},
    {"config", required_argument, NULL, O_CONFIG},
    {"check-config", no_argument, NULL, O_CHECK},
    {"tls-cert", required_argument, NULL, O_TLS_CERT},
    {"tls-key", required_argument, NULL, O_TLS_KEY},
    {"tls-client-ca", required_argument, NULL, O_TLS_CLIENT_CA},
    {"tokens-file", required_argument, NULL, O_TOKENS},
    {"insecure-remote", no_argument, NULL, O_INSECURE_REMOTE},
    {"allow-unauthenticated-tcp", no_argument, NULL, O_UNAUTH_TCP},
    {"blas-coretype", required_argument, NULL, O_BLAS_CORETYPE},
    {"self-test", no_argument, NULL, O_SELF_TEST},
    {"executors", required_argument, NULL, O_EXECUTORS},
    {"convert-ahead", required_argument, NULL, O_CONVERT_AHEAD},
    {"run-ahead", required_argument, NULL, O_RUN_AHEAD},
    {"executor-watchdog-floor-ms", required_argument, NULL, O_WATCHDOG_FLOOR},
    {"executor-watchdog-factor", required_argument, NULL, O_WATCHDOG_FACTOR},
    {"backend", required_argument, NULL, O_BACKEND},
    {"device-pointers", required_argument, NULL, O_DEVICE_POINTERS},
    {"neuron-lib", required_argument, NULL, O_NEURON_LIB},
    {"neuron-cc", required_argument, NULL, O_NEURON_CC},
    {"neuron-kernels", required_argument, NULL, O_NEURON_KERNELS},
    {"neuron-target", required_argument, NULL, O_NEURON_TARGET},
    {"neuron-compile-jobs", required_argument, NULL, O_NEURON_JOBS},
    {"neuron-compile-timeout-s", required_argument, NULL, O_NEURON_TIMEOUT},
    {"neuron-split-min-mflop", required_argument, NULL, O_NEURON_SPLIT},
    {"neuron-resident", required_argument, NULL, O_NEURON_RESIDENT},
    {"neuron-locality", required_argument, NULL, O_NEURON_LOCALITY},
    {"neuron-in-place", required_argument, NULL, O_NEURON_IN_PLACE},
    {"neuron-core-copies", required_argument, NULL, O_NEURON_CORE_COPIES},
#ifdef TRNSCI_FAULT_INJECTION
    {"fault-injection", no_argument, NULL, O_FAULT_INJECTION},
#endif
    {"version", no_argument, NULL, O_VERSION},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Flags that make no sense inside a config file. */
static int only_on_command_line(int code) {
    return code == O_CONFIG || code == O_VERSION || code == 'h' || code == O_CHECK ||
           code == O_SELF_TEST;
}

/* Applies one flag (code from the table above) with its argument (NULL for
 * flags without one) over what cfg holds. */
static trn_config_result apply_option(trn_config *cfg, int code, const char *arg, char *err,
                                      size_t errlen) {
    unsigned long v;
    uint64_t b;
    trn_log_level level;
    switch (code) {
    case O_LISTEN:
        if (add_listen(cfg, arg, err, errlen))
            return TRN_CONFIG_ERROR;
        break;
    case O_GROUP:
        free(cfg->socket_group);
        cfg->socket_group = strdup(arg);
        break;
    case O_QUEUED:
        if (parse_uint(arg, 10000000, &v) || v == 0) {
            snprintf(err, errlen, "--max-queued-ops %s: expected 1..10000000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_queued_ops = (uint32_t)v;
        break;
    case O_UID_QUEUED:
        if (parse_uint(arg, 100000000, &v) || v == 0) {
            snprintf(err, errlen, "--max-queued-ops-per-uid %s: expected 1..100000000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_queued_ops_per_uid = (uint32_t)v;
        break;
    case O_UID_SESSIONS:
        if (parse_uint(arg, 1000000, &v) || v == 0) {
            snprintf(err, errlen, "--max-sessions-per-uid %s: expected 1..1000000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_sessions_per_uid = (uint32_t)v;
        break;
    case O_UID_BYTES:
        if (trn_config_parse_bytes(arg, &b) || b == 0) {
            snprintf(err, errlen, "--max-bytes-per-uid %s: expected a size like 8G", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_bytes_per_uid = b;
        break;
    case O_CORES:
        if (trn_config_parse_cores(arg, cfg->cpus, &cfg->ncores, err, errlen))
            return TRN_CONFIG_ERROR;
        break;
    case O_CACHE:
        free(cfg->cache_dir);
        cfg->cache_dir = strdup(arg);
        break;
    case O_MAXBYTES:
        if (trn_config_parse_bytes(arg, &b) || b == 0) {
            snprintf(err, errlen, "--max-session-bytes %s: expected a size like 512M", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_session_bytes = b;
        break;
    case O_STREAMS:
        if (parse_uint(arg, 65536, &v) || v == 0) {
            snprintf(err, errlen, "--max-streams %s: expected 1..65536", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_streams = (uint32_t)v;
        break;
    case O_COPY:
        if (parse_uint(arg, 64, &v)) {
            snprintf(err, errlen, "--copy-engines %s: expected 0..64", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->ncopy = (int)v;
        break;
    case O_CEILING: {
        const int neg = arg[0] == '-';
        if (parse_uint(arg + neg, 3, &v)) {
            snprintf(err, errlen, "--priority-ceiling %s: expected %d..%d", arg,
                     TRN_PRIORITY_GREATEST, TRN_PRIORITY_LEAST);
            return TRN_CONFIG_ERROR;
        }
        cfg->priority_ceiling = neg ? -(int)v : (int)v;
        break;
    }
    case O_EVENTS:
        if (parse_uint(arg, 1000000, &v) || v == 0) {
            snprintf(err, errlen, "--max-events %s: expected 1..1000000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->max_events = (uint32_t)v;
        break;
    case O_PLAN_BYTES:
        if (trn_config_parse_bytes(arg, &cfg->plan_cache_bytes) != 0) {
            snprintf(err, errlen, "--plan-cache-bytes %s: expected a size such as 512M", arg);
            return TRN_CONFIG_ERROR;
        }
        break;
    case O_PLAN_EFFORT: {
        const int e = trn_plan_effort_parse(arg);
        if (e < 0) {
            snprintf(err, errlen, "--plan-effort %s: expected estimate, measure or patient", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->plan_effort = (trn_plan_effort)e;
        break;
    }
    case O_LEASE:
        if (parse_uint(arg, 86400000, &v) || v < 100) {
            snprintf(err, errlen, "--lease-ms %s: expected 100..86400000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->lease_ms = (uint32_t)v;
        break;
    case O_LOG:
        if (trn_log_parse_level(arg, &level)) {
            snprintf(err, errlen, "--log-level %s: expected error, warn, info or debug", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->log_level = level;
        break;
    case O_METRICS:
        if (!strrchr(arg, ':')) {
            snprintf(err, errlen, "--metrics-listen %s: expected host:port", arg);
            return TRN_CONFIG_ERROR;
        }
        free(cfg->metrics_listen);
        cfg->metrics_listen = strdup(arg);
        break;
    case O_CHECK: cfg->check_only = 1; break;
    case O_TLS_CERT: set_path(&cfg->tls_cert, arg); break;
    case O_TLS_KEY: set_path(&cfg->tls_key, arg); break;
    case O_TLS_CLIENT_CA: set_path(&cfg->tls_client_ca, arg); break;
    case O_TOKENS: set_path(&cfg->tokens_file, arg); break;
    case O_INSECURE_REMOTE: cfg->insecure_remote = 1; break;
    case O_UNAUTH_TCP: cfg->allow_unauthenticated_tcp = 1; break;
    case O_BLAS_CORETYPE:
        free(cfg->blas_coretype);
        cfg->blas_coretype = strdup(arg);
        break;
    case O_SELF_TEST: cfg->self_test_only = 1; break;
    case O_EXECUTORS:
        if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0) {
            snprintf(err, errlen, "--executors %s: expected on or off", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->executors = strcmp(arg, "on") == 0;
        break;
    case O_CONVERT_AHEAD:
        if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0) {
            snprintf(err, errlen, "--convert-ahead %s: expected on or off", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->convert_ahead = strcmp(arg, "on") == 0;
        break;
    case O_RUN_AHEAD:
        if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0 && strcmp(arg, "auto") != 0) {
            snprintf(err, errlen, "--run-ahead %s: expected on, off or auto", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->run_ahead = strcmp(arg, "auto") == 0 ? TRN_RUN_AHEAD_AUTO : strcmp(arg, "on") == 0;
        break;
    case O_WATCHDOG_FLOOR:
        if (parse_uint(arg, 86400000, &v) || v < 10) {
            snprintf(err, errlen, "--executor-watchdog-floor-ms %s: expected 10..86400000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->executor_watchdog_floor_ms = v;
        break;
    case O_WATCHDOG_FACTOR:
        if (parse_uint(arg, 1000000, &v) || v < 1) {
            snprintf(err, errlen, "--executor-watchdog-factor %s: expected 1..1000000", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->executor_watchdog_factor = (uint32_t)v;
        break;
    case O_FAULT_INJECTION: cfg->fault_injection = 1; break;
    case O_BACKEND:
        if (strcmp(arg, "cpu") == 0)
            cfg->backend = TRN_BACKEND_CPU;
        else if (strcmp(arg, "neuron") == 0)
            cfg->backend = TRN_BACKEND_NEURON;
        else if (strcmp(arg, "auto") == 0)
            cfg->backend = TRN_BACKEND_AUTO;
        else {
            snprintf(err, errlen, "--backend %s: expected cpu, neuron or auto", arg);
            return TRN_CONFIG_ERROR;
        }
        break;
    case O_DEVICE_POINTERS:
        if (strcmp(arg, "mapped") == 0)
            cfg->device_pointers = TRN_POINTERS_MAPPED;
        else if (strcmp(arg, "opaque") == 0)
            cfg->device_pointers = TRN_POINTERS_OPAQUE;
        else if (strcmp(arg, "auto") == 0)
            cfg->device_pointers = TRN_POINTERS_AUTO;
        else {
            snprintf(err, errlen, "--device-pointers %s: expected mapped, opaque or auto", arg);
            return TRN_CONFIG_ERROR;
        }
        break;
    case O_NEURON_LIB: set_path(&cfg->neuron_lib, arg); break;
    case O_NEURON_CC: set_path(&cfg->neuron_cc, arg); break;
    case O_NEURON_KERNELS: set_path(&cfg->neuron_kernels, arg); break;
    case O_NEURON_TARGET:
        if (strcmp(arg, "trn1") != 0 && strcmp(arg, "trn2") != 0) {
            snprintf(err, errlen, "--neuron-target %s: expected trn1 or trn2", arg);
            return TRN_CONFIG_ERROR;
        }
        set_path(&cfg->neuron_target, arg);
        break;
    case O_NEURON_JOBS:
        if (parse_uint(arg, 256, &v) || v < 1) {
            snprintf(err, errlen, "--neuron-compile-jobs %s: expected 1..256", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->neuron_compile_jobs = (uint32_t)v;
        break;
    case O_NEURON_TIMEOUT:
        if (parse_uint(arg, 86400, &v) || v < 1) {
            snprintf(err, errlen, "--neuron-compile-timeout-s %s: expected 1..86400", arg);
            return TRN_CONFIG_ERROR;
        }
        cfg->neuron_compile_timeout_s = (uint32_t)v;
        break;
    case O_NEURON_SPLIT:
        if (parse_uint(arg, 1u << 30, &v)) {
            snprintf(err, errlen, "--neuron-split-min-mflop %s: expected 0..%u", arg, 1u << 30);
            return TRN_CONFIG_ERROR;
        }
        cfg->neuron_split_min_mflop = (uint32_t)v;
        break;
    case O_NEURON_RESIDENT:
    case O_NEURON_LOCALITY:
    case O_NEURON_IN_PLACE:
    case O_NEURON_CORE_COPIES: {
        const char *name = code == O_NEURON_RESIDENT   ? "neuron-resident"
                           : code == O_NEURON_LOCALITY ? "neuron-locality"
                           : code == O_NEURON_IN_PLACE ? "neuron-in-place"
                                                       : "neuron-core-copies";
        if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0) {
            snprintf(err, errlen, "--%s %s: expected on or off", name, arg);
            return TRN_CONFIG_ERROR;
        }
        *(code == O_NEURON_RESIDENT   ? &cfg->neuron_resident
          : code == O_NEURON_LOCALITY ? &cfg->neuron_locality
          : code == O_NEURON_IN_PLACE ? &cfg->neuron_in_place
                                      : &cfg->neuron_core_copies) = strcmp(arg, "on") == 0;
        break;
    }
    case O_CONFIG: break; /* read before every other flag, in trn_config_parse */
    case O_VERSION:
        printf("trnscid %d.%d.%d\n", TRNSCI_VERSION_MAJOR, TRNSCI_VERSION_MINOR,
               TRNSCI_VERSION_PATCH);
        return TRN_CONFIG_EXIT_OK;
    case 'h': fputs(usage, stdout); return TRN_CONFIG_EXIT_OK;
    default:
        snprintf(err, errlen, "internal error: flag %d has no handler", code);
        return TRN_CONFIG_ERROR;
    }
    return TRN_CONFIG_OK;
}

/* ---- settings as given, for reload ---------------------------------------- */

static int record_setting(trn_config *cfg, const char *key, const char *value) {
    if (cfg->nsettings == cfg->settings_cap) {
        const int cap = cfg->settings_cap ? 2 * cfg->settings_cap : 16;
        trn_config_setting *s = realloc(cfg->settings, (size_t)cap * sizeof(*s));
        if (!s)
            return -1;
        cfg->settings = s;
        cfg->settings_cap = cap;
    }
    char *v = strdup(value);
    if (!v)
        return -1;
    cfg->settings[cfg->nsettings].key = key; /* points into options[] */
    cfg->settings[cfg->nsettings].value = v;
    cfg->nsettings++;
    return 0;
}

static void drop_settings(trn_config *cfg, const char *key) {
    int k = 0;
    for (int i = 0; i < cfg->nsettings; i++) {
        if (strcmp(cfg->settings[i].key, key) == 0)
            free(cfg->settings[i].value);
        else
            cfg->settings[k++] = cfg->settings[i];
    }
    cfg->nsettings = k;
}

/* Applies and records one setting. */
static trn_config_result set_option(trn_config *cfg, const struct option *o, const char *arg,
                                    char *err, size_t errlen) {
    const trn_config_result r = apply_option(cfg, o->val, arg, err, errlen);
    if (r != TRN_CONFIG_OK)
        return r;
    if (record_setting(cfg, o->name, arg ? arg : "true")) {
        snprintf(err, errlen, "out of memory");
        return TRN_CONFIG_ERROR;
    }
    return TRN_CONFIG_OK;
}

const char *trn_config_key(int i) {
    for (const struct option *o = options; o->name; o++)
        if (!only_on_command_line(o->val) && i-- == 0)
            return o->name;
    return NULL;
}

int trn_config_value(const trn_config *cfg, const char *key, char *buf, size_t len) {
    /* Repeatable flags (--listen) add up; for the others the last one wins. */
    const int repeatable = strcmp(key, "listen") == 0;
    size_t used = 0;
    int found = 0;
    buf[0] = '\0';
    for (int i = 0; i < cfg->nsettings; i++) {
        if (strcmp(cfg->settings[i].key, key) != 0)
            continue;
        if (!repeatable)
            used = 0;
        const int n = snprintf(buf + used, len - used, "%s%s", repeatable && found ? "," : "",
                               cfg->settings[i].value);
        if (n > 0)
            used = used + (size_t)n < len ? used + (size_t)n : len - 1;
        found = 1;
    }
    return found;
}

int trn_config_adopt(trn_config *live, const trn_config *fresh, const char *key) {
    drop_settings(live, key);
    for (int i = 0; i < fresh->nsettings; i++) {
        if (strcmp(fresh->settings[i].key, key) != 0)
            continue;
        /* Keys are compared by content: point at this table's copy. */
        const char *own = NULL;
        for (const struct option *o = options; o->name && !own; o++)
            if (strcmp(o->name, key) == 0)
                own = o->name;
        if (!own || record_setting(live, own, fresh->settings[i].value))
            return -1;
    }
    return 0;
}

/* ---- the config file's keys --------------------------------------------------- */

static int parse_bool(const char *s, int *out) {
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

/* config_file.h's callback: one "key = value" line. */
static int set_key(void *user, const char *key, const char *value, char *err, size_t errlen) {
    trn_config *cfg = user;
    const struct option *o = options;
    while (o->name && strcmp(o->name, key) != 0)
        o++;
    if (!o->name || only_on_command_line(o->val)) {
        snprintf(err, errlen,
                 "unknown key '%s' (the keys are trnscid's long flags without the leading --, "
                 "see trnscid --help)",
                 key);
        return -1;
    }
    if (o->has_arg == no_argument) {
        int on;
        if (parse_bool(value, &on)) {
            snprintf(err, errlen, "%s = %s: expected true or false", key, value);
            return -1;
        }
        if (!on)
            return 0; /* flags without an argument only turn something on */
        value = NULL;
    }
    if (set_option(cfg, o, value, err, errlen) != TRN_CONFIG_OK) {
        /* The flag's message names "--key"; in a file the key has no dashes. */
        if (strncmp(err, "--", 2) == 0)
            memmove(err, err + 2, strlen(err + 2) + 1);
        return -1;
    }
    return 0;
}

/* ---- the command line over the file ----------------------------------------- */

trn_config_result trn_config_parse(trn_config *cfg, int argc, char **argv, char *err,
                                   size_t errlen) {
    set_defaults(cfg);
    opterr = 0;
    /* Pass 1: --help, --version, --config and malformed flags, before
     * anything is applied: the file goes under the flags. */
    const char *path = NULL;
    int c, idx;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (c == '?' || c == ':') {
            snprintf(err, errlen, "unknown or incomplete option '%s' (see --help)",
                     argv[optind - 1]);
            return TRN_CONFIG_ERROR;
        }
        if (c == 'h' || c == O_VERSION)
            return apply_option(cfg, c, NULL, err, errlen);
        if (c == O_CONFIG)
            path = optarg;
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
        return TRN_CONFIG_ERROR;
    }
    if (!path && access(TRN_CONFIG_DEFAULT_FILE, F_OK) == 0)
        path = TRN_CONFIG_DEFAULT_FILE;
    if (path) {
        cfg->config_path = strdup(path);
        if (!cfg->config_path) {
            snprintf(err, errlen, "out of memory");
            return TRN_CONFIG_ERROR;
        }
        if (trn_config_file_read(path, set_key, cfg, err, errlen))
            return TRN_CONFIG_ERROR;
    }
    /* Pass 2: the flags. A --listen on the command line replaces the file's
     * addresses instead of adding to them. */
    int cli_listen = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, &idx)) != -1) {
        if (c == O_CONFIG)
            continue;
        if (c == O_LISTEN && !cli_listen) {
            for (int i = 0; i < cfg->nlisten; i++)
                free(cfg->listen[i]);
            cfg->nlisten = 0;
            drop_settings(cfg, "listen");
            cli_listen = 1;
        }
        const trn_config_result r = set_option(cfg, &options[idx], optarg, err, errlen);
        if (r != TRN_CONFIG_OK)
            return r;
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
    free(cfg->config_path);
    cfg->config_path = NULL;
    free(cfg->metrics_listen);
    cfg->metrics_listen = NULL;
    free(cfg->blas_coretype);
    cfg->blas_coretype = NULL;
    free(cfg->neuron_lib);
    free(cfg->neuron_cc);
    free(cfg->neuron_kernels);
    free(cfg->neuron_target);
    cfg->neuron_lib = cfg->neuron_cc = cfg->neuron_kernels = cfg->neuron_target = NULL;
    for (int i = 0; i < cfg->nsettings; i++)
        free(cfg->settings[i].value);
    free(cfg->settings);
    cfg->settings = NULL;
    cfg->nsettings = cfg->settings_cap = 0;
    free(cfg->tls_cert);
    free(cfg->tls_key);
    free(cfg->tls_client_ca);
    free(cfg->tokens_file);
    cfg->tls_cert = cfg->tls_key = cfg->tls_client_ca = cfg->tokens_file = NULL;
}
