/*
 * daemon.c — start-up, the main loop, and clean shutdown.
 *
 * The main thread polls the gRPC completion queue in slices of 100 ms; between
 * slices it reads the signal pipe (signals.h), expires session leases, pings
 * the systemd watchdog (systemd.h), so a stuck main loop is restarted, and,
 * once the scheduler has been idle for a while, gives the heap pages kept
 * for kernels' scratch back to the system (memory_release.h).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "daemon/daemon.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config_reload.h"
#include "daemon/crash.h"
#include "daemon/exec_space.h"
#include "daemon/executor.h"
#include "daemon/heap.h"
#include "daemon/log.h"
#include "daemon/memory_release.h"
#include "daemon/op_scratch.h"
#include "daemon/residency.h"
#include "daemon/signals.h"
#include "daemon/systemd.h"
#include "kernels/neuron/backend_neuron.h"
#include "kernels/neuron/nc_runtime.h"
#include "ops/fft_shape.h"
#include "scheduler/graph_cache.h"

#define POLL_SLICE_MS 100
/* How long a starting daemon waits for NeuronCores another process holds. */
#define CORES_TAKEN_WAIT_MS 3000
#define SHUTDOWN_GRACE_MS 2000
/* Graph structures the graph cache keeps (graph_cache.h). */
#define TRN_DAEMON_GRAPH_CACHE_ENTRIES 1024

/* Addresses reserved for buffers when kernels run in executors, and the op
 * arena (daemon/exec_space.h); neither takes memory until used. */
#define TRN_DAEMON_BUFFER_RANGE ((uint64_t)16 << 40)
#define TRN_DAEMON_OP_ARENA ((uint64_t)1 << 30)
/* Ops' step and stage scratch (daemon/op_scratch.h): lent at most a
 * quarter of the machine's memory (at least 2 GiB), kept for reuse up to
 * 256 MiB. */
#define TRN_DAEMON_SCRATCH_LENT_MIN ((size_t)2 << 30)
#define TRN_DAEMON_SCRATCH_KEPT ((size_t)256 << 20)

/* How an executor names the plan-cache entry plan (NULL: none) and part. */
static trn_exec_plan_ref plan_ref_of(const struct trn_plan_entry *plan, unsigned part) {
    return (trn_exec_plan_ref){.key = plan ? trn_plan_entry_key(plan) : NULL,
                               .spec = plan ? trn_plan_entry_spec(plan) : NULL,
                               .part = part};
}

/* Where a core's shard runs: in the core's executor, except what does not
 * go there yet (daemon/executor.h, "What runs where"). */
static trn_kstatus run_core(void *ctx, int core, const trn_op_desc *op,
                            const struct trn_plan_entry *plan, unsigned plan_part, int shard,
                            int nshards, uint64_t est_ns, uint64_t patience_ns, int *pending) {
    trnscid *d = ctx;
    if (!trn_exec_pool_takes(op))
        return d->backend->run(d->backend, op, NULL, shard, nshards);
    const trn_exec_plan_ref ref = plan_ref_of(plan, plan_part);
    const uint64_t tick = d->residency ? trn_write_clock_now(d->wclock) : 0;
    const unsigned epoch = trn_residency_epoch(d->residency, core);
    const trn_kstatus k =
        trn_exec_pool_run(d->executors, core, op, plan ? &ref : NULL, shard, nshards, est_ns,
                          patience_ns, pending, trn_sched_running_followed());
    if (d->residency && nshards == 1 && k == TRN_KSTATUS_OK && !(pending && *pending))
        trn_residency_note(d->residency, core, op, plan, plan_part, tick, epoch);
    return k;
}

/* A chain of a stream's one-shard ops, in one hand-off to the core's
 * executor (trn_sched_config.run_core_chain; core_chains admits only ops
 * the executors take). */
