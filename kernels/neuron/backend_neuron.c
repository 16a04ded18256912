/*
 * backend_neuron.c — the Neuron backend (backend_neuron.h): placement, the
 * NEFF plans, and the runtime's life in each process.
 *
 * Invariants: a NEFF plan (neuron_plan) is only ever run after its part 0
 * is prepared, so its bytes are in memory; in the daemon's process
 * preparing it may compile, in an executor it only reads the store (the
 * daemon prepared it first: the scheduler waits for the daemon's plan
 * before it dispatches). Each worker thread (or executor) drives one core,
 * so a core's programs are loaded and run by one thread at a time.
 */
#define _GNU_SOURCE
#include "kernels/neuron/backend_neuron.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernels/neuron/gemm_neuron.h"
#include "kernels/neuron/gemm_seq.h"
#include "kernels/neuron/nc_cost.h"
#include "kernels/neuron/nc_runtime.h"
#include "kernels/neuron/neff_compile.h"
#include "kernels/neuron/neff_store.h"
#include "kernels/neuron/program.h"

_Static_assert(TRN_NPROG_PARAMS_LEN <= TRN_PLAN_PROGRAM_PARAMS_LEN &&
                   TRN_NPROG_SEQ_PARAMS_LEN <= TRN_PLAN_PROGRAM_PARAMS_LEN,
               "a program's parameters fit a plan spec");

#define NEFF_PLAN_MAGIC 0x4e454646u /* "NEFF" */

typedef struct neuron_backend {
    trn_backend be; /* first: the trn_backend pointer is the allocation */
    trn_backend *cpu;
    trn_neuron_config cfg;
    char library[1024], compiler[1024], kernels_dir[1024], store_path[1024], target[16];
    char compiler_version[256];
    char version[160];
    int store_fd;    /* directory descriptor of the store */
    int private_dir; /* the store is a temporary directory of ours */
    uint32_t ncores;
    int phys[TRN_NC_MAX_CORES]; /* physical id of each logical core */
    trn_nc_runtime rt;          /* this process's runtime (daemon or executor) */
    trn_write_clock *wclock;    /* trn_backend_neuron_set_write_clock, or NULL */
    trn_nc_traffic *traffic;    /* trn_backend_neuron_set_traffic, or NULL */
    int in_executor;            /* core_init started a runtime for one core here */
    pid_t daemon_pid;           /* the process that made the backend */
    char store_note[1024];      /* why --cache-dir could not keep NEFFs, or "" */
    atomic_uint_fast64_t compiles, compile_failures, store_hits, remembered;
} neuron_backend;

/* A NEFF plan: one kernel program for one op shape (gemm), or for a
 * sequence of GEMMs (gemm_seq: is_seq). */
typedef struct neuron_plan {
    uint32_t magic;
    trn_program_spec spec;
    trn_nprog_gemm prog;
    int is_seq;
    trn_nprog_seq seq;
    void *neff;
    size_t neff_size;
    trn_nc_loaded *loaded[TRN_NC_MAX_CORES]; /* per logical core of this process */
} neuron_plan;

/* The worker thread's core (logical, in this process). */
static _Thread_local int current_core;

static neuron_backend *nb_of(const trn_backend *be) {
    return (neuron_backend *)be;
}

static int is_neff_plan(const void *plan) {
    uint32_t w;
    if (!plan)
        return 0;
    memcpy(&w, plan, sizeof(w));
    return w == NEFF_PLAN_MAGIC;
}

/* ---- placement ------------------------------------------------------------------ */

/* The program of one shard of op, and how many shards there are; 0 when op
 * has no program. */
static int gemm_shard_program(const neuron_backend *nb, const trn_op_desc *op, trn_nprog_gemm *g) {
    if (!nb->compiler[0] || op->kind != TRN_OP_GEMM || !trn_ngemm_program(&op->u.gemm, g))
        return 0;
    if (nb->cfg.in_place)
        (void)trn_ngemm_colmajor(&op->u.gemm, g);
    return trn_ngemm_split(g, (int)nb->ncores, nb->cfg.split_min_flop);
}

/* The program op's plan holds: one execution of one shard's part. */
static trn_nprog_gemm exec_of_part(trn_nprog_gemm part) {
    (void)trn_ngemm_pipeline(&part);
    return part;
}

static int gemm_exec_program(const neuron_backend *nb, const trn_op_desc *op, trn_nprog_gemm *g) {
    if (!gemm_shard_program(nb, op, g))
        return 0;
    *g = exec_of_part(*g);
    return 1;
}

