/*
 * nc_runtime.c — the Neuron runtime inside one process (nc_runtime.h).
 */
#define _GNU_SOURCE
#include "kernels/neuron/nc_runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where the Neuron SDK installs the runtime when the loader does not know
 * it (it is not in the default library path). */
#define SDK_LIBRARY "/opt/aws/neuron/lib/libnrt.so.1"

void trn_nc_status_text(const char *call, trn_nrt_status st, char *buf, size_t len) {
    char tmp[32];
    snprintf(buf, len, "%s: %s", call, trn_nrt_status_name(st, tmp, sizeof(tmp)));
}

/* The library at path, or at the default places. */
static int api_load(trn_nrt_api *api, const char *library, char *msg, size_t msglen) {
    if (library && library[0])
        return trn_nrt_api_load(api, library, msg, msglen);
    if (trn_nrt_api_load(api, NULL, msg, msglen) == 0)
        return 0;
    char first[256];
    snprintf(first, sizeof(first), "%s", msg);
    if (trn_nrt_api_load(api, SDK_LIBRARY, msg, msglen) == 0)
        return 0;
    snprintf(msg, msglen, "%s", first);
    return -1;
}

/* What a probe child reports besides its stderr. */
typedef struct probe_result {
    int loaded, status;
    uint32_t count;
    char why[256];
} probe_result;

static void probe_child(const char *library, int out, int err) {
    probe_result r = {0};
    dup2(err, 1);
    dup2(err, 2);
    trn_nrt_api api;
    if (api_load(&api, library, r.why, sizeof(r.why)) == 0) {
        r.loaded = 1;
        r.status = api.init(TRN_NRT_FRAMEWORK_NO_FW, "", "");
        if (r.status == TRN_NRT_SUCCESS) {
            r.status = api.get_visible_nc_count(&r.count);
            api.close();
        }
    }
    (void)!write(out, &r, sizeof(r));
    _exit(0);
}

/* Everything readable from fd into buf (on one line), until EOF. */
static void read_all(int fd, char *buf, size_t len) {
    size_t got = 0;
    for (;;) {
        const ssize_t n = read(fd, buf + got, len - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
        if (got == len - 1) {
            char sink[256];
            while (read(fd, sink, sizeof(sink)) > 0)
                ;
            break;
        }
    }
    buf[got] = '\0';
    for (char *c = buf; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    while (got > 0 && buf[got - 1] == ' ')
        buf[--got] = '\0';
}

int trn_nc_probe(const char *library, uint32_t *count, int *loaded, int *taken, char *msg,
                 size_t msglen) {
    int res[2], err[2];
    *count = 0;
    *loaded = *taken = 0;
    if (pipe2(res, O_CLOEXEC) != 0)
        goto no_pipe;
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(res[0]);
        close(res[1]);
        goto no_pipe;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        close(res[0]);
        close(err[0]);
        probe_child(library, res[1], err[1]);
    }
    close(res[1]);
    close(err[1]);
    char said[1024];
    probe_result r = {0};
    read_all(err[0], said, sizeof(said));
    const ssize_t n = pid > 0 ? read(res[0], &r, sizeof(r)) : -1;
    close(res[0]);
    close(err[0]);
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (pid < 0 || n != (ssize_t)sizeof(r)) {
        snprintf(msg, msglen, "the Neuron runtime's probe %s%s%s",
                 pid < 0 ? "could not start" : "died", said[0] ? ": " : "", said);
        return -1;
    }
    *loaded = r.loaded;
    if (!r.loaded) {
        snprintf(msg, msglen, "%s", r.why);
        return -1;
    }
    if (r.status != TRN_NRT_SUCCESS) {
        char name[32];
        *taken = r.status == TRN_NRT_RESOURCE;
        snprintf(msg, msglen, "the Neuron runtime did not start (%s)%s%s",
                 trn_nrt_status_name((trn_nrt_status)r.status, name, sizeof(name)),
                 said[0] ? ": " : "", said);
        return -1;
    }
    *count = r.count;
    return 0;
no_pipe:
    snprintf(msg, msglen, "cannot probe the Neuron runtime: %s", strerror(errno));
    return -1;
}

int trn_nc_runtime_start(trn_nc_runtime *rt, const char *library, const char *visible, char *msg,
                         size_t msglen) {
    memset(rt, 0, sizeof(*rt));
    pthread_mutex_init(&rt->lock, NULL);
    pthread_mutex_init(&rt->copies.lock, NULL);
    pthread_cond_init(&rt->copies.changed, NULL);
    if (visible && setenv("NEURON_RT_VISIBLE_CORES", visible, 1) != 0) {
        snprintf(msg, msglen, "cannot set NEURON_RT_VISIBLE_CORES: %s", strerror(errno));
        return -1;
    }
    if (api_load(&rt->api, library, msg, msglen) != 0)
        return -1;
    trn_nrt_status st = rt->api.init(TRN_NRT_FRAMEWORK_NO_FW, "", "");
    if (st == TRN_NRT_SUCCESS) {
        st = rt->api.get_visible_nc_count(&rt->ncores);
        if (st != TRN_NRT_SUCCESS)
            rt->api.close();
    }
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_init", st, msg, msglen);
        trn_nrt_api_unload(&rt->api);
        return -1;
    }
    rt->started = 1;
    return 0;
}