static void run_core_chain(void *ctx, int core, trn_sched_chain_op *ops, int n, int followed) {
    _Static_assert(TRN_SCHED_CHAIN_MAX <= TRN_EXEC_CHAIN_MAX, "a chain fits one request");
    trnscid *d = ctx;
    trn_exec_op eops[TRN_SCHED_CHAIN_MAX];
    trn_exec_plan_ref refs[TRN_SCHED_CHAIN_MAX];
    for (int i = 0; i < n; i++) {
        const struct trn_plan_entry *plan = ops[i].plan;
        refs[i] = plan_ref_of(plan, ops[i].plan_part);
        eops[i] = (trn_exec_op){.op = ops[i].desc,
                                .plan = plan ? &refs[i] : NULL,
                                .nshards = 1,
                                .est_ns = ops[i].est_ns,
                                .peek = ops[i].peek,
                                .status = TRN_KSTATUS_FAILED}; /* until answered */
    }
    const uint64_t tick = d->residency ? trn_write_clock_now(d->wclock) : 0;
    const unsigned epoch = trn_residency_epoch(d->residency, core);
    trn_exec_pool_run_chain(d->executors, core, eops, n, followed);
    for (int i = 0; i < n; i++) {
        ops[i].ran = eops[i].ran;
        ops[i].status = eops[i].status;
        ops[i].t_start = eops[i].t_start;
        ops[i].t_end = eops[i].t_end;
        /* Its inputs are in the core's memory now, a peek's moved ahead. */
        if (d->residency && (ops[i].peek || (ops[i].ran && ops[i].status == TRN_KSTATUS_OK)))
            trn_residency_note(d->residency, core, ops[i].desc, ops[i].plan, ops[i].plan_part, tick,
                               epoch);
    }
}

/* A sequence's steps run together, in one request to the core's executor
 * (trn_sched_config.run_core_together). */
static trn_kstatus run_core_together(void *ctx, int core, const trn_op_desc *const *descs, int n,
                                     const struct trn_plan_entry *plan, uint64_t est_ns,
                                     int followed) {
    _Static_assert(TRN_SCHED_CHAIN_MAX <= TRN_EXEC_CHAIN_MAX, "a sequence fits one request");
    trnscid *d = ctx;
    trn_exec_op eops[TRN_SCHED_CHAIN_MAX];
    const trn_exec_plan_ref ref = plan_ref_of(plan, 0);
    for (int i = 0; i < n; i++)
        eops[i] = (trn_exec_op){.op = descs[i],
                                .plan = i == 0 ? &ref : NULL,
                                .nshards = 1,
                                .est_ns = i == 0 ? est_ns : 0,
                                .status = TRN_KSTATUS_FAILED}; /* until answered */
    trn_exec_pool_run_together(d->executors, core, eops, n, followed);
    return eops[0].status;
}

/* Whether a chain may end with a peek at op (trn_sched_config.chain_peek):
 * a GEMM big enough that the backend moves its inputs ahead. */
static int chain_peek(void *ctx, const trn_op_desc *op) {
    (void)ctx;
    return trn_residency_big_gemm(op);
}

/* A core's epoch for the residency records: its executor starts. */
static unsigned core_starts(void *ctx, int core) {
    const trnscid *d = ctx;
    return trn_exec_pool_core_starts(d->executors, core);
}

/* Placement by location (trn_sched_config.locate; daemon/residency.h): the
 * extra bytes at the move rate the executors measured. */
static int locate(void *ctx, const trn_op_desc *op, const struct trn_plan_entry *plan,
                  unsigned plan_part, int here, uint64_t *extra_ns) {
    trnscid *d = ctx;
    uint64_t extra_bytes = 0;
    const int home = trn_residency_locate(d->residency, op, plan, plan_part, here, &extra_bytes);
    /* Any extra bytes cost at least 1 ns: 0 would say "nothing to move". */
    const uint64_t ns = extra_bytes ? trn_backend_neuron_move_ns(d->backend, extra_bytes) : 0;
    *extra_ns = extra_bytes && ns == 0 ? 1 : ns;
    return home;
}

static int core_chains(void *ctx, const trn_op_desc *op) {
    (void)ctx;
    return trn_exec_pool_takes(op);
}

/* Concludes a run_core that stopped waiting (its patience). */
static trn_kstatus run_core_finish(void *ctx, int core) {
    trnscid *d = ctx;
    return trn_exec_pool_finish(d->executors, core);
}

/* Before the plan cache prepares an FFT plan part: the planner executor
 * prepares it first (FFTW's planning is where FFTW allocates most, and it
 * aborts when it cannot), and the daemon then makes the same plan from its
 * wisdom. Contraction plans (a path search in our own code) are made here. */