static int neuron_op_program_shards(const trn_backend *be, const trn_op_desc *op) {
    trn_nprog_gemm g;
    const int n = gemm_shard_program(nb_of(be), op, &g);
    return n > 0 ? n : 1;
}

/* The nominal time of one shard (nc_cost.h), until its runs are measured. */
static double neuron_program_estimate_ns(const trn_backend *be, const trn_op_desc *op,
                                         int nshards) {
    (void)nshards; /* the split is the program's: gemm_shard_program */
    const neuron_backend *nb = nb_of(be);
    trn_nprog_gemm g;
    if (!gemm_shard_program(nb, op, &g))
        return 0;
    const int nexec = trn_ngemm_pipeline(&g);
    return trn_nc_gemm_estimate_ns(&g, nexec, nb->target, trn_nc_move_bytes_per_ns(nb->traffic));
}

static int neuron_op_plan(const trn_backend *be, const trn_op_desc *op, trn_plan_spec *spec) {
    trn_nprog_gemm g;
    if (!gemm_exec_program(nb_of(be), op, &g))
        return 0;
    memset(spec, 0, sizeof(*spec));
    spec->family = TRN_PLAN_PROGRAM;
    snprintf(spec->u.program.kernel, sizeof(spec->u.program.kernel), "gemm");
    return trn_nprog_gemm_format(&g, spec->u.program.params, sizeof(spec->u.program.params)) > 0;
}

static int neuron_plan_concurrent(const trn_backend *be, const trn_plan_spec *spec) {
    (void)be;
    return spec->family == TRN_PLAN_PROGRAM;
}

static trn_engine neuron_engine_for(const trn_backend *be, const trn_op_desc *op) {
    const trn_backend *cpu = nb_of(be)->cpu;
    return cpu->engine_for(cpu, op);
}

/* An op a NeuronCore program computes converts its own operands (the
 * program reads FP32 and rounds on the chip); the CPU's ops as the CPU
 * backend does. */
static int neuron_converts_ahead(const trn_backend *be, const trn_op_desc *op) {
    trn_nprog_gemm g;
    const trn_backend *cpu = nb_of(be)->cpu;
    return !gemm_exec_program(nb_of(be), op, &g) && cpu->converts_ahead &&
           cpu->converts_ahead(cpu, op);
}

static int neuron_core_count(const trn_backend *be) {
    return (int)nb_of(be)->ncores;
}

static int neuron_core_init(const trn_backend *be, int core) {
    neuron_backend *nb = nb_of(be);
    if (nb->cpu->core_init(nb->cpu, core) != 0 || core < 0 || core >= (int)nb->ncores)
        return -1;
    /* The daemon's own worker threads (which hand the op to an executor)
     * never start the runtime when executors own the cores. */
    if (!nb->cfg.per_process || getpid() == nb->daemon_pid) {
        current_core = core;
        return 0;
    }
    /* An executor: the runtime, on this one core. Copies a previous
     * executor made there went with it. */
    if (nb->traffic)
        atomic_store(&nb->traffic->copy_bytes[core], 0);
    char visible[16], err[512];
    snprintf(visible, sizeof(visible), "%d", nb->phys[core]);
    if (trn_nc_runtime_start(&nb->rt, nb->library[0] ? nb->library : NULL, visible, err,
                             sizeof(err)) != 0) {
        fprintf(stderr, "NeuronCore %d: %s\n", nb->phys[core], err);
        return -1;
    }
    nb->rt.wclock = nb->wclock; /* start began the runtime afresh */
    nb->rt.traffic = nb->traffic;
    nb->rt.core_copies = nb->cfg.core_copies;
    nb->rt.core_base = core;
    nb->in_executor = 1;
    current_core = 0;
    return 0;
}

/* ---- NEFF plans ------------------------------------------------------------------ */

static void *neuron_plan_create(const trn_backend *be, const trn_plan_spec *spec, trn_kstatus *why,
                                char *err, size_t errlen) {
    const neuron_backend *nb = nb_of(be);
    if (spec->family != TRN_PLAN_PROGRAM)
        return nb->cpu->plan_create(nb->cpu, spec, why, err, errlen);
    *why = TRN_KSTATUS_FAILED;
    trn_nprog_gemm g;
    trn_nprog_seq sq;
    const int is_seq = strcmp(spec->u.program.kernel, "gemm_seq") == 0;
    if (!is_seq && strcmp(spec->u.program.kernel, "gemm") != 0) {
        snprintf(err, errlen, "no kernel program called %s", spec->u.program.kernel);
        return NULL;
    }
    if (is_seq ? trn_nprog_seq_parse(spec->u.program.params, &sq, err, errlen) != 0
               : trn_nprog_gemm_parse(spec->u.program.params, &g, err, errlen) != 0)
        return NULL;
    neuron_plan *p = calloc(1, sizeof(*p));
    if (!p) {
        *why = TRN_KSTATUS_NO_MEMORY;
        return NULL;
    }
    p->magic = NEFF_PLAN_MAGIC;
    p->spec = spec->u.program;
    p->is_seq = is_seq;
    if (is_seq)
        p->seq = sq;
    else
        p->prog = g;
    return p;
}

