/*
 * nrtsim_runtime.c — the simulated runtime of a process: nrt_init and
 * nrt_close, the machine's NeuronCores and which of them this process owns,
 * device capacity, and the version.
 *
 * The runtime is process-wide by nature (libnrt is), so its state is the
 * one struct rt below, guarded by one mutex; nothing else in the simulator
 * is mutable and global.
 *
 * Configuration, read at nrt_init:
 *   NRTSIM_CORES             NeuronCores of the machine (1..64, default 2)
 *   NEURON_RT_VISIBLE_CORES  the cores this process asks for ("1", "0-3",
 *                            "0,2"; default all); logical ids count them
 *                            from 0 in increasing order
 *   NRTSIM_LOCK_DIR          where the ownership locks are (default
 *                            /tmp/nrtsim-locks)
 *   NRTSIM_HBM_MB            device memory per core in MiB (default 256)
 *   NRTSIM_FAIL_INIT         when set, nrt_init prints it and fails
 * plus the timing (nrtsim_timing.c) and fault (nrtsim_faults.c) variables.
 *
 * Ownership: a process owns a core while it holds an exclusive flock on
 * $NRTSIM_LOCK_DIR/nc<N>.lock (N physical); the owner's pid is written into
 * the file so that a refused process can name it. The lock goes with the
 * descriptor: nrt_close closes it (never LOCK_UN, which would also release
 * the lock for a forked child sharing the descriptor), and so does the
 * process's death.
 *
 * nrt_close frees every tensor and model; handles are dead afterwards (as
 * with the real runtime, closing while other threads still call in is the
 * caller's error).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/nrtsim/nrtsim_internal.h"

#define DEFAULT_LOCK_DIR "/tmp/nrtsim-locks"

static pthread_mutex_t rt_mutex = PTHREAD_MUTEX_INITIALIZER;
static nrtsim_rt rt;
/* One execution at a time per logical core; never destroyed, since a hung
 * execution may hold one for good. */
static pthread_mutex_t exec_locks[NRTSIM_MAX_CORES];
static pthread_once_t exec_locks_once = PTHREAD_ONCE_INIT;

/* The exported entry points have the types nrt_api.h's table expects (a
 * mismatch is an incompatible-pointer error under -Werror). */
__attribute__((unused)) static const trn_nrt_api signature_check = {
    .init = nrt_init,
    .close = nrt_close,
    .get_visible_nc_count = nrt_get_visible_nc_count,
    .get_version = nrt_get_version,
    .load = nrt_load,
    .unload = nrt_unload,
    .execute = nrt_execute,
    .get_model_tensor_info = nrt_get_model_tensor_info,
    .free_model_tensor_info = nrt_free_model_tensor_info,
    .tensor_allocate = nrt_tensor_allocate,
    .tensor_free = nrt_tensor_free,
    .tensor_allocate_slice = nrt_tensor_allocate_slice,
    .tensor_read = nrt_tensor_read,
    .tensor_write = nrt_tensor_write,
    .tensor_copy = nrt_tensor_copy,
    .tensor_get_size = nrt_tensor_get_size,
    .allocate_tensor_set = nrt_allocate_tensor_set,
    .destroy_tensor_set = nrt_destroy_tensor_set,
    .add_tensor_to_tensor_set = nrt_add_tensor_to_tensor_set,
};

nrtsim_rt *nrtsim_lock(void) {
    pthread_mutex_lock(&rt_mutex);
    return &rt;
}

void nrtsim_unlock(void) {
    pthread_mutex_unlock(&rt_mutex);
}

static void exec_locks_init(void) {
    for (int i = 0; i < NRTSIM_MAX_CORES; i++)
        pthread_mutex_init(&exec_locks[i], NULL);
}

pthread_mutex_t *nrtsim_exec_lock(int nc) {
    pthread_once(&exec_locks_once, exec_locks_init);
    return &exec_locks[nc];
}

int nrtsim_charge(nrtsim_rt *r, int nc, uint64_t bytes) {
    nrtsim_core *c = &r->cores[nc];
    if (bytes > r->hbm_capacity || c->hbm_used > r->hbm_capacity - bytes)
        return -1;
    c->hbm_used += bytes;
    return 0;
}