static int plan_first(void *ctx, const char *key, const trn_plan_spec *spec, unsigned part,
                      char *err, size_t errlen) {
    trnscid *d = ctx;
    if (spec->family != TRN_PLAN_FFT)
        return 0;
    const trn_exec_plan_ref ref = {.key = key, .spec = spec, .part = part};
    return trn_exec_pool_plan(d->executors, &ref, err, errlen);
}

/* After every plan part the plan cache prepares: the executors get the
 * planning knowledge that made it. */
static void plans_built(void *ctx) {
    trnscid *d = ctx;
    trn_exec_pool_publish_plans(d->executors);
}

static int core_in_service(void *ctx, int core) {
    const trnscid *d = ctx;
    return trn_exec_pool_core_in_service(d->executors, core);
}

/* Whether clients get opaque device pointers (they map no device buffer). */
static int pointers_opaque(const trnscid *d) {
    return d->cfg.device_pointers == TRN_POINTERS_OPAQUE ||
           (d->cfg.device_pointers == TRN_POINTERS_AUTO && strcmp(d->backend->name, "cpu") != 0);
}

/* The write clock of resident operands (ops/write_clock.h), when they are
 * on: a Neuron backend, --neuron-resident on, and opaque pointers (every
 * write to a device buffer is then the daemon's or an op's, and stamped).
 * In the executors' shared memory when there are executors: they stamp
 * it, and they are forked with the backend that points to it. */
static int make_write_clock(trnscid *d, char *err, size_t errlen) {
    if (!d->cfg.neuron_resident || strcmp(d->backend->name, "cpu") == 0 || !pointers_opaque(d))
        return 0;
    d->wclock = d->space ? trn_exec_space_arena_alloc(d->space, trn_write_clock_bytes())
                         : calloc(1, trn_write_clock_bytes());
    if (!d->wclock) {
        snprintf(err, errlen, "out of memory for the write clock");
        return -1;
    }
    d->wclock_heap = d->space == NULL;
    trn_backend_neuron_set_write_clock(d->backend, d->wclock);
    return 0;
}

/* The Neuron backend's traffic counters (kernels/neuron/nc_runtime.h), in
 * the executors' shared memory or on the heap without executors. */
static int make_traffic(trnscid *d, char *err, size_t errlen) {
    if (strcmp(d->backend->name, "cpu") == 0)
        return 0;
    d->traffic = d->space ? trn_exec_space_arena_alloc(d->space, sizeof(trn_nc_traffic))
                          : calloc(1, sizeof(trn_nc_traffic));
    if (!d->traffic) {
        snprintf(err, errlen, "out of memory for the NeuronCores' traffic counters");
        return -1;
    }
    trn_backend_neuron_set_traffic(d->backend, d->traffic);
    return 0;
}

/* The write clock and the traffic counters (the arena's with executors:
 * freed with it). */
static void free_write_clock(trnscid *d) {
    trn_backend_neuron_set_traffic(d->backend, NULL);
    if (d->wclock_heap)
        free(d->wclock);
    if (!d->space)
        free(d->traffic);
    d->wclock = NULL;
    d->traffic = NULL;
    d->wclock_heap = 0;
}

/* The executors' shared memory and their parent process: before any thread
 * exists (daemon/zygote.h). */
static int create_executors(trnscid *d, char *err, size_t errlen) {
    d->space = trn_exec_space_create(TRN_DAEMON_BUFFER_RANGE, TRN_DAEMON_OP_ARENA, err, errlen);
    if (!d->space || make_write_clock(d, err, errlen) != 0 || make_traffic(d, err, errlen) != 0)
        return -1;
    const trn_exec_pool_config pc = {.ncores = d->cfg.ncores,
                                     .cpus = d->cfg.cpus,
                                     .watchdog_floor_ms = d->cfg.executor_watchdog_floor_ms,
                                     .watchdog_factor = d->cfg.executor_watchdog_factor,
                                     .fault_injection = d->cfg.fault_injection,
                                     .wclock = d->wclock};
    d->executors = trn_exec_pool_create(&pc, d->backend, d->space, err, errlen);
    return d->executors ? 0 : -1;
}

static size_t scratch_lent(void) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const double quarter = pages > 0 && page > 0 ? (double)pages * (double)page / 4.0 : 0.0;
    return quarter > (double)TRN_DAEMON_SCRATCH_LENT_MIN && quarter < (double)SIZE_MAX
               ? (size_t)quarter
               : TRN_DAEMON_SCRATCH_LENT_MIN;
}