/* The whole source file of the program's kernel: gemm.py holds gemm and
 * gemm_seq (nki/README.md). */
static void *read_source(const neuron_backend *nb, const char *kernel, size_t *len, char *path,
                         size_t pathlen, char *err, size_t errlen) {
    snprintf(path, pathlen, "%s/%s.py", nb->kernels_dir,
             strcmp(kernel, "gemm_seq") == 0 ? "gemm" : kernel);
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n >= 0 && n < (1l << 24) && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)))
        *len = fread(text, 1, (size_t)n, f);
    if (f)
        fclose(f);
    if (!text)
        snprintf(err, errlen, "cannot read the kernel program %s: %s", path,
                 n < 0 ? strerror(errno) : "too large or out of memory");
    return text;
}

/* Compiles the program into the store under address (the daemon). */
static int compile_into_store(neuron_backend *nb, const neuron_plan *p, const char *source,
                              const char *address, char *err, size_t errlen) {
    char tmp[128], out[1200];
    snprintf(tmp, sizeof(tmp), "%s.neff.tmp.%ld.%lx", address, (long)getpid(),
             (unsigned long)pthread_self());
    snprintf(out, sizeof(out), "%s/%s", nb->store_path, tmp);
    const trn_neff_compile_job job = {.compiler = nb->compiler,
                                      .source = source,
                                      .kernel = p->spec.kernel,
                                      .params = p->spec.params,
                                      .target = nb->target,
                                      .output = out,
                                      .timeout_ms = nb->cfg.compile_timeout_ms};
    atomic_fetch_add(&nb->compiles, 1);
    if (trn_neff_compile(&job, err, errlen) != 0) {
        atomic_fetch_add(&nb->compile_failures, 1);
        (void)unlinkat(nb->store_fd, tmp, 0);
        /* Remembered: the same source, parameters, compiler and target fail
         * the same way. */
        (void)trn_neff_store_fail(nb->store_fd, address, err);
        return -1;
    }
    return trn_neff_store_put(nb->store_fd, tmp, address, err, errlen);
}

static trn_kstatus neuron_plan_build(const trn_backend *be, void *plan, unsigned part, char *err,
                                     size_t errlen) {
    neuron_backend *nb = nb_of(be);
    if (!is_neff_plan(plan))
        return nb->cpu->plan_build(nb->cpu, plan, part, err, errlen);
    neuron_plan *p = plan;
    if (p->neff)
        return TRN_KSTATUS_OK;
    char path[1100], address[TRN_NEFF_ADDRESS_LEN];
    size_t len = 0;
    void *text = read_source(nb, p->spec.kernel, &len, path, sizeof(path), err, errlen);
    if (!text)
        return TRN_KSTATUS_FAILED;
    const trn_neff_source src = {.text = text,
                                 .text_len = len,
                                 .kernel = p->spec.kernel,
                                 .params = p->spec.params,
                                 .compiler_version = nb->compiler_version,
                                 .target = nb->target};
    trn_neff_address(&src, address);
    free(text);
    trn_neff_lookup r =
        trn_neff_store_get(nb->store_fd, address, &p->neff, &p->neff_size, err, errlen);
    if (r == TRN_NEFF_PRESENT) {
        atomic_fetch_add(&nb->store_hits, 1);
        return TRN_KSTATUS_OK;
    }
    if (r == TRN_NEFF_ABSENT && nb->in_executor) {
        snprintf(err, errlen, "NEFF %s is not in the store", address);
        return TRN_KSTATUS_FAILED;
    }
    if (r == TRN_NEFF_FAILED) {
        atomic_fetch_add(&nb->remembered, 1);
        char why[400];
        snprintf(why, sizeof(why), "%s", err);
        snprintf(err, errlen, "(remembered NEFF compile failure) %s", why);
        return TRN_KSTATUS_FAILED;
    }
    if (r == TRN_NEFF_ERROR)
        return TRN_KSTATUS_FAILED;
    if (compile_into_store(nb, p, path, address, err, errlen) != 0)
        return TRN_KSTATUS_FAILED;
    r = trn_neff_store_get(nb->store_fd, address, &p->neff, &p->neff_size, err, errlen);
    return r == TRN_NEFF_PRESENT ? TRN_KSTATUS_OK : TRN_KSTATUS_FAILED;
}