void nrtsim_uncharge(nrtsim_rt *r, int nc, uint64_t bytes) {
    nrtsim_core *c = &r->cores[nc];
    c->hbm_used = bytes > c->hbm_used ? 0 : c->hbm_used - bytes;
}

/* ---- NEURON_RT_VISIBLE_CORES ---- */

/* A core number at *p (digits only); advances *p. -1 when none or too big. */
static int core_number(const char **p) {
    const char *s = *p;
    long v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (*s++ - '0');
        if (v > 100000)
            return -1;
    }
    *p = s;
    return (int)v;
}

int nrtsim_parse_cores(const char *text, int machine_cores, uint64_t *mask, char *err,
                       size_t errlen) {
    const char *p = text;
    *mask = 0;
    for (;;) {
        const int lo = core_number(&p);
        int hi = lo;
        if (lo >= 0 && *p == '-') {
            p++;
            hi = core_number(&p);
        }
        if (lo < 0 || hi < lo || (*p && *p != ',')) {
            snprintf(err, errlen, "NEURON_RT_VISIBLE_CORES=\"%s\" is not a list of cores", text);
            return -1;
        }
        if (hi >= machine_cores) {
            snprintf(err, errlen,
                     "NEURON_RT_VISIBLE_CORES=\"%s\" names NeuronCore %d; this machine has %d "
                     "(0-%d)",
                     text, hi, machine_cores, machine_cores - 1);
            return -1;
        }
        for (int c = lo; c <= hi; c++)
            *mask |= UINT64_C(1) << c;
        if (!*p)
            return 0;
        p++;
    }
}

/* ---- ownership ---- */

/* The pid written in a lock file, or 0. */
static long lock_owner(int fd) {
    char buf[32] = {0};
    const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    return n > 0 ? strtol(buf, NULL, 10) : 0;
}

static int ensure_lock_dir(const char *dir) {
    if (mkdir(dir, 01777) == 0) {
        /* mkdir's mode is cut by the umask: every user's runtime shares it. */
        if (chmod(dir, 01777) != 0)
            return -1;
        return 0;
    }
    return errno == EEXIST ? 0 : -1;
}