/* --run-ahead auto: a conversion started ahead of its turn pays only when
 * it does not take CPU time from the cores' compute: when the copy engine
 * is hardware of its own (a backend other than the CPU's: Trainium's DMA
 * queues), or when a CPU this daemon may use has no core worker, for the
 * copy engine's workers to run on. With every CPU a core (the default),
 * running ahead measured slower here (docs/benchmarks.md, "Run-ahead"). */
static int run_ahead_auto(const trnscid *d) {
    if (strcmp(d->backend->name, "cpu") != 0)
        return 1;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 0;
    return CPU_COUNT(&set) > d->cfg.ncores;
}

static void destroy_executors(trnscid *d) {
    /* Its blocks are in the space (every op that held one has ended). */
    trn_op_scratch_destroy(d->service.scratch);
    d->service.scratch = NULL;
    trn_residency_destroy(d->residency); /* it asks the pool for epochs */
    d->residency = NULL;
    trn_exec_pool_destroy(d->executors);
    d->executors = NULL;
    free_write_clock(d); /* in the space, or on the heap without executors */
    trn_exec_space_destroy(d->space);
    d->space = NULL;
}

/* Where the NKI kernel sources are: the flag's, the installed ones, or
 * this build's source tree. */
static const char *nki_dir(const trn_config *cfg) {
    if (cfg->neuron_kernels)
        return cfg->neuron_kernels;
    return access(TRN_NKI_INSTALL_DIR "/gemm.py", R_OK) == 0 ? TRN_NKI_INSTALL_DIR
                                                             : TRN_NKI_SOURCE_DIR;
}

/* One worker per NeuronCore, pinned round-robin to the CPUs the daemon was
 * given (the host side of a core's work is packing and DMA set-up). */
static void workers_for_neuron(trn_config *cfg, uint32_t ncores) {
    const int ncpus = cfg->ncores > 0 ? cfg->ncores : 1;
    const int n = ncores < TRN_CONFIG_MAX_CORES ? (int)ncores : TRN_CONFIG_MAX_CORES;
    for (int i = ncpus; i < n; i++)
        cfg->cpus[i] = cfg->cpus[i % ncpus];
    cfg->ncores = n;
}

/* The compute backend --backend asks for (backend_neuron.h). Before any
 * thread exists: the Neuron runtime is probed in a child process. A
 * runtime whose cores are taken stops the daemon, with the runtime's
 * message, also under auto; a runtime that is absent or reports no core
 * gives the CPU backend under auto. */
static int create_backend(trnscid *d, char *err, size_t errlen) {
    trn_backend *cpu = trn_backend_cpu_create();
    if (!cpu) {
        snprintf(err, errlen, "cannot create the cpu backend");
        return -1;
    }
    if (d->cfg.backend == TRN_BACKEND_CPU) {
        d->backend = cpu;
        return 0;
    }
    trn_neuron_probe pr;
    char why[600];
    /* Cores held by a daemon that has just died are freed once its
     * executors have gone too: a restart waits that long, no longer. */
    int rc = trn_backend_neuron_probe(d->cfg.neuron_lib, &pr, why, sizeof(why));
    for (int i = 0; rc != 0 && pr.taken && i < CORES_TAKEN_WAIT_MS / 100; i++) {
        usleep(100 * 1000);
        rc = trn_backend_neuron_probe(d->cfg.neuron_lib, &pr, why, sizeof(why));
    }
    if (rc != 0) {
        if (d->cfg.backend == TRN_BACKEND_NEURON || pr.taken) {
            snprintf(err, errlen, "the Neuron backend cannot start: %.400s", why);
            cpu->destroy(cpu);
            return -1;
        }
        trn_log(TRN_LOG_INFO, "backend cpu (no Neuron runtime: %s)", why);
        d->backend = cpu;
        return 0;
    }
    const trn_neuron_config nc = {
        .library = d->cfg.neuron_lib,
        .compiler = d->cfg.neuron_cc,
        .kernels_dir = nki_dir(&d->cfg),
        .store_dir = d->cfg.cache_dir,
        .target = d->cfg.neuron_target,
        .compile_timeout_ms = (int)d->cfg.neuron_compile_timeout_s * 1000,
        .split_min_flop = (uint64_t)d->cfg.neuron_split_min_mflop * 1000000u,
        .in_place = d->cfg.neuron_in_place,
        .core_copies = d->cfg.neuron_core_copies,
        .per_process = d->cfg.executors,
    };
    d->backend = trn_backend_neuron_create(&nc, pr.ncores, cpu, why, sizeof(why));
    if (!d->backend) {
        snprintf(err, errlen, "the Neuron backend cannot start: %.400s", why);
        cpu->destroy(cpu);
        return -1;
    }
    if (trn_backend_neuron_store_note(d->backend)[0])
        trn_log(TRN_LOG_WARN, "%s", trn_backend_neuron_store_note(d->backend));
    workers_for_neuron(&d->cfg, pr.ncores);
    trn_log(TRN_LOG_INFO, "backend neuron: %u NeuronCores%s; %s", pr.ncores,
            d->cfg.executors ? ", one executor each" : "",
            d->cfg.neuron_cc ? "GEMMs run on them from NEFFs, other ops on the CPU"
                             : "no --neuron-cc: every op runs on the CPU");
    return 0;
}