static uint64_t neuron_plan_bytes(const trn_backend *be, const void *plan) {
    const neuron_backend *nb = nb_of(be);
    if (!is_neff_plan(plan))
        return nb->cpu->plan_bytes(nb->cpu, plan);
    return ((const neuron_plan *)plan)->neff_size;
}

static void neuron_plan_release(const trn_backend *be, void *plan) {
    neuron_backend *nb = nb_of(be);
    if (!is_neff_plan(plan)) {
        nb->cpu->plan_release(nb->cpu, plan);
        return;
    }
    neuron_plan *p = plan;
    for (int c = 0; nb->rt.started && c < TRN_NC_MAX_CORES; c++)
        if (p->loaded[c])
            trn_nc_unload(&nb->rt, p->loaded[c]);
    free(p->neff);
    free(p);
}

static int neuron_state_load(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    const trn_backend *cpu = nb_of(be)->cpu;
    return cpu->plan_state_load(cpu, dir, err, errlen);
}

static int neuron_state_save(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    const trn_backend *cpu = nb_of(be)->cpu;
    return cpu->plan_state_save(cpu, dir, err, errlen);
}

static char *neuron_state_export(const trn_backend *be) {
    const trn_backend *cpu = nb_of(be)->cpu;
    return cpu->plan_state_export(cpu);
}

static int neuron_state_import(const trn_backend *be, char *text) {
    const trn_backend *cpu = nb_of(be)->cpu;
    return cpu->plan_state_import(cpu, text);
}

/* ---- running ------------------------------------------------------------------- */

/* What a chain's executor said runs next on this thread's core (the
 * run-next hint, kernels/backend.h), for the run about to start. */
typedef struct next_hint {
    const trn_op_desc *op;
    void *plan;
    int shard, nshards;
} next_hint;
static _Thread_local next_hint hint;

/* Shard `shard` of `nshards` of GEMM op as plan p runs it: its part (cut
 * as op_plan cut it), when op's program for that shard is p's. 0 when it
 * is not. */
static int part_in_plan(neuron_backend *nb, const trn_op_desc *op, const neuron_plan *p, int shard,
                        int nshards, trn_ngemm_part *part) {
    trn_nprog_gemm part_prog;
    if (gemm_shard_program(nb, op, &part_prog) != nshards)
        return 0;
    const trn_nprog_gemm exec_prog = exec_of_part(part_prog);
    if (memcmp(&exec_prog, &p->prog, sizeof(exec_prog)) != 0)
        return 0;
    *part = trn_ngemm_part_of(&op->u.gemm, &part_prog, shard, nshards);
    return 1;
}

/* The hinted op as trn_ngemm_run's next: a GEMM with the same plan (so the
 * same program), whose part is one execution, without pointer lists (whose
 * operands are never kept). 0 when it is not. */
static int next_of(neuron_backend *nb, const next_hint *h, const neuron_plan *p,
                   trn_ngemm_next *out) {
    if (!h->op || h->plan != p || h->op->kind != TRN_OP_GEMM || h->op->u.gemm.a_list ||
        h->op->u.gemm.b_list || h->op->u.gemm.c_list ||
        !part_in_plan(nb, h->op, p, h->shard, h->nshards, &out->part))
        return 0;
    out->d = &h->op->u.gemm;
    return out->part.nbatch <= (size_t)p->prog.batch;
}

/* Shard `shard` of op with the program p holds (one execution of the
 * shard's part). The part is found again from the op, as op_plan cut it. */
static trn_kstatus run_part(neuron_backend *nb, trn_nc_loaded *ld, const trn_op_desc *op,
                            const neuron_plan *p, int shard, int nshards, const next_hint *h,
                            char *msg, size_t msglen) {
    trn_ngemm_part part;
    if (!part_in_plan(nb, op, p, shard, nshards, &part)) {
        snprintf(msg, msglen, "the GEMM's program does not match its plan (%d shards)", nshards);
        return TRN_KSTATUS_FAILED;
    }
    trn_ngemm_next next;
    const int has_next = next_of(nb, h, p, &next);
    return trn_ngemm_run(&nb->rt, ld, &op->u.gemm, &p->prog, &part, has_next ? &next : NULL, msg,
                         msglen);
}