/* ---- core copies' memory (their binding: core_copy.c) ------------------------- */

/* Counts bytes of copies on core in or out (trn_nc_traffic.copy_bytes). */
static void account(const trn_nc_runtime *rt, int core, size_t bytes, int add) {
    const int slot = rt->core_base + core;
    if (!rt->traffic || slot < 0 || slot >= TRN_NC_MAX_CORES)
        return;
    if (add)
        atomic_fetch_add_explicit(&rt->traffic->copy_bytes[slot], bytes, memory_order_relaxed);
    else
        atomic_fetch_sub_explicit(&rt->traffic->copy_bytes[slot], bytes, memory_order_relaxed);
}

static void free_copy(trn_nc_runtime *rt, trn_nc_core_copy **link) {
    trn_nc_core_copy *c = *link;
    *link = c->next;
    account(rt, c->core, c->hi - c->lo, 0);
    rt->api.tensor_free(&c->tensor);
    free(c);
}

/* Frees the least recently used copy on core that nothing binds: 1, or 0
 * when there is none (lock held). */
static int evict_copy(trn_nc_runtime *rt, int core) {
    trn_nc_core_copy **victim = NULL;
    for (trn_nc_core_copy **p = &rt->core_copy_list; *p; p = &(*p)->next)
        if ((*p)->core == core && (*p)->binds == 0 &&
            (!victim || (*p)->last_use < (*victim)->last_use))
            victim = p;
    if (!victim)
        return 0;
    free_copy(rt, victim);
    return 1;
}

trn_nc_core_copy *trn_nc_copy_new_locked(trn_nc_runtime *rt, int core, uintptr_t lo, size_t n) {
    trn_nc_core_copy *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    trn_nrt_status st;
    while ((st = rt->api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, core, n, "core copy",
                                         &c->tensor)) == TRN_NRT_RESOURCE &&
           evict_copy(rt, core))
        ;
    if (st != TRN_NRT_SUCCESS) {
        free(c);
        return NULL;
    }
    c->core = core;
    c->lo = lo;
    c->hi = lo + n;
    c->next = rt->core_copy_list;
    rt->core_copy_list = c;
    account(rt, core, n, 1);
    return c;
}

void trn_nc_copy_drop_locked(trn_nc_runtime *rt, const trn_nc_core_copy *c) {
    for (trn_nc_core_copy **p = &rt->core_copy_list; *p; p = &(*p)->next)
        if (*p == c) {
            free_copy(rt, p);
            return;
        }
}

void trn_nc_copy_release_locked(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti) {
    if (!ld->t[ti].bound[set])
        return;
    ld->t[ti].bound[set]->binds--;
    ld->t[ti].bound[set] = NULL;
    rt->api.tensor_free(&ld->t[ti].slice[set]);
}

/* Drops ld's bindings of core copies in set `set` (its sets no longer name
 * them). */
static void release_bindings(trn_nc_runtime *rt, trn_nc_loaded *ld, int set) {
    for (int ti = 0; ti < ld->ntensors; ti++)
        trn_nc_copy_release_locked(rt, ld, set, ti);
}

/* ---- loaded programs ---------------------------------------------------------- */