static void warn_plan_cache(const char *msg) {
    trn_log(TRN_LOG_WARN, "%s", msg);
}

int trnscid_start(trnscid *d) {
    char err[512];
    trn_crash_install(trn_service_describe_op);
    d->signal_fd = trn_signals_install();
    if (d->signal_fd < 0) {
        trn_log(TRN_LOG_ERROR, "cannot set up signal handling: %s", strerror(errno));
        return -1;
    }
    if (trn_token_store_init(&d->tokens, d->cfg.tokens_file, err, sizeof(err)) != 0) {
        trn_log(TRN_LOG_ERROR, "%s", err);
        trn_signals_uninstall(d->signal_fd);
        return -1;
    }
    trn_service_ops_init(&d->service);
    if (create_backend(d, err, sizeof(err)) != 0) {
        trn_log(TRN_LOG_ERROR, "%s", err);
        goto fail;
    }
    if (trn_token_store_required(&d->tokens))
        trn_log(TRN_LOG_INFO, "%zu bearer tokens loaded: every gRPC call must present one",
                trn_token_store_count(&d->tokens));
    /* Before any kernel can run: every outside routine is checked, and the
     * ones that fail are replaced or refused (selftest.h). */
    trn_systemd_notify("STATUS=checking the outside routines (self-test)");
    d->selftest = trn_selftest_create(d->cfg.ncores, d->blas_why);
    if (!d->selftest) {
        trn_log(TRN_LOG_ERROR, "out of memory");
        goto fail;
    }
    if (trn_selftest_startup(d->selftest, err, sizeof(err)) != 0) {
        trn_log(TRN_LOG_ERROR, "%s: not serving without it", err);
        goto fail;
    }
    if (d->cfg.executors ? create_executors(d, err, sizeof(err)) != 0
                         : make_write_clock(d, err, sizeof(err)) != 0 ||
                               make_traffic(d, err, sizeof(err)) != 0) {
        trn_log(TRN_LOG_ERROR, "%s", err);
        goto fail;
    }
    trn_sched_config sc = {.cpus = d->cfg.cpus, .ncores = d->cfg.ncores, .ncopy = d->cfg.ncopy};
    if (d->executors) {
        sc.run_core = run_core;
        sc.run_core_finish = run_core_finish;
        sc.run_core_chain = run_core_chain;
        sc.run_core_together = d->backend->run_seq ? run_core_together : NULL;
        sc.core_chains = core_chains;
        sc.chain_pairs = d->backend->run_next != NULL && d->wclock != NULL;
        sc.chain_peek = sc.chain_pairs ? chain_peek : NULL;
        if (sc.chain_pairs && d->cfg.neuron_locality) {
            d->residency = trn_residency_create(d->cfg.ncores, d->wclock, core_starts, d);
            if (!d->residency) {
                trn_log(TRN_LOG_ERROR, "out of memory for the operands' residency records");
                goto fail;
            }
            sc.locate = locate;
        }
        sc.core_in_service = core_in_service;
        sc.run_ctx = d;
    }
    d->sched = trn_sched_create(d->backend, &sc, err, sizeof(err));
    if (!d->sched) {
        trn_log(TRN_LOG_ERROR, "%s", err);
        goto fail;
    }
    if (d->executors && trn_exec_pool_start(d->executors, err, sizeof(err)) != 0) {
        trn_log(TRN_LOG_ERROR, "%s", err);
        goto fail_sched;
    }
    const trn_plan_cache_config pcc = {.max_bytes = d->cfg.plan_cache_bytes,
                                       .dir = d->cfg.cache_dir,
                                       .effort = d->cfg.plan_effort,
                                       .max_transform_bytes = d->cfg.max_session_bytes,
                                       .warn = warn_plan_cache,
                                       .prepare_first = d->executors ? plan_first : NULL,
                                       .built = d->executors ? plans_built : NULL,
                                       .hook_ctx = d,
                                       .compile_threads = (int)d->cfg.neuron_compile_jobs};
    d->plans = trn_plan_cache_create(d->backend, &pcc);
    if (!d->plans || trn_plan_cache_start(d->plans) != 0) {
        trn_log(TRN_LOG_ERROR, "cannot start the plan cache");
        goto fail;
    }
    d->graphs =
        trn_graph_cache_create(d->cfg.cache_dir, TRN_DAEMON_GRAPH_CACHE_ENTRIES, warn_plan_cache);
    if (!d->graphs) {
        trn_log(TRN_LOG_ERROR, "out of memory");
        goto fail;
    }
    if (d->cfg.metrics_listen) {
        d->metrics = trn_metrics_create();
        if (!d->metrics) {
            trn_log(TRN_LOG_ERROR, "out of memory");
            goto fail;
        }
        trn_metrics_heartbeat(d->metrics, trn_now_ms());
    }
    trn_session_table_init(&d->sessions, d->sched, &d->cfg);
    d->sessions.space = d->space;
    d->sessions.backend = d->backend;
    d->sessions.opaque_pointers = pointers_opaque(d);
    d->sessions.wclock = d->wclock;
    d->sessions.plans = d->plans;
    d->service.cfg = &d->cfg;
    d->service.plans = d->plans;
    d->service.graphs = d->graphs;
    d->service.backend = d->backend;
    d->service.sched = d->sched;
    d->service.sessions = &d->sessions;
    d->service.tokens = &d->tokens;
    d->service.daemon_uid = (uint32_t)geteuid();
    d->service.start_ms = trn_now_ms();
    atomic_init(&d->service.draining, 0);
    d->service.metrics = d->metrics;
    d->service.selftest = d->selftest;
    d->service.executors = d->executors;
    d->service.scratch = trn_op_scratch_create(d->space, scratch_lent(), TRN_DAEMON_SCRATCH_KEPT);
    d->service.convert_ahead = d->cfg.convert_ahead;
    d->service.run_ahead =
        d->cfg.run_ahead == TRN_RUN_AHEAD_AUTO ? run_ahead_auto(d) : d->cfg.run_ahead;
    if (!d->service.scratch) {
        snprintf(err, sizeof(err), "out of memory");
        goto fail_frontends;
    }
    /* The health endpoints come up first, so that probes see "starting"
     * rather than nothing until /readyz turns ready at the end. */
    if (d->metrics) {
        d->metrics_http = trn_metrics_http_start(d->cfg.metrics_listen, d->metrics, &d->service,
                                                 err, sizeof(err));
        if (!d->metrics_http)
            goto fail_frontends;
    }
    /* Sockets passed by socket activation serve the unix: addresses bound to
     * their paths. */
    trn_inherited_fds inherited;
    if (trn_inherited_fds_take(&inherited, err, sizeof(err)) != 0)
        goto fail_frontends;
    /* unix:/path → the local transport; everything else → gRPC. */
    char *grpc_addrs[TRN_CONFIG_MAX_LISTEN];
    int ngrpc = 0;
    for (int i = 0; i < d->cfg.nlisten; i++) {
        const char *a = d->cfg.listen[i];
        if (strncmp(a, "unix:", 5) != 0) {
            grpc_addrs[ngrpc++] = d->cfg.listen[i];
            continue;
        }
        d->local[d->nlocal] = trn_local_frontend_start(
            &d->service, a + 5, d->cfg.socket_group,
            trn_inherited_fds_claim_unix(&inherited, a + 5), err, sizeof(err));
        if (!d->local[d->nlocal]) {
            trn_inherited_fds_close_unclaimed(&inherited);
            goto fail_frontends;
        }
        d->nlocal++;
    }
    trn_inherited_fds_close_unclaimed(&inherited);
    d->grpc = trn_grpc_frontend_start(&d->service, grpc_addrs, ngrpc, err, sizeof(err));
    if (!d->grpc)
        goto fail_frontends;
    char cores[256] = "";
    size_t used = 0;
    for (int i = 0; i < d->cfg.ncores && used + 12 < sizeof(cores); i++)
        used += (size_t)snprintf(cores + used, sizeof(cores) - used, "%s%d", i ? "," : "",
                                 d->cfg.cpus[i]);
    trn_log(TRN_LOG_INFO,
            "ready: backend %s, %d cores (cpus %s), %d copy engines, max-session-bytes %llu, "
            "plan cache %s (%s)",
            d->backend->name, d->cfg.ncores, cores, d->cfg.ncopy,
            (unsigned long long)d->cfg.max_session_bytes,
            d->cfg.cache_dir ? d->cfg.cache_dir : "in memory",
            trn_plan_effort_name(d->cfg.plan_effort));
    if (d->metrics)
        trn_metrics_set_serving(d->metrics);
    trn_systemd_notify("READY=1\nSTATUS=serving on %d cores", d->cfg.ncores);
    trn_watchdog_init(&d->watchdog, trn_now_ms());
    return 0;

fail_frontends:
    trn_log(TRN_LOG_ERROR, "%s", err);
    trn_metrics_http_stop(d->metrics_http);
    d->metrics_http = NULL;
    for (int i = 0; i < d->nlocal; i++)
        trn_local_frontend_destroy(d->local[i]);
    d->nlocal = 0;
    trn_sched_shutdown(d->sched);
    trn_session_table_destroy(&d->sessions);
    goto fail;
fail_sched:
    trn_sched_shutdown(d->sched);
fail:
    trn_metrics_destroy(d->metrics);
    d->metrics = NULL;
    d->service.metrics = NULL;
    trn_sched_destroy(d->sched);
    d->sched = NULL;
    trn_plan_cache_destroy(d->plans);
    d->plans = NULL;
    destroy_executors(d);
    trn_graph_cache_destroy(d->graphs);
    d->graphs = NULL;
    if (d->backend)
        d->backend->destroy(d->backend);
    d->backend = NULL;
    trn_selftest_destroy(d->selftest);
    d->selftest = NULL;
    trn_token_store_destroy(&d->tokens);
    trn_service_ops_destroy(&d->service);
    trn_signals_uninstall(d->signal_fd);
    return -1;
}