/* Plan p's NEFF on core, acquired (trn_nc_use releases it): loaded there
 * once, then resident. NULL with *k and msg when it cannot be loaded. */
static trn_nc_loaded *loaded_on(neuron_backend *nb, neuron_plan *p, int core, trn_kstatus *k,
                                char *msg, size_t msglen) {
    trn_nc_loaded *ld = trn_nc_acquire(&nb->rt, &p->loaded[core]);
    if (ld)
        return ld;
    trn_nrt_status kind;
    ld = trn_nc_load(&nb->rt, p->neff, p->neff_size, core, &p->loaded[core], &kind, msg, msglen);
    if (!ld)
        *k = kind == TRN_NRT_RESOURCE || kind == TRN_NRT_FAIL_HOST_MEM_ALLOC ? TRN_KSTATUS_NO_MEMORY
                                                                             : TRN_KSTATUS_FAILED;
    return ld;
}

/* The op's NEFF, on this thread's core. */
static trn_kstatus run_program(neuron_backend *nb, const trn_op_desc *op, neuron_plan *p, int shard,
                               int nshards, const next_hint *h) {
    const int core = current_core;
    char msg[TRN_KMSG_LEN - 64] = "";
    trn_kstatus k = TRN_KSTATUS_FAILED;
    trn_nc_loaded *ld = loaded_on(nb, p, core, &k, msg, sizeof(msg));
    if (ld) {
        k = run_part(nb, ld, op, p, shard, nshards, h, msg, sizeof(msg));
        trn_nc_use(&nb->rt, ld, 0);
    }
    if (k != TRN_KSTATUS_OK && op->kmsg)
        trn_kmsg_post(op->kmsg, 0, 0, "NeuronCore %d: %s", nb->phys[nb->in_executor ? 0 : core],
                      msg);
    return k;
}

/* Runs op here: from its NEFF on this thread's core, or on the CPU. */
static trn_kstatus run_here(neuron_backend *nb, const trn_op_desc *op, void *plan, int shard,
                            int nshards, const next_hint *h) {
    if (!is_neff_plan(plan) || op->kind != TRN_OP_GEMM)
        return nb->cpu->run(nb->cpu, op, plan, shard, nshards);
    if (!nb->rt.started || !((neuron_plan *)plan)->neff) {
        if (op->kmsg)
            trn_kmsg_post(op->kmsg, 0, 0, "the Neuron runtime is not running in this process");
        return TRN_KSTATUS_FAILED;
    }
    return run_program(nb, op, plan, shard, nshards, h);
}

static trn_kstatus neuron_run(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                              int nshards) {
    neuron_backend *nb = nb_of(be);
    const next_hint h = hint; /* for this run only */
    hint = (next_hint){0};
    const trn_kstatus k = run_here(nb, op, plan, shard, nshards, &h);
    /* Whatever the op wrote, on either side, is now newer than any copy of
     * it left in a core's memory. */
    if (nb->wclock)
        trn_write_clock_after_op(nb->wclock, op);
    return k;
}

/* ---- sequences ------------------------------------------------------------------ */

static int neuron_op_seq_plan(const trn_backend *be, const trn_op_desc *const *ops, int n,
                              trn_plan_spec *spec) {
    const neuron_backend *nb = nb_of(be);
    const trn_gemm_desc *d[TRN_NPROG_SEQ_MAX];
    if (!nb->compiler[0] || n < 2 || n > TRN_NPROG_SEQ_MAX)
        return 0;
    for (int i = 0; i < n; i++) {
        if (ops[i]->kind != TRN_OP_GEMM)
            return 0;
        d[i] = &ops[i]->u.gemm;
    }
    trn_nprog_seq sq;
    if (!trn_ngemm_seq_of(d, n, (int)nb->ncores, nb->cfg.split_min_flop, &sq))
        return 0;
    memset(spec, 0, sizeof(*spec));
    spec->family = TRN_PLAN_PROGRAM;
    snprintf(spec->u.program.kernel, sizeof(spec->u.program.kernel), "gemm_seq");
    return trn_nprog_seq_format(&sq, spec->u.program.params, sizeof(spec->u.program.params)) > 0;
}