/* Frees ld's tensors of set `set`, its slices of core copies, and their
 * sets. */
static void release_set(trn_nc_runtime *rt, trn_nc_loaded *ld, int set) {
    if (ld->in[set])
        rt->api.destroy_tensor_set(&ld->in[set]);
    if (ld->out[set])
        rt->api.destroy_tensor_set(&ld->out[set]);
    release_bindings(rt, ld, set);
    for (int i = 0; i < ld->ntensors; i++)
        if (ld->t[i].tensor[set]) {
            rt->api.tensor_free(&ld->t[i].tensor[set]);
            ld->t[i].tensor[set] = NULL;
        }
}

/* Frees what ld holds in the runtime (lock held or single use). */
static void release(trn_nc_runtime *rt, trn_nc_loaded *ld) {
    for (int set = 0; set < TRN_NC_SETS; set++)
        release_set(rt, ld, set);
    if (ld->model)
        rt->api.unload(ld->model);
    free(ld);
}

static void copy_queue_stop(trn_nc_copy_queue *q) {
    pthread_mutex_lock(&q->lock);
    q->stopping = 1;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    if (q->started)
        pthread_join(q->thread, NULL);
    q->started = 0;
    pthread_cond_destroy(&q->changed);
    pthread_mutex_destroy(&q->lock);
}

void trn_nc_runtime_stop(trn_nc_runtime *rt) {
    if (!rt->started)
        return;
    copy_queue_stop(&rt->copies); /* runs what is queued first */
    free(rt->ahead_job);
    rt->ahead_job = NULL;
    for (trn_nc_loaded *ld = rt->loaded, *next; ld; ld = next) {
        next = ld->next;
        if (ld->home)
            *ld->home = NULL;
        release(rt, ld);
    }
    rt->loaded = NULL;
    while (rt->core_copy_list) /* nothing binds them now */
        free_copy(rt, &rt->core_copy_list);
    rt->api.close();
    trn_nrt_api_unload(&rt->api);
    rt->started = 0;
    pthread_mutex_destroy(&rt->lock);
}

int trn_nc_evict_one_locked(trn_nc_runtime *rt, int core) {
    /* A queued move may be writing an idle program's tensors (a move ahead
     * for the next op): it ends first. */
    trn_nc_copy_queue_drain(rt);
    /* A copy no program binds costs a move when next read; a program, a
     * load and the tensors' moves. */
    if (evict_copy(rt, core))
        return 1;
    trn_nc_loaded **victim = NULL;
    for (trn_nc_loaded **p = &rt->loaded; *p; p = &(*p)->next)
        if ((*p)->core == core && !(*p)->busy && (!victim || (*p)->last_use < (*victim)->last_use))
            victim = p;
    if (!victim)
        return 0;
    trn_nc_loaded *ld = *victim;
    *victim = ld->next;
    if (ld->home)
        *ld->home = NULL;
    release(rt, ld);
    rt->evictions++;
    return 1;
}

/* Allocates set `set` of ld's tensors (names and sizes known) on its core
 * and binds them in that set's tensor sets. */
static trn_nrt_status alloc_set(trn_nc_runtime *rt, trn_nc_loaded *ld, int set) {
    trn_nrt_status st = rt->api.allocate_tensor_set(&ld->in[set]);
    if (st == TRN_NRT_SUCCESS)
        st = rt->api.allocate_tensor_set(&ld->out[set]);
    for (int i = 0; st == TRN_NRT_SUCCESS && i < ld->ntensors; i++) {
        st = rt->api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, ld->core, ld->t[i].size,
                                     ld->t[i].name, &ld->t[i].tensor[set]);
        if (st == TRN_NRT_SUCCESS)
            st = rt->api.add_tensor_to_tensor_set(ld->t[i].output ? ld->out[set] : ld->in[set],
                                                  ld->t[i].name, ld->t[i].tensor[set]);
    }
    if (st != TRN_NRT_SUCCESS)
        release_set(rt, ld, set);
    return st;
}

/* The model's tensors: their names and sizes, and set 0 allocated on its
 * core. */
