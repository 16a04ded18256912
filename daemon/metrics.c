/*
 * metrics.c — see metrics.h.
 *
 * Names follow Prometheus conventions: a trnscid_ prefix, base units
 * (seconds, bytes), _total on counters. Histograms are kept as per-bucket
 * counts (one relaxed add per observation) and made cumulative when
 * rendered; a scrape that races an observation may see a bucket and the
 * count disagree by one, which Prometheus tolerates.
 *
 * Op labels: family comes from the op kind's number (ops/op.h groups
 * kinds by 16: memory, blas, fft, rand, solver, sparse); op is the kind's
 * name, or "kindN" for a kind added after this table. Only kinds that have
 * been seen are rendered.
 */
#define _GNU_SOURCE
#include "daemon/metrics.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/executor.h"
#include "daemon/selftest.h"
#include "daemon/service_context.h"
#include "daemon/session.h"
#include "kernels/neuron/backend_neuron.h"
#include "ops/op.h"
#include "scheduler/plan_cache.h"
#include "scheduler/sched.h"
#include "trnsci_wire.h"

#define NKINDS 128 /* per-kind counters are indexed by the kind's value */
#define KIND_FITS(kind, value, wire, stem, field, label, title, family, engine)                    \
    _Static_assert(value < NKINDS, "TRN_OP_" #kind " fits the per-kind arrays");
TRN_OP_KINDS(KIND_FITS)
#undef KIND_FITS
#define NOUTCOMES 7 /* trn_sched_status */
#define NTRANSPORTS 2
#define MAX_WORKERS 1100

/* Upper bounds of the latency buckets, in nanoseconds (+Inf is implied). */
static const uint64_t bucket_ns[] = {
    5000,      10000,     25000,      50000,      100000,         250000,   500000,
    1000000,   2500000,   5000000,    10000000,   25000000,       50000000, 100000000,
    250000000, 500000000, 1000000000, 2500000000, 10000000000ULL,
};
#define NBUCKETS (sizeof(bucket_ns) / sizeof(bucket_ns[0]) + 1)

typedef struct histogram {
    _Atomic uint64_t bucket[NBUCKETS];
    _Atomic uint64_t sum_ns;
} histogram;

struct trn_metrics {
    _Atomic uint64_t ops[NKINDS][NOUTCOMES];
    histogram queue[NKINDS], run[NKINDS];
    _Atomic uint64_t calls[NTRANSPORTS], received[NTRANSPORTS], sent[NTRANSPORTS];
    _Atomic uint64_t replies[NTRANSPORTS]; /* asynchronous launches get none */
    _Atomic uint64_t placed[2];            /* ops completed on the host, on a NeuronCore */
    _Atomic uint64_t heartbeat_ms;
    atomic_int serving;
    /* Busy ratio since the previous scrape (render only, under lock). */
    pthread_mutex_t lock;
    uint64_t prev_ns, prev_busy[MAX_WORKERS];
    double ratio[MAX_WORKERS];
};

static const char *const outcome_names[NOUTCOMES] = {
    "ok", "failed", "unsupported", "cancelled", "shutdown", "expired", "out_of_memory",
};

/* An op kind's metric label, and its family's (ops/op_kinds.h). */
static const char *kind_name(int kind, char *buf, size_t len) {
    const trn_op_info *k = trn_op_info_of(kind);
    if (k)
        return k->label;
    snprintf(buf, len, "kind%d", kind);
    return buf;
}

static const char *family_name(int kind) {
    const trn_op_info *k = trn_op_info_of(kind);
    return k ? k->family : "other";
}

trn_metrics *trn_metrics_create(void) {
    trn_metrics *m = calloc(1, sizeof(*m));
    if (m)
        pthread_mutex_init(&m->lock, NULL);
    return m;
}

void trn_metrics_destroy(trn_metrics *m) {
    if (!m)
        return;
    pthread_mutex_destroy(&m->lock);
    free(m);
}

static void observe(histogram *h, uint64_t ns) {
    size_t b = 0;
    while (b < NBUCKETS - 1 && ns > bucket_ns[b])
        b++;
    atomic_fetch_add_explicit(&h->bucket[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum_ns, ns, memory_order_relaxed);
}

void trn_metrics_op_done(trn_metrics *m, int kind, int status, uint64_t queue_ns, uint64_t run_ns) {
    if (kind < 0 || kind >= NKINDS || status < 0 || status >= NOUTCOMES)
        return;
    atomic_fetch_add_explicit(&m->ops[kind][status], 1, memory_order_relaxed);
    if (status == 0) { /* ran: it has both times */
        observe(&m->queue[kind], queue_ns);
        observe(&m->run[kind], run_ns);
    }
}

void trn_metrics_placed(trn_metrics *m, int on_neuroncore) {
    atomic_fetch_add_explicit(&m->placed[on_neuroncore != 0], 1, memory_order_relaxed);
}

void trn_metrics_received(trn_metrics *m, trn_transport_kind t, size_t bytes) {
    atomic_fetch_add_explicit(&m->calls[t & 1], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->received[t & 1], bytes, memory_order_relaxed);
}

void trn_metrics_sent(trn_metrics *m, trn_transport_kind t, size_t bytes) {
    atomic_fetch_add_explicit(&m->sent[t & 1], bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->replies[t & 1], 1, memory_order_relaxed);
}

void trn_metrics_heartbeat(trn_metrics *m, uint64_t now_ms) {
    atomic_store_explicit(&m->heartbeat_ms, now_ms, memory_order_relaxed);
}

uint64_t trn_metrics_since_heartbeat(const trn_metrics *m, uint64_t now_ms) {
    const uint64_t hb = atomic_load_explicit(&m->heartbeat_ms, memory_order_relaxed);
    return now_ms > hb ? now_ms - hb : 0;
}

void trn_metrics_set_serving(trn_metrics *m) {
    atomic_store(&m->serving, 1);
}

int trn_metrics_ready(trn_metrics *m, trn_service *svc, char *why, size_t len) {
    if (!atomic_load(&m->serving)) {
        snprintf(why, len, "starting");
        return 0;
    }
    if (atomic_load(&svc->draining)) {
        snprintf(why, len, "shutting down");
        return 0;
    }
    trn_plan_cache_stats pc;
    trn_plan_cache_get_stats(svc->plans, &pc);
    if (!pc.prewarm_done) {
        snprintf(why, len, "pre-warming the plan cache");
        return 0;
    }
    snprintf(why, len, "ready: %d cores", svc->cfg->ncores);
    return 1;
}

/* ---- rendering --------------------------------------------------------------- */

typedef struct page {
    char *buf;
    size_t len, cap;
    int oom;
} page;

static void put(page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(page *p, const char *fmt, ...) {
    if (p->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        const int n = vsnprintf(p->buf + p->len, p->cap - p->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            p->oom = 1;
            return;
        }
        if ((size_t)n < p->cap - p->len) {
            p->len += (size_t)n;
            return;
        }
        const size_t cap = 2 * p->cap + (size_t)n;
        char *b = realloc(p->buf, cap);
        if (!b) {
            p->oom = 1;
            return;
        }
        p->buf = b;
        p->cap = cap;
    }
}

static void header(page *p, const char *name, const char *type, const char *help) {
    put(p, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A metric with one unlabelled sample. Integers up to 2^53 print exactly. */
static void scalar(page *p, const char *name, const char *type, const char *help, double v) {
    header(p, name, type, help);
    put(p, "%s %.17g\n", name, v);
}

static void render_histograms(page *p, const char *name, const char *help, histogram *h) {
    header(p, name, "histogram", help);
    for (int k = 0; k < NKINDS; k++) {
        uint64_t counts[NBUCKETS], total = 0;
        for (size_t b = 0; b < NBUCKETS; b++)
            total += counts[b] = atomic_load_explicit(&h[k].bucket[b], memory_order_relaxed);
        if (!total)
            continue;
        char kb[16];
        const char *op = kind_name(k, kb, sizeof(kb));
        uint64_t cum = 0;
        for (size_t b = 0; b < NBUCKETS; b++) {
            cum += counts[b];
            if (b < NBUCKETS - 1)
                put(p, "%s_bucket{family=\"%s\",op=\"%s\",le=\"%g\"} %llu\n", name, family_name(k),
                    op, (double)bucket_ns[b] * 1e-9, (unsigned long long)cum);
            else
                put(p, "%s_bucket{family=\"%s\",op=\"%s\",le=\"+Inf\"} %llu\n", name,
                    family_name(k), op, (unsigned long long)cum);
        }
        put(p, "%s_sum{family=\"%s\",op=\"%s\"} %.9f\n", name, family_name(k), op,
            (double)atomic_load_explicit(&h[k].sum_ns, memory_order_relaxed) * 1e-9);
        put(p, "%s_count{family=\"%s\",op=\"%s\"} %llu\n", name, family_name(k), op,
            (unsigned long long)cum);
    }
}

static void render_workers(page *p, trn_metrics *m, trn_service *svc) {
    const int n = trn_sched_worker_count(svc->sched);
    header(p, "trnscid_worker_busy_seconds_total", "counter",
           "Time each engine worker spent running shards.");
    const uint64_t now = trn_sched_now_ns();
    pthread_mutex_lock(&m->lock);
    /* The ratio window: since the previous scrape, at least 1 s (a second
     * scraper within a second sees the same ratios). */
    const int refresh = m->prev_ns == 0 || now - m->prev_ns >= 1000000000ULL;
    for (int i = 0; i < n && i < MAX_WORKERS; i++) {
        trn_sched_worker_info w;
        trn_sched_worker_get(svc->sched, i, &w);
        put(p, "trnscid_worker_busy_seconds_total{engine=\"%s\",index=\"%d\",cpu=\"%d\"} %.9f\n",
            trn_engine_name(w.engine), w.index, w.cpu, (double)w.usage.run_ns * 1e-9);
        if (refresh) {
            if (m->prev_ns) {
                const double r =
                    (double)(w.usage.run_ns - m->prev_busy[i]) / (double)(now - m->prev_ns);
                m->ratio[i] = r < 0 ? 0 : r > 1 ? 1 : r;
            }
            m->prev_busy[i] = w.usage.run_ns;
        }
    }
    if (refresh)
        m->prev_ns = now;
    header(p, "trnscid_worker_busy_ratio", "gauge",
           "Fraction of time each engine worker was running shards, since the previous scrape "
           "(at least 1 s before).");
    for (int i = 0; i < n && i < MAX_WORKERS; i++) {
        trn_sched_worker_info w;
        trn_sched_worker_get(svc->sched, i, &w);
        put(p, "trnscid_worker_busy_ratio{engine=\"%s\",index=\"%d\",cpu=\"%d\"} %.4f\n",
            trn_engine_name(w.engine), w.index, w.cpu, m->ratio[i]);
    }
    pthread_mutex_unlock(&m->lock);
    header(p, "trnscid_worker_shards_total", "counter", "Shards each engine worker ran.");
    for (int i = 0; i < n; i++) {
        trn_sched_worker_info w;
        trn_sched_worker_get(svc->sched, i, &w);
        put(p, "trnscid_worker_shards_total{engine=\"%s\",index=\"%d\"} %llu\n",
            trn_engine_name(w.engine), w.index, (unsigned long long)w.usage.shards);
    }
}

/* jemalloc's statistics, when the daemon runs on jemalloc (the sanitizer
 * build does not): mallctl is then defined. */
extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
    __attribute__((weak));

static void render_memory(page *p) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    header(p, "trnscid_memory_resident_bytes", "gauge", "Resident memory of the daemon.");
    put(p, "trnscid_memory_resident_bytes %llu\n",
        (unsigned long long)resident * (unsigned long long)sysconf(_SC_PAGESIZE));
    if (!mallctl)
        return;
    uint64_t epoch = 1;
    size_t sz = sizeof(epoch);
    mallctl("epoch", &epoch, &sz, &epoch, sz); /* refresh the cached statistics */
    static const char *const stats[][2] = {
        {"allocated", "Bytes the daemon allocated with jemalloc (stats.allocated)."},
        {"active", "Bytes in active jemalloc pages (stats.active)."},
        {"metadata", "Bytes of jemalloc metadata (stats.metadata)."},
        {"resident", "Bytes of jemalloc's physically resident pages (stats.resident)."},
        {"mapped", "Bytes jemalloc has mapped (stats.mapped)."},
        {"retained", "Bytes jemalloc retains without mapping (stats.retained)."},
    };
    for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
        char name[64], key[32];
        size_t v = 0, vsz = sizeof(v);
        snprintf(key, sizeof(key), "stats.%s", stats[i][0]);
        if (mallctl(key, &v, &vsz, NULL, 0) != 0)
            continue;
        snprintf(name, sizeof(name), "trnscid_jemalloc_%s_bytes", stats[i][0]);
        header(p, name, "gauge", stats[i][1]);
        put(p, "%s %zu\n", name, v);
    }
}

/* The latest self-test of the outside routines (daemon/selftest.h). */
static void render_selftest(void *arg, const trn_st_report *r, const trn_selftest_meta *meta,
                            const char *err) {
    page *p = arg;
    (void)err;
    if (!r)
        return;
    header(p, "trnscid_selftest_routines", "gauge",
           "Outside routines (OpenBLAS, LAPACK, FFTW) by the latest self-test's result: passed "
           "with the library's routine, replaced by another that passed, or refused.");
    put(p, "trnscid_selftest_routines{result=\"passed\"} %u\n", r->passed);
    put(p, "trnscid_selftest_routines{result=\"replaced\"} %u\n", r->replaced);
    put(p, "trnscid_selftest_routines{result=\"refused\"} %u\n", r->refused);
    header(p, "trnscid_selftest_failures", "gauge",
           "Cases the library's routine failed in the latest self-test (1 for a crash or a "
           "stall), for each routine that did not pass.");
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        const trn_st_routine_result *rr = &r->r[id];
        if (!rr->checked || rr->chosen == 0)
            continue;
        const unsigned f = rr->cand[0].failed ? rr->cand[0].failed : 1;
        put(p, "trnscid_selftest_failures{routine=\"%s\",group=\"%s\",used=\"%s\"} %u\n",
            trn_routine_name(id), trn_routine_group(id), trn_st_used_name(r, id), f);
    }
    scalar(p, "trnscid_selftest_duration_seconds", "gauge", "Wall time of the latest self-test.",
           r->seconds);
    scalar(p, "trnscid_selftest_timestamp_seconds", "gauge",
           "When the latest self-test finished (Unix time).",
           (double)meta->finished_unix_ms * 1e-3);
    header(p, "trnscid_blas_info", "gauge",
           "OpenBLAS's kernel set and build the daemon runs (value 1).");
    put(p, "trnscid_blas_info{core=\"%s\",config=\"%s\"} 1\n", r->blas_core, r->blas_config);
}

/* The label of executor i: its core, or "planner" (the planner executor,
 * index n = the core count). */
static const char *executor_label(int i, int n, char *buf, size_t len) {
    if (i == n)
        return "planner";
    snprintf(buf, len, "%d", i);
    return buf;
}

/* Each core's executor, and the planner executor (daemon/executor.h). */
static void render_executors(page *p, trn_exec_pool *ex) {
    const int n = trn_exec_pool_ncores(ex);
    const int shown = n < MAX_WORKERS ? n : MAX_WORKERS;
    trn_exec_core_info info[MAX_WORKERS + 1];
    for (int i = 0; i < shown; i++)
        trn_exec_pool_core_info(ex, i, &info[i]);
    trn_exec_pool_core_info(ex, n, &info[shown]);
    char b[16];
    header(p, "trnscid_executor_starts_total", "counter",
           "Executor processes started for each core and for planning (the first, and every "
           "restart).");
    for (int i = 0; i <= shown; i++)
        put(p, "trnscid_executor_starts_total{core=\"%s\"} %llu\n",
            executor_label(i, shown, b, sizeof(b)), (unsigned long long)info[i].starts);
    header(p, "trnscid_executor_faults_total", "counter",
           "Ops (or plans) failed because their executor crashed or ran past the watchdog.");
    for (int i = 0; i <= shown; i++) {
        const char *l = executor_label(i, shown, b, sizeof(b));
        put(p, "trnscid_executor_faults_total{core=\"%s\",cause=\"crash\"} %llu\n", l,
            (unsigned long long)(info[i].faults - info[i].watchdog));
        put(p, "trnscid_executor_faults_total{core=\"%s\",cause=\"watchdog\"} %llu\n", l,
            (unsigned long long)info[i].watchdog);
    }
    header(p, "trnscid_executor_start_seconds", "gauge",
           "How long each executor's last start took, until it answered.");
    for (int i = 0; i <= shown; i++)
        put(p, "trnscid_executor_start_seconds{core=\"%s\"} %.6f\n",
            executor_label(i, shown, b, sizeof(b)), (double)info[i].restart_us * 1e-6);
    header(p, "trnscid_core_in_service", "gauge",
           "1 for a core in service, 0 for one taken out after repeated executor faults.");
    for (int i = 0; i < n && i < MAX_WORKERS; i++)
        put(p, "trnscid_core_in_service{core=\"%d\"} %d\n", i, !info[i].quarantined);
}

char *trn_metrics_render(trn_metrics *m, trn_service *svc, size_t *len) {
    page p = {.cap = 16384};
    p.buf = malloc(p.cap);
    if (!p.buf)
        return NULL;
    p.buf[0] = '\0';

    header(&p, "trnscid_info", "gauge", "The daemon's version, protocol and backend (value 1).");
    put(&p, "trnscid_info{version=\"%d.%d.%d\",protocol=\"%u.%u\",backend=\"%s\"} 1\n",
        TRNSCI_VERSION_MAJOR, TRNSCI_VERSION_MINOR, TRNSCI_VERSION_PATCH, TRNSCI_PROTOCOL_MAJOR,
        TRNSCI_PROTOCOL_MINOR, svc->backend->name);
    scalar(&p, "trnscid_uptime_seconds", "gauge", "Time since the daemon started.",
           (double)(trn_now_ms() - svc->start_ms) * 1e-3);
    scalar(&p, "trnscid_cores", "gauge", "Compute cores (pinned workers) the daemon runs.",
           (double)svc->cfg->ncores);
    char why[128];
    scalar(&p, "trnscid_ready", "gauge", "1 when /readyz answers 200.",
           (double)(trn_metrics_ready(m, svc, why, sizeof(why))));

    render_workers(&p, m, svc);
    if (svc->executors)
        render_executors(&p, svc->executors);

    trn_sched_stats ss;
    trn_sched_get_stats(svc->sched, &ss);
    scalar(&p, "trnscid_ops_queued", "gauge", "Ops submitted and not yet started.",
           (double)ss.ops_queued);
    scalar(&p, "trnscid_ops_running", "gauge",
           "Ops at the head of their stream: waiting for a core or running.",
           (double)ss.ops_running);
    scalar(&p, "trnscid_worker_wakeups_total", "counter",
           "Workers woken by the scheduler to take ready work.", (double)ss.wakeups);
    scalar(&p, "trnscid_worker_wakeups_idle_total", "counter",
           "Worker wake-ups that found no work left to take.", (double)ss.wakeups_idle);
    scalar(&p, "trnscid_ops_run_ahead_total", "counter",
           "Ops whose first stage (a conversion) started before their turn on their stream, "
           "while the op in front of it computed.",
           (double)ss.ops_ahead);
    scalar(&p, "trnscid_chains_total", "counter",
           "Chains of a stream's small ops handed to a core's executor at once.",
           (double)ss.chains);
    scalar(&p, "trnscid_ops_chained_total", "counter",
           "Ops that ran in a chain behind the op in front of them (the chains' first ops "
           "not counted).",
           (double)ss.ops_chained);
    scalar(&p, "trnscid_chain_peeks_total", "counter",
           "Chains given the op queued behind them, of the same program, so that its inputs "
           "move while the chain runs (Neuron backend).",
           (double)ss.chain_peeks);
    scalar(&p, "trnscid_ops_placed_by_location_total", "counter",
           "Ops handed to the core that holds their inputs instead of run by the core that "
           "took them (Neuron backend, --neuron-locality).",
           (double)ss.ops_placed_by_location);
    scalar(&p, "trnscid_graph_segments_together_total", "counter",
           "Launches of a graph segment whose nodes ran together as one program and "
           "succeeded (Neuron backend: a segment of GEMMs as one NEFF).",
           (double)ss.seqs_together);

    header(&p, "trnscid_ops_total", "counter", "Ops completed, by family, op and outcome.");
    for (int k = 0; k < NKINDS; k++) {
        char kb[16];
        for (int o = 0; o < NOUTCOMES; o++) {
            const uint64_t v = atomic_load_explicit(&m->ops[k][o], memory_order_relaxed);
            if (v)
                put(&p, "trnscid_ops_total{family=\"%s\",op=\"%s\",outcome=\"%s\"} %llu\n",
                    family_name(k), kind_name(k, kb, sizeof(kb)), outcome_names[o],
                    (unsigned long long)v);
        }
    }
    render_histograms(&p, "trnscid_op_queue_seconds",
                      "Time ops that ran waited from reaching their stream's head to their "
                      "first shard starting.",
                      m->queue);
    render_histograms(&p, "trnscid_op_run_seconds",
                      "Time from an op's first shard starting to its last shard ending.", m->run);

    static const char *const tnames[NTRANSPORTS] = {"grpc", "local"};
    header(&p, "trnscid_ops_placed_total", "counter",
           "Ops completed, by where they ran: a NeuronCore (from a NEFF) or the host's CPUs.");
    put(&p, "trnscid_ops_placed_total{placement=\"host\"} %llu\n",
        (unsigned long long)atomic_load(&m->placed[0]));
    put(&p, "trnscid_ops_placed_total{placement=\"neuroncore\"} %llu\n",
        (unsigned long long)atomic_load(&m->placed[1]));
    header(&p, "trnscid_requests_total", "counter", "Requests received, by transport.");
    for (int t = 0; t < NTRANSPORTS; t++)
        put(&p, "trnscid_requests_total{transport=\"%s\"} %llu\n", tnames[t],
            (unsigned long long)atomic_load_explicit(&m->calls[t], memory_order_relaxed));
    header(&p, "trnscid_replies_total", "counter",
           "Replies sent, by transport (an asynchronous launch gets none).");
    for (int t = 0; t < NTRANSPORTS; t++)
        put(&p, "trnscid_replies_total{transport=\"%s\"} %llu\n", tnames[t],
            (unsigned long long)atomic_load_explicit(&m->replies[t], memory_order_relaxed));
    header(&p, "trnscid_transport_received_bytes_total", "counter",
           "Request bytes received, by transport (shared-memory buffer contents do not move "
           "and are not counted).");
    for (int t = 0; t < NTRANSPORTS; t++)
        put(&p, "trnscid_transport_received_bytes_total{transport=\"%s\"} %llu\n", tnames[t],
            (unsigned long long)atomic_load_explicit(&m->received[t], memory_order_relaxed));
    header(&p, "trnscid_transport_sent_bytes_total", "counter", "Reply bytes sent, by transport.");
    for (int t = 0; t < NTRANSPORTS; t++)
        put(&p, "trnscid_transport_sent_bytes_total{transport=\"%s\"} %llu\n", tnames[t],
            (unsigned long long)atomic_load_explicit(&m->sent[t], memory_order_relaxed));

    trn_session_info *snap = NULL;
    const size_t ns = trn_session_table_snapshot(svc->sessions, NULL, &snap);
    unsigned by_transport[NTRANSPORTS] = {0};
    uint64_t bytes = 0, buffers = 0, kept = 0;
    for (size_t i = 0; i < ns; i++) {
        by_transport[snap[i].transport & 1]++;
        bytes += snap[i].bytes;
        buffers += snap[i].buffers;
        kept += snap[i].kept_bytes;
    }
    free(snap);
    header(&p, "trnscid_sessions", "gauge", "Open sessions, by transport.");
    for (int t = 0; t < NTRANSPORTS; t++)
        put(&p, "trnscid_sessions{transport=\"%s\"} %u\n", tnames[t], by_transport[t]);
    scalar(&p, "trnscid_buffer_bytes", "gauge", "Bytes of buffers the sessions hold.",
           (double)bytes);
    scalar(&p, "trnscid_buffers", "gauge", "Buffers the sessions hold.", (double)buffers);
    scalar(&p, "trnscid_buffer_kept_bytes", "gauge",
           "Bytes of freed device buffers the sessions keep for reuse.", (double)kept);

    trn_plan_cache_stats pc;
    trn_plan_cache_get_stats(svc->plans, &pc);
    scalar(&p, "trnscid_plan_cache_hits_total", "counter", "Plan creations that found the plan.",
           (double)pc.hits);
    scalar(&p, "trnscid_plan_cache_misses_total", "counter", "Plan creations that made a plan.",
           (double)pc.misses);
    scalar(&p, "trnscid_plan_cache_evictions_total", "counter", "Plans evicted.",
           (double)pc.evictions);
    scalar(&p, "trnscid_plan_cache_entries", "gauge", "Plans in the cache.", (double)pc.entries);
    scalar(&p, "trnscid_plan_cache_bytes", "gauge", "Estimated memory of the cached plans.",
           (double)pc.bytes);
    scalar(&p, "trnscid_plan_cache_max_bytes", "gauge", "The bound --plan-cache-bytes.",
           (double)pc.max_bytes);
    scalar(&p, "trnscid_plan_cache_builds_total", "counter", "Plan preparations run.",
           (double)pc.builds);
    scalar(&p, "trnscid_plan_cache_build_failures_total", "counter", "Plan preparations failed.",
           (double)pc.build_failures);
    scalar(&p, "trnscid_plan_cache_build_seconds_total", "counter", "Time spent preparing plans.",
           (double)pc.build_seconds);
    scalar(&p, "trnscid_plan_cache_saved_seconds_total", "counter",
           "Planning time cache hits saved (the build time of the plans they found).",
           (double)pc.saved_seconds);
    scalar(&p, "trnscid_plan_cache_prewarm_done", "gauge",
           "1 once the persisted plans are prepared.", (double)pc.prewarm_done);

    const trn_neuron_stats neff = trn_backend_neuron_stats(svc->backend);
    scalar(&p, "trnscid_neff_compiles_total", "counter",
           "Neuron compiler runs (NEFFs not found in the NEFF cache).", (double)neff.compiles);
    scalar(&p, "trnscid_neff_compile_failures_total", "counter",
           "Neuron compiler runs that failed.", (double)neff.compile_failures);
    scalar(&p, "trnscid_neff_cache_hits_total", "counter",
           "NEFF plans prepared from the NEFF cache on disk, without compiling.",
           (double)neff.store_hits);
    scalar(&p, "trnscid_neff_remembered_failures_total", "counter",
           "NEFF plans failed at once: their compile had failed before.",
           (double)neff.remembered_failures);
    header(&p, "trnscid_neuron_bytes_total", "counter",
           "GEMM operands (and alpha, beta) moved to the NeuronCores' memory, and results "
           "moved back.");
    put(&p, "trnscid_neuron_bytes_total{direction=\"to_cores\"} %llu\n",
        (unsigned long long)neff.bytes_to_cores);
    put(&p, "trnscid_neuron_bytes_total{direction=\"from_cores\"} %llu\n",
        (unsigned long long)neff.bytes_from_cores);
    scalar(&p, "trnscid_neuron_bytes_kept_total", "counter",
           "GEMM operands not moved to a NeuronCore because it held them, unchanged "
           "(--neuron-resident).",
           (double)neff.bytes_kept);
    scalar(&p, "trnscid_neuron_bytes_copied_on_core_total", "counter",
           "GEMM operands copied on a NeuronCore from another program's copy of the same "
           "memory, instead of moved from the host (--neuron-in-place, --neuron-resident).",
           (double)neff.bytes_on_core);
    scalar(&p, "trnscid_neuron_bytes_bound_total", "counter",
           "GEMM operands a NeuronCore program read from the core's one copy of the matrix, "
           "bound in place of its own tensor: moved into it once, or not at all "
           "(--neuron-core-copies).",
           (double)neff.bytes_bound);
    scalar(&p, "trnscid_neuron_core_copy_bytes", "gauge",
           "NeuronCore memory held by the cores' copies of GEMM operands that programs bind "
           "(--neuron-core-copies), over every core.",
           (double)neff.core_copy_bytes);
    scalar(&p, "trnscid_neuron_pack_seconds_total", "counter",
           "Host time spent packing GEMM operands into a NeuronCore program's layout and "
           "unpacking results (none for real operands moved as they lie, --neuron-in-place).",
           (double)neff.pack_ns / 1e9);
    scalar(&p, "trnscid_neuron_move_bytes_per_second", "gauge",
           "The rate placement by location assumes for moving operands to a NeuronCore: "
           "measured from the moves so far, nominal before (0 on the CPU backend).",
           neff.move_bytes_per_ns * 1e9);

    render_memory(&p);
    if (svc->selftest)
        trn_selftest_read(svc->selftest, render_selftest, &p);
    if (p.oom) {
        free(p.buf);
        return NULL;
    }
    *len = p.len;
    return p.buf;
}