/* The sequence's NEFF on this thread's core; ops' GEMMs as its nodes. */
static trn_kstatus run_seq_program(neuron_backend *nb, const trn_op_desc *const *ops, int n,
                                   neuron_plan *p) {
    const int core = current_core;
    char msg[TRN_KMSG_LEN - 64] = "";
    trn_kstatus k = TRN_KSTATUS_FAILED;
    const trn_gemm_desc *d[TRN_NPROG_SEQ_MAX];
    trn_nprog_seq again;
    for (int i = 0; i < n && i < TRN_NPROG_SEQ_MAX; i++)
        d[i] = &ops[i]->u.gemm;
    /* The plan must be the one these ops make: a caller that kept a plan
     * across a change of the ops' pointers gets an error, not another
     * sequence's results. */
    if (n != p->seq.nodes ||
        !trn_ngemm_seq_of(d, n, (int)nb->ncores, nb->cfg.split_min_flop, &again) ||
        memcmp(&again, &p->seq, sizeof(again)) != 0) {
        snprintf(msg, sizeof(msg), "the GEMMs do not make the sequence their plan was made for");
    } else {
        trn_nc_loaded *ld = loaded_on(nb, p, core, &k, msg, sizeof(msg));
        if (ld) {
            k = trn_ngemm_seq_run(&nb->rt, ld, d, &p->seq, msg, sizeof(msg));
            trn_nc_use(&nb->rt, ld, 0);
        }
    }
    if (k != TRN_KSTATUS_OK && ops[0]->kmsg)
        trn_kmsg_post(ops[0]->kmsg, 0, 0, "NeuronCore %d: %s", nb->phys[nb->in_executor ? 0 : core],
                      msg);
    return k;
}

static trn_kstatus neuron_run_seq(const trn_backend *be, const trn_op_desc *const *ops, int n,
                                  void *plan) {
    neuron_backend *nb = nb_of(be);
    hint = (next_hint){0};
    if (n < 1)
        return TRN_KSTATUS_FAILED;
    trn_kstatus k;
    if (!is_neff_plan(plan) || !((neuron_plan *)plan)->is_seq) {
        k = TRN_KSTATUS_FAILED;
        if (ops[0]->kmsg)
            trn_kmsg_post(ops[0]->kmsg, 0, 0, "a sequence's plan is not a gemm_seq program");
    } else if (!nb->rt.started || !((neuron_plan *)plan)->neff) {
        k = TRN_KSTATUS_FAILED;
        if (ops[0]->kmsg)
            trn_kmsg_post(ops[0]->kmsg, 0, 0, "the Neuron runtime is not running in this process");
    } else {
        k = run_seq_program(nb, ops, n, plan);
    }
    for (int i = 0; nb->wclock && i < n; i++)
        trn_write_clock_after_op(nb->wclock, ops[i]);
    return k;
}

static void neuron_run_next(const trn_backend *be, const trn_op_desc *next, void *plan, int shard,
                            int nshards) {
    (void)be;
    hint = (next_hint){next, plan, shard, nshards};
}

static void neuron_run_next_wait(const trn_backend *be) {
    if (nb_of(be)->rt.started)
        trn_ngemm_ahead_wait(&nb_of(be)->rt);
}

/* ---- life ------------------------------------------------------------------------ */

/* Empties and removes the private store (ours alone: nothing in it
 * outlives the daemon). */
static void remove_private_store(neuron_backend *nb) {
    DIR *d = fdopendir(dup(nb->store_fd));
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            (void)unlinkat(nb->store_fd, e->d_name, 0);
    if (d)
        closedir(d);
    (void)rmdir(nb->store_path);
}

void trn_backend_neuron_set_traffic(trn_backend *be, struct trn_nc_traffic *traffic) {
    if (!be || be->run != neuron_run)
        return;
    nb_of(be)->traffic = traffic;
    nb_of(be)->rt.traffic = traffic;
}

uint64_t trn_backend_neuron_move_ns(const trn_backend *be, uint64_t bytes) {
    const trn_nc_traffic *t = be && be->run == neuron_run ? nb_of(be)->traffic : NULL;
    return (uint64_t)((double)bytes / trn_nc_move_bytes_per_ns(t));
}

void trn_backend_neuron_set_write_clock(trn_backend *be, trn_write_clock *wc) {
    if (!be || be->run != neuron_run)
        return;
    nb_of(be)->wclock = wc;
    nb_of(be)->rt.wclock = wc;
}

static void neuron_destroy(trn_backend *be) {
    neuron_backend *nb = nb_of(be);
    trn_nc_runtime_stop(&nb->rt);
    if (nb->store_fd >= 0) {
        if (nb->private_dir && !nb->in_executor)
            remove_private_store(nb);
        close(nb->store_fd);
    }
    nb->cpu->destroy(nb->cpu);
    free(nb);
}