/* Takes core pc's lock: its descriptor, or -1 (message printed). */
static int take_core(const char *dir, int pc) {
    char path[NRTSIM_PATH_MAX];
    snprintf(path, sizeof(path), "%s/nc%d.lock", dir, pc);
    const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(stderr, "nrtsim: nrt_init: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    (void)fchmod(fd, 0666); /* others may not own it: then it already is 0666 */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const long pid = lock_owner(fd);
        fprintf(stderr, "nrtsim: nrt_init: NeuronCore %d is in use by another process (pid %ld)\n",
                pc, pid);
        close(fd);
        return -1;
    }
    char buf[32];
    const int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
        fprintf(stderr, "nrtsim: nrt_init: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

static void release_cores(nrtsim_rt *r) {
    for (int i = 0; i < r->nvisible; i++) {
        if (r->cores[i].lock_fd >= 0)
            close(r->cores[i].lock_fd);
        r->cores[i].lock_fd = -1;
    }
}

/* Takes every visible core's lock, or none. */
static trn_nrt_status take_cores(nrtsim_rt *r) {
    const char *dir = getenv("NRTSIM_LOCK_DIR");
    if (!dir || !dir[0])
        dir = DEFAULT_LOCK_DIR;
    if (ensure_lock_dir(dir) != 0) {
        fprintf(stderr, "nrtsim: nrt_init: cannot create %s: %s\n", dir, strerror(errno));
        return TRN_NRT_FAILURE;
    }
    for (int i = 0; i < r->nvisible; i++) {
        r->cores[i].lock_fd = take_core(dir, r->cores[i].physical);
        if (r->cores[i].lock_fd < 0) {
            release_cores(r);
            return TRN_NRT_RESOURCE;
        }
    }
    return TRN_NRT_SUCCESS;
}

/* ---- configuration ---- */

static trn_nrt_status configure_cores(nrtsim_rt *r) {
    uint64_t machine, mb;
    if (nrtsim_env_u64("NRTSIM_CORES", 2, &machine) != 0 || machine < 1 ||
        machine > NRTSIM_MAX_CORES) {
        fprintf(stderr, "nrtsim: nrt_init: NRTSIM_CORES must be 1..%d\n", NRTSIM_MAX_CORES);
        return TRN_NRT_INVALID;
    }
    if (nrtsim_env_u64("NRTSIM_HBM_MB", 256, &mb) != 0 || mb > (UINT64_C(1) << 30)) {
        fprintf(stderr, "nrtsim: nrt_init: NRTSIM_HBM_MB must be a number of MiB\n");
        return TRN_NRT_INVALID;
    }
    r->machine_cores = (int)machine;
    r->hbm_capacity = mb << 20;
    uint64_t mask = machine == 64 ? UINT64_MAX : (UINT64_C(1) << machine) - 1;
    const char *vis = getenv("NEURON_RT_VISIBLE_CORES");
    char err[256];
    if (vis && vis[0] && nrtsim_parse_cores(vis, r->machine_cores, &mask, err, sizeof(err)) != 0) {
        fprintf(stderr, "nrtsim: nrt_init: %s\n", err);
        return TRN_NRT_INVALID;
    }
    r->nvisible = 0;
    for (int pc = 0; pc < r->machine_cores; pc++) {
        if (mask & (UINT64_C(1) << pc)) {
            nrtsim_core *c = &r->cores[r->nvisible++];
            c->physical = pc;
            c->lock_fd = -1;
            c->hbm_used = 0;
        }
    }
    return TRN_NRT_SUCCESS;
}

static trn_nrt_status init_locked(nrtsim_rt *r) {
    const char *fail = getenv("NRTSIM_FAIL_INIT");
    if (fail) {
        fprintf(stderr, "%s\n", fail);
        return TRN_NRT_FAILURE;
    }
    if (r->initialized) {
        fprintf(stderr, "nrtsim: nrt_init: the runtime is already initialized\n");
        return TRN_NRT_FAILURE;
    }
    trn_nrt_status st = configure_cores(r);
    if (st != TRN_NRT_SUCCESS)
        return st;
    char err[256];
    if (nrtsim_timing_init(&r->timing, err, sizeof(err)) != 0) {
        fprintf(stderr, "nrtsim: nrt_init: %s\n", err);
        return TRN_NRT_INVALID;
    }
    st = take_cores(r);
    if (st != TRN_NRT_SUCCESS) {
        nrtsim_timing_close(&r->timing);
        return st;
    }
    nrtsim_faults_init(&r->faults);
    r->tensors = NULL;
    r->models = NULL;
    r->initialized = 1;
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_init(int framework, const char *fw_version, const char *fal_version) {
    (void)framework;
    (void)fw_version;
    (void)fal_version;
    nrtsim_rt *r = nrtsim_lock();
    const trn_nrt_status st = init_locked(r);
    nrtsim_unlock();
    return st;
}

NRTSIM_API void nrt_close(void) {
    nrtsim_rt *r = nrtsim_lock();
    if (r->initialized) {
        nrtsim_models_release_all(r);
        nrtsim_tensors_release_all(r);
        release_cores(r);
        nrtsim_timing_close(&r->timing);
        r->nvisible = 0;
        r->initialized = 0;
    }
    nrtsim_unlock();
}

NRTSIM_API trn_nrt_status nrt_get_visible_nc_count(uint32_t *count) {
    if (!count)
        return TRN_NRT_INVALID;
    nrtsim_rt *r = nrtsim_lock();
    const trn_nrt_status st = r->initialized ? TRN_NRT_SUCCESS : TRN_NRT_UNINITIALIZED;
    if (r->initialized)
        *count = (uint32_t)r->nvisible;
    nrtsim_unlock();
    return st;
}

NRTSIM_API trn_nrt_status nrt_get_version(trn_nrt_version *ver, size_t size) {
    if (!ver || size < sizeof(*ver))
        return TRN_NRT_INVALID;
    memset(ver, 0, sizeof(*ver));
    ver->rt_major = 2;
    ver->rt_minor = 0;
    snprintf(ver->rt_detail, sizeof(ver->rt_detail), "nrtsim (trnsci libnrt simulator)");
    snprintf(ver->git_hash, sizeof(ver->git_hash), "0");
    return TRN_NRT_SUCCESS;
}