/* SIGHUP, the tokens file: publish the new tokens, then close the sessions
 * of the removed ones. A file that fails a check changes nothing. */
static void reload_tokens(trnscid *d) {
    char err[512];
    trn_tokens_reload r;
    if (trn_token_store_reload(&d->tokens, &r, err, sizeof(err)) != 0) {
        trn_log(TRN_LOG_ERROR, "reload: %s; the running tokens stay", err);
        return;
    }
    const unsigned closed = r.removed ? trn_session_table_close_revoked(&d->sessions) : 0;
    trn_log(TRN_LOG_INFO,
            "reload: tokens file %s: %u token%s (%u added, %u removed, %u changed); %u "
            "session%s of removed tokens closed",
            d->tokens.path, r.total, r.total == 1 ? "" : "s", r.added, r.removed, r.changed, closed,
            closed == 1 ? "" : "s");
}

/* SIGHUP: parse the config file and the command line again and apply what
 * may change while running, then the tokens file. A file that no longer
 * parses changes nothing. */
static void reload(trnscid *d) {
    trn_systemd_notify("RELOADING=1\nSTATUS=reloading the configuration");
    trn_config fresh = {0};
    char err[512];
    const trn_config_result r = trn_config_parse(&fresh, d->argc, d->argv, err, sizeof(err));
    if (r != TRN_CONFIG_OK) {
        trn_log(TRN_LOG_ERROR, "reload: %s; the running configuration stays", err);
    } else {
        const int n = trn_config_reload(&d->cfg, &fresh);
        if (n < 0)
            trn_log(TRN_LOG_ERROR, "reload: out of memory");
        else
            trn_log(TRN_LOG_INFO, "reload: %d setting%s changed from %s", n, n == 1 ? "" : "s",
                    fresh.config_path ? fresh.config_path : "the command line (no config file)");
    }
    trn_config_free(&fresh);
    if (trn_token_store_required(&d->tokens))
        reload_tokens(d);
    trn_systemd_notify("READY=1\nSTATUS=serving on %d cores", d->cfg.ncores);
}