static trn_nrt_status bind_tensors(trn_nc_runtime *rt, trn_nc_loaded *ld, char *msg,
                                   size_t msglen) {
    trn_nrt_tensor_info_array *info = NULL;
    trn_nrt_status st = rt->api.get_model_tensor_info(ld->model, &info);
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_get_model_tensor_info", st, msg, msglen);
        return st;
    }
    if (info->tensor_count > TRN_NC_MAX_TENSORS) {
        snprintf(msg, msglen, "the program has %llu tensors, more than %d",
                 (unsigned long long)info->tensor_count, TRN_NC_MAX_TENSORS);
        rt->api.free_model_tensor_info(info);
        return TRN_NRT_INVALID;
    }
    uint64_t set_bytes = 0;
    for (uint64_t i = 0; i < info->tensor_count; i++) {
        const trn_nrt_tensor_info *ti = &info->tensor_array[i];
        snprintf(ld->t[i].name, sizeof(ld->t[i].name), "%s", ti->name);
        ld->t[i].size = ti->size;
        ld->t[i].output = ti->usage == TRN_NRT_USAGE_OUTPUT;
        set_bytes += ti->size;
    }
    ld->ntensors = (int)info->tensor_count;
    rt->api.free_model_tensor_info(info);
    st = alloc_set(rt, ld, 0);
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("allocating the program's tensors", st, msg, msglen);
        return st;
    }
    ld->nsets = 1;
    ld->bytes += set_bytes;
    return st;
}