int trn_backend_neuron_probe(const char *library, trn_neuron_probe *out, char *err, size_t errlen) {
    memset(out, 0, sizeof(*out));
    const int rc = trn_nc_probe(library, &out->ncores, &out->loaded, &out->taken, err, errlen);
    if (rc == 0 && out->ncores == 0) {
        snprintf(err, errlen, "the Neuron runtime reports no NeuronCore");
        return -1;
    }
    return rc;
}

/* The physical ids of the visible cores: NEURON_RT_VISIBLE_CORES ("2",
 * "0-3", "0,2,5-6") when set, else 0 .. n-1. Returns 0, or -1 when the
 * list does not name exactly n cores. */
static int physical_cores(neuron_backend *nb, uint32_t n) {
    const char *v = getenv("NEURON_RT_VISIBLE_CORES");
    uint32_t k = 0;
    if (!v || !*v) {
        for (; k < n; k++)
            nb->phys[k] = (int)k;
        return 0;
    }
    while (*v) {
        char *e;
        const long a = strtol(v, &e, 10);
        long b = a;
        if (e == v || a < 0 || a > 100000)
            return -1;
        if (*e == '-') {
            v = e + 1;
            b = strtol(v, &e, 10);
            if (e == v || b < a || b > 100000)
                return -1;
        }
        for (long c = a; c <= b; c++) {
            if (k == n || k == TRN_NC_MAX_CORES)
                return -1;
            nb->phys[k++] = (int)c;
        }
        if (*e != ',' && *e != '\0')
            return -1;
        v = *e ? e + 1 : e;
    }
    return k == n ? 0 : -1;
}

/* A private temporary directory for the store (its files go with the
 * daemon). */