/* Returns 1 when a stop signal arrived. */
static int read_signals(trnscid *d) {
    const int mask = trn_signals_read(d->signal_fd);
    if (mask & TRN_SIGNAL_RELOAD) {
        trn_log(TRN_LOG_INFO, "received SIGHUP: reloading the configuration%s%s",
                d->tokens.path ? " and the tokens file " : "",
                d->tokens.path ? d->tokens.path : "");
        reload(d);
    }
    if (mask & TRN_SIGNAL_STOP)
        trn_log(TRN_LOG_INFO, "received SIGTERM/SIGINT: shutting down");
    return (mask & TRN_SIGNAL_STOP) != 0;
}

/* The scheduler's count of completed ops. */
static uint64_t ops_completed(trn_sched *s) {
    trn_sched_stats st;
    trn_sched_get_stats(s, &st);
    return st.ops_completed;
}

void trnscid_run(trnscid *d) {
    uint64_t next_expiry = trn_now_ms() + 1000;
    trn_memory_release idle;
    trn_memory_release_init(&idle, trn_now_ms(), ops_completed(d->sched));
    for (;;) {
        trn_grpc_frontend_poll(d->grpc, POLL_SLICE_MS);
        if (read_signals(d))
            break;
        const uint64_t now = trn_now_ms();
        trn_watchdog_tick(&d->watchdog, now);
        if (d->metrics)
            trn_metrics_heartbeat(d->metrics, now);
        if (now >= next_expiry) {
            trn_session_table_expire(&d->sessions, now);
            if (trn_memory_release_due(&idle, now, ops_completed(d->sched),
                                       TRN_MEMORY_RELEASE_IDLE_MS)) {
                trn_service_ops_trim(&d->service);
                trn_heap_release();
            }
            next_expiry = now + 1000;
        }
    }

    trn_systemd_notify("STOPPING=1\nSTATUS=shutting down");
    atomic_store(&d->service.draining, 1);
    /* An on-demand self-test answers its callers before the frontends go. */
    trn_selftest_stop(d->selftest);
    trn_grpc_frontend_begin_shutdown(d->grpc);
    for (int i = 0; i < d->nlocal; i++)
        trn_local_frontend_stop_accepting(d->local[i]);
    /* Queued work is dropped (its waiters get UNAVAILABLE); running shards
     * finish before the workers exit. */
    trn_sched_shutdown(d->sched);
    trn_session_table_close_all(&d->sessions, "daemon shutting down");
    const uint64_t deadline = trn_now_ms() + SHUTDOWN_GRACE_MS;
    int cancelled = 0;
    while (!trn_grpc_frontend_idle(d->grpc)) {
        trn_grpc_frontend_poll(d->grpc, POLL_SLICE_MS);
        trn_watchdog_tick(&d->watchdog, trn_now_ms());
        if (!cancelled && trn_now_ms() >= deadline) {
            trn_grpc_frontend_cancel_all(d->grpc);
            cancelled = 1;
        }
    }
}