int trn_nc_add_set(trn_nc_runtime *rt, trn_nc_loaded *ld) {
    pthread_mutex_lock(&rt->lock);
    trn_nrt_status st = TRN_NRT_SUCCESS;
    if (ld->nsets < 2) {
        /* Device memory full: make room from idle programs of the core (ld
         * is busy: never itself). */
        while ((st = alloc_set(rt, ld, 1)) == TRN_NRT_RESOURCE &&
               trn_nc_evict_one_locked(rt, ld->core))
            ;
        if (st == TRN_NRT_SUCCESS) {
            ld->nsets = 2;
            for (int i = 0; i < ld->ntensors; i++)
                ld->bytes += ld->t[i].size;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return st == TRN_NRT_SUCCESS ? 0 : -1;
}

/* One attempt at loading (lock held). */
static trn_nc_loaded *load_once(trn_nc_runtime *rt, const void *neff, size_t size, int core,
                                trn_nrt_status *kind, char *msg, size_t msglen) {
    trn_nc_loaded *ld = calloc(1, sizeof(*ld));
    if (!ld) {
        *kind = TRN_NRT_FAIL_HOST_MEM_ALLOC;
        snprintf(msg, msglen, "out of memory");
        return NULL;
    }
    ld->core = core;
    ld->bytes = size;
    *kind = rt->api.load(neff, size, core, 1, &ld->model);
    if (*kind != TRN_NRT_SUCCESS) {
        ld->model = NULL;
        trn_nc_status_text("nrt_load", *kind, msg, msglen);
    } else {
        *kind = bind_tensors(rt, ld, msg, msglen);
    }
    if (*kind != TRN_NRT_SUCCESS) {
        release(rt, ld);
        return NULL;
    }
    return ld;
}

trn_nc_loaded *trn_nc_load(trn_nc_runtime *rt, const void *neff, size_t size, int core,
                           trn_nc_loaded **home, trn_nrt_status *kind, char *msg, size_t msglen) {
    pthread_mutex_lock(&rt->lock);
    trn_nc_loaded *ld;
    /* Device memory full: make room from idle programs of the core. */
    while (!(ld = load_once(rt, neff, size, core, kind, msg, msglen)) &&
           *kind == TRN_NRT_RESOURCE && trn_nc_evict_one_locked(rt, core))
        ;
    if (ld) {
        ld->home = home;
        *home = ld;
        ld->busy = 1;
        ld->last_use = ++rt->clock;
        ld->next = rt->loaded;
        rt->loaded = ld;
        rt->loads++;
    }
    pthread_mutex_unlock(&rt->lock);
    return ld;
}

trn_nc_loaded *trn_nc_acquire(trn_nc_runtime *rt, trn_nc_loaded **home) {
    pthread_mutex_lock(&rt->lock);
    trn_nc_loaded *ld = *home;
    if (ld) {
        ld->busy = 1;
        ld->last_use = ++rt->clock;
    }
    pthread_mutex_unlock(&rt->lock);
    return ld;
}

void trn_nc_use(trn_nc_runtime *rt, trn_nc_loaded *ld, int busy) {
    pthread_mutex_lock(&rt->lock);
    ld->busy = busy;
    ld->last_use = ++rt->clock;
    pthread_mutex_unlock(&rt->lock);
}

void trn_nc_unload(trn_nc_runtime *rt, trn_nc_loaded *ld) {
    trn_nc_copy_queue_drain(rt); /* as trn_nc_evict_one_locked */
    pthread_mutex_lock(&rt->lock);
    for (trn_nc_loaded **p = &rt->loaded; *p; p = &(*p)->next)
        if (*p == ld) {
            *p = ld->next;
            break;
        }
    if (ld->home)
        *ld->home = NULL;
    release(rt, ld);
    pthread_mutex_unlock(&rt->lock);
}

trn_nrt_tensor *trn_nc_tensor(const trn_nc_loaded *ld, int set, const char *name, size_t *size) {
    for (int i = 0; i < ld->ntensors; i++)
        if (strcmp(ld->t[i].name, name) == 0) {
            if (size)
                *size = ld->t[i].size;
            return ld->t[i].tensor[set];
        }
    return NULL;
}

int trn_nc_port_index(const trn_nc_loaded *ld, const char *name, int output, int index) {
    for (int i = 0; i < ld->ntensors; i++)
        if (strcmp(ld->t[i].name, name) == 0)
            return i;
    for (int i = 0, seen = 0; i < ld->ntensors; i++)
        if (ld->t[i].output == output && seen++ == index)
            return i;
    return -1;
}

trn_nrt_tensor *trn_nc_port(const trn_nc_loaded *ld, int set, const char *name, int output,
                            int index, size_t *size) {
    const int i = trn_nc_port_index(ld, name, output, index);
    if (i < 0)
        return NULL;
    if (size)
        *size = ld->t[i].size;
    return ld->t[i].tensor[set];
}

/* ---- the DMA queue ---------------------------------------------------------- */

static void *copy_queue_main(void *arg) {
    trn_nc_copy_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (q->done == q->queued && !q->stopping)
            pthread_cond_wait(&q->changed, &q->lock);
        if (q->done == q->queued) /* stopping, and nothing left */
            break;
        const size_t slot = (size_t)(q->done % TRN_NC_COPY_JOBS);
        void (*fn)(void *) = q->jobs[slot].fn;
        void *job = q->jobs[slot].arg;
        pthread_mutex_unlock(&q->lock);
        fn(job);
        pthread_mutex_lock(&q->lock);
        q->done++;
        pthread_cond_broadcast(&q->changed);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

uint64_t trn_nc_copy_queue_add(trn_nc_runtime *rt, void (*fn)(void *arg), void *arg) {
    trn_nc_copy_queue *q = &rt->copies;
    pthread_mutex_lock(&q->lock);
    if (!q->started && !q->stopping) {
        if (pthread_create(&q->thread, NULL, copy_queue_main, q) == 0)
            q->started = 1;
    }
    if (!q->started || q->stopping) {
        pthread_mutex_unlock(&q->lock);
        return 0;
    }
    while (q->queued - q->done == TRN_NC_COPY_JOBS)
        pthread_cond_wait(&q->changed, &q->lock);
    const size_t slot = (size_t)(q->queued % TRN_NC_COPY_JOBS);
    q->jobs[slot].fn = fn;
    q->jobs[slot].arg = arg;
    const uint64_t ticket = ++q->queued;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    return ticket;
}

void trn_nc_copy_queue_drain(trn_nc_runtime *rt) {
    trn_nc_copy_queue *q = &rt->copies;
    pthread_mutex_lock(&q->lock);
    while (q->done < q->queued)
        pthread_cond_wait(&q->changed, &q->lock);
    pthread_mutex_unlock(&q->lock);
}

void trn_nc_copy_queue_wait(trn_nc_runtime *rt, uint64_t ticket) {
    trn_nc_copy_queue *q = &rt->copies;
    pthread_mutex_lock(&q->lock);
    while (q->done < ticket)
        pthread_cond_wait(&q->changed, &q->lock);
    pthread_mutex_unlock(&q->lock);
}