static int make_private_store(neuron_backend *nb) {
    const char *tmp = getenv("TMPDIR");
    snprintf(nb->store_path, sizeof(nb->store_path), "%s/trnscid-neff-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(nb->store_path) || chmod(nb->store_path, 0711) != 0)
        return -1;
    nb->private_dir = 1;
    return 0;
}

/* cfg.store_dir/neff, made when missing. */
static int make_shared_store(neuron_backend *nb) {
    snprintf(nb->store_path, sizeof(nb->store_path), "%s", nb->cfg.store_dir);
    if (mkdir(nb->store_path, 0700) != 0 && errno != EEXIST)
        return -1;
    snprintf(nb->store_path, sizeof(nb->store_path), "%s/neff", nb->cfg.store_dir);
    if (mkdir(nb->store_path, 0711) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* The store: cfg.store_dir/neff, or a private temporary directory when
 * there is none or it cannot be used (the daemon warns, as the plan cache
 * does: NEFFs then last one run); either searchable by all (0711, not
 * listable), so that executors running as another user open NEFFs by name
 * through the descriptor. */
static int open_store(neuron_backend *nb, char *err, size_t errlen) {
    if (nb->cfg.store_dir && nb->cfg.store_dir[0]) {
        if (make_shared_store(nb) == 0 &&
            (nb->store_fd = open(nb->store_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
            return 0;
        snprintf(nb->store_note, sizeof(nb->store_note),
                 "cannot use %.900s for the NEFF cache (%s): NEFFs will not persist",
                 nb->store_path, strerror(errno));
    }
    if (make_private_store(nb) == 0 &&
        (nb->store_fd = open(nb->store_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
        return 0;
    snprintf(err, errlen, "cannot make the NEFF cache %s: %s", nb->store_path, strerror(errno));
    return -1;
}

/* Copies the configuration's strings into nb, so it owns them. */
static void keep_config(neuron_backend *nb, const trn_neuron_config *cfg) {
    nb->cfg = *cfg;
    snprintf(nb->library, sizeof(nb->library), "%s", cfg->library ? cfg->library : "");
    snprintf(nb->compiler, sizeof(nb->compiler), "%s", cfg->compiler ? cfg->compiler : "");
    snprintf(nb->kernels_dir, sizeof(nb->kernels_dir), "%s",
             cfg->kernels_dir ? cfg->kernels_dir : "");
    snprintf(nb->target, sizeof(nb->target), "%s", cfg->target ? cfg->target : "trn1");
    if (nb->cfg.compile_timeout_ms <= 0)
        nb->cfg.compile_timeout_ms = 600000;
    nb->cfg.library = nb->cfg.compiler = nb->cfg.kernels_dir = nb->cfg.target = NULL;
}

static void set_hooks(neuron_backend *nb) {
    trn_backend *be = &nb->be;
    be->name = "neuron";
    snprintf(nb->version, sizeof(nb->version), "neuron-1 %s", nb->cpu->version);
    be->version = nb->version;
    be->engine_for = neuron_engine_for;
    be->converts_ahead = neuron_converts_ahead;
    be->core_count = neuron_core_count;
    be->core_init = neuron_core_init;
    be->plan_create = neuron_plan_create;
    be->plan_build = neuron_plan_build;
    be->plan_bytes = neuron_plan_bytes;
    be->plan_release = neuron_plan_release;
    be->plan_state_load = neuron_state_load;
    be->plan_state_save = neuron_state_save;
    be->plan_state_export = neuron_state_export;
    be->plan_state_import = neuron_state_import;
    be->op_plan = neuron_op_plan;
    be->op_program_shards = neuron_op_program_shards;
    be->plan_concurrent = neuron_plan_concurrent;
    be->program_estimate_ns = neuron_program_estimate_ns;
    be->run = neuron_run;
    be->run_next = neuron_run_next;
    be->op_seq_plan = neuron_op_seq_plan;
    be->run_seq = neuron_run_seq;
    be->run_next_wait = neuron_run_next_wait;
    be->destroy = neuron_destroy;
}

trn_backend *trn_backend_neuron_create(const trn_neuron_config *cfg, uint32_t ncores,
                                       trn_backend *cpu, char *err, size_t errlen) {
    neuron_backend *nb = calloc(1, sizeof(*nb));
    if (!nb) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    nb->cpu = cpu;
    nb->store_fd = -1;
    nb->daemon_pid = getpid();
    keep_config(nb, cfg);
    set_hooks(nb);
    if (ncores == 0 || ncores > TRN_NC_MAX_CORES || physical_cores(nb, ncores) != 0) {
        snprintf(err, errlen,
                 "NEURON_RT_VISIBLE_CORES (%s) does not name the %u cores the runtime "
                 "reports (at most %d)",
                 getenv("NEURON_RT_VISIBLE_CORES") ? getenv("NEURON_RT_VISIBLE_CORES") : "unset",
                 ncores, TRN_NC_MAX_CORES);
        goto fail;
    }
    nb->ncores = ncores;
    if (open_store(nb, err, errlen) != 0)
        goto fail;
    if (nb->compiler[0] &&
        trn_neff_compiler_version(nb->compiler, nb->compiler_version, sizeof(nb->compiler_version),
                                  err, errlen) != 0)
        goto fail;
    if (!nb->cfg.per_process &&
        trn_nc_runtime_start(&nb->rt, nb->library[0] ? nb->library : NULL, NULL, err, errlen) != 0)
        goto fail;
    nb->rt.core_copies = cfg->core_copies;
    return &nb->be;
fail:
    nb->cpu = NULL;
    if (nb->store_fd >= 0) {
        if (nb->private_dir)
            remove_private_store(nb);
        close(nb->store_fd);
    }
    free(nb);
    return NULL;
}

const char *trn_backend_neuron_store_note(const trn_backend *be) {
    if (!be || be->run != neuron_run)
        return "";
    return nb_of(be)->store_note;
}

trn_neuron_stats trn_backend_neuron_stats(const trn_backend *be) {
    trn_neuron_stats st = {0};
    if (!be || be->run != neuron_run)
        return st;
    const neuron_backend *nb = nb_of(be);
    st.compiles = atomic_load(&nb->compiles);
    st.compile_failures = atomic_load(&nb->compile_failures);
    st.store_hits = atomic_load(&nb->store_hits);
    st.remembered_failures = atomic_load(&nb->remembered);
    if (nb->traffic) {
        st.bytes_to_cores = atomic_load(&nb->traffic->to_cores);
        st.bytes_from_cores = atomic_load(&nb->traffic->from_cores);
        st.bytes_kept = atomic_load(&nb->traffic->kept);
        st.pack_ns = atomic_load(&nb->traffic->pack_ns);
        st.bytes_on_core = atomic_load(&nb->traffic->on_core);
        st.bytes_bound = atomic_load(&nb->traffic->bound);
        for (int c = 0; c < TRN_NC_MAX_CORES; c++)
            st.core_copy_bytes += atomic_load(&nb->traffic->copy_bytes[c]);
    }
    st.move_bytes_per_ns = trn_nc_move_bytes_per_ns(nb->traffic);
    return st;
}