void trnscid_stop(trnscid *d) {
    /* First: a scrape reads the scheduler, sessions and plan cache. */
    trn_metrics_http_stop(d->metrics_http);
    d->metrics_http = NULL;
    trn_grpc_frontend_destroy(d->grpc);
    d->grpc = NULL;
    for (int i = 0; i < d->nlocal; i++)
        trn_local_frontend_destroy(d->local[i]);
    d->nlocal = 0;
    trn_session_table_destroy(&d->sessions);
    trn_sched_destroy(d->sched);
    d->sched = NULL;
    /* After the workers: an op that ran waited for its plan's builds. */
    trn_plan_cache_destroy(d->plans);
    d->plans = NULL;
    /* After the workers, the buffers and the planner thread (which
     * publishes to the executors). */
    destroy_executors(d);
    trn_graph_cache_destroy(d->graphs);
    d->graphs = NULL;
    d->backend->destroy(d->backend);
    d->backend = NULL;
    trn_metrics_destroy(d->metrics);
    d->metrics = NULL;
    trn_selftest_destroy(d->selftest);
    d->selftest = NULL;
    trn_token_store_destroy(&d->tokens);
    trn_service_ops_destroy(&d->service);
    trn_signals_uninstall(d->signal_fd);
    trn_log(TRN_LOG_INFO, "stopped");
}
