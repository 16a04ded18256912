/*
 * bench_util.h — what the benchmark programs in bench/ share.
 *
 * Role. The benchmarks (the programs in bench/, each printing one JSON
 * object) need the same small pieces: monotonic time, summaries of timing
 * samples, deterministic test data, CPU sets as text, I/O on pipes and /proc
 * files, a child process of the same binary in another role, per-thread CPU
 * time and placement sampled from /proc/PID/task, the JSON fragments several
 * of them print alike, and option parsing. They live here once, in the static
 * library bench_util (bench/CMakeLists.txt). It is not part of libtrnsci or
 * the daemon and calls neither libtrnsci nor OpenBLAS, so any benchmark,
 * bench_shard_split included, can link it.
 *
 * Include it after defining _GNU_SOURCE (cpu_set_t, as every benchmark does).
 * Functions that print write to stdout; nothing here exits the process.
 */
#ifndef TRNSCI_BENCH_UTIL_H
#define TRNSCI_BENCH_UTIL_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before including bench_util.h (it uses cpu_set_t)"
#endif

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- time ---------------------------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t bench_now_ns(void);

/* CLOCK_MONOTONIC in milliseconds. */
double bench_now_ms(void);

/* ---- statistics of samples --------------------------------------------------------- */

/* qsort comparator for doubles, ascending. */
int bench_cmp_double(const void *a, const void *b);

/* The median of v[0..n) (n >= 1): the middle value, or the mean of the two
 * middle values when n is even. Sorts v in place. */
double bench_median(double *v, int n);

typedef struct bench_stats {
    double median, min, max;
} bench_stats;

/* Median (as bench_median), min and max of v[0..n), n >= 1. Sorts v in place. */
bench_stats bench_stats_of(double *v, int n);

/* The same, leaving v as it is (it sorts a copy; the median is NaN if there
 * is no memory for one). */
bench_stats bench_stats_copy(const double *v, int n);

/* The distribution of latency samples. p50, p90, p99 are nearest-rank
 * percentiles (the ceil(p/100 n)-th smallest sample); median is bench_median's
 * (for even n, the mean of the two middle samples). */
typedef struct bench_dist {
    int n;
    double min, max, mean, median, p50, p90, p99;
} bench_dist;

/* The distribution of v[0..n) (all zero when n == 0). Sorts v in place. */
bench_dist bench_dist_of(double *v, int n);

/* ---- checking results -------------------------------------------------------------- */

/* max(worst, err), where a NaN err makes the result INFINITY: for keeping the
 * worst error seen so far. */
double bench_worse(double worst, double err);

/* max |got[i] - ref[i]| / max |ref[i]| over i < n (the absolute difference
 * when ref is all zero); INFINITY if any difference is NaN. */
double bench_max_rel_diff(const float *got, const float *ref, size_t n);

/* The relative error of entry (i, j) of C = A B (n x n, column-major, single
 * precision) against a double-precision dot product:
 * |C[i,j] - sum_l A[i,l] B[l,j]| / sum_l |A[i,l] B[l,j]|. */
double bench_sgemm_entry_err(const float *A, const float *B, const float *C, int n, size_t i,
                             size_t j);

/* ---- test data ---------------------------------------------------------------------- */

/* Deterministic uniform [-1, 1) values from seed (64-bit LCG, top 24 bits). */
void bench_fill(float *x, size_t n, uint64_t seed);

/* ---- CPUs ------------------------------------------------------------------------- */

/* "0,2,3": the CPUs in set, as far as they fit in buf. */
void bench_cpuset_str(const cpu_set_t *set, char *buf, size_t len);

/* The CPUs this thread may run on (sched_getaffinity), as bench_cpuset_str. */
void bench_self_cpus(char *buf, size_t len);

/* "0,1": the CPUs in a bit mask (bit c = CPU c), as far as they fit; "" if none. */
void bench_mask_str(uint64_t mask, char *buf, size_t len);

/* Pins the calling thread to one CPU. 0, or -1 with errno set. */
int bench_pin_self(int cpu);

/* Where the in-process side of a benchmark runs: pinned to `cpu` while it
 * measures (cpu < 0: wherever the process runs), back to the process's
 * starting CPUs afterwards. */
typedef struct bench_pin {
    cpu_set_t start;
    int cpu;
} bench_pin;
/* Records the calling thread's CPUs as the place to return to. */
void bench_pin_init(bench_pin *p, int cpu);
/* Pins the calling thread to p->cpu (exits naming `who` when it cannot). */
void bench_pin_enter(const bench_pin *p, const char *who);
void bench_pin_leave(const bench_pin *p);
/* CPU seconds this process has used. */
double bench_process_cpu_s(void);

/* ---- I/O ---------------------------------------------------------------------------- */

/* Writes / reads exactly n bytes (retrying on EINTR). 0, or -1 on error or EOF. */
int bench_write_all(int fd, const void *p, size_t n);
int bench_read_all(int fd, void *p, size_t n);

/* Writes all of the string s. 0, or -1 on error. */
int bench_write_str(int fd, const char *s);

/* Reads one '\n'-terminated line into buf without the '\n' (byte by byte, so
 * nothing after it is consumed), waiting at most timeout_ms in total (< 0:
 * forever). Returns the length, or -1 on EOF, error or timeout. */
int bench_read_line(int fd, char *buf, size_t len, int timeout_ms);

/* 1 if fd has something to read now (or is at EOF), else 0. */
int bench_readable(int fd);

/* Reads up to len - 1 bytes of the file at path into buf, NUL-terminated.
 * 0, or -1 if it cannot be opened. */
int bench_read_text(const char *path, char *buf, size_t len);

/* The value of one sample (a series with its labels, e.g.
 * trnscid_neuron_bytes_total{direction="to_cores"}) of the daemon's
 * metrics page on 127.0.0.1:port (--metrics-listen), or -1. */
double bench_metric(int port, const char *series);

/* ---- this binary in another role ----------------------------------------------------- */

/* Forks and execs /proc/self/exe with the arguments arg0 (the program name),
 * ... up to a (char *)NULL, as execl(3) takes them (at most 48), followed by
 * "--ctl-fd R --rep-fd W": the child reads commands from R and writes reports
 * to W, the ends of two pipes. Every other descriptor of the caller should be
 * close-on-exec. Fork before the process initialises libtrnsci or gRPC (they
 * are not fork-safe). Returns the child's pid and the parent's ends (*ctl_w
 * to write commands, *rep_r to read reports), or -1 if there are too many
 * arguments or a pipe or the fork fails. */
pid_t bench_spawn_role(int *ctl_w, int *rep_r, const char *arg0, ...);

/* ---- a process's threads, sampled from /proc/PID/task --------------------------------- */

#define BENCH_MAX_THREADS 256

typedef struct bench_thread_sample {
    int tid;
    char comm[32];
    char allowed[64]; /* Cpus_allowed_list (with allowed sampling only, else "") */
    int last_cpu;
    unsigned long long cpu_ns; /* time on a CPU: schedstat, else utime + stime */
    unsigned long long runs;   /* times scheduled in (schedstat; else 0) */
} bench_thread_sample;

/* Samples thread tid of process pid: comm, last CPU and CPU time from
 * /proc/PID/task/TID/stat and schedstat, and with allowed != 0 its allowed
 * CPUs from .../status. 0, or -1 if the thread is gone. */
int bench_sample_thread(int pid, int tid, bench_thread_sample *out, int allowed);

/* Samples up to max threads of process pid (as bench_sample_thread); returns
 * how many (0 if pid <= 0 or the process is gone). */
int bench_sample_threads(int pid, bench_thread_sample *out, int max, int allowed);

/* The Cpus_allowed_list of process pid (/proc/PID/status) into buf. 0, or -1
 * (buf "") if it cannot be read. */
int bench_cpus_allowed(int pid, char *buf, size_t len);

/* What the threads of a process gained between two samples. */
typedef struct bench_thread_delta {
    unsigned long long ns, runs; /* CPU time and times scheduled in */
    uint64_t cpus;               /* bit c: a thread that ran was last seen on CPU c < 64 */
    int threads_ran;             /* threads that gained CPU time */
} bench_thread_delta;

/* Adds to *d what each thread of after[0..na) gained over its sample in
 * before[0..nb) (a thread not in before counts from 0; only threads that
 * gained CPU time count). */
void bench_threads_delta(const bench_thread_sample *before, int nb,
                         const bench_thread_sample *after, int na, bench_thread_delta *d);

/* CPU time per thread, summed over many pairs of samples. */
typedef struct bench_thread_acc {
    bench_thread_sample last; /* the latest sample (comm, allowed CPUs, last CPU) */
    unsigned long long ns;
} bench_thread_acc;

typedef struct bench_acc_set {
    bench_thread_acc t[BENCH_MAX_THREADS];
    int n;
    double wall_ms; /* for the caller: the wall time the pairs spanned */
} bench_acc_set;

/* Adds what each thread of after[0..na) gained over before[0..nb) to its
 * entry in a (threads beyond BENCH_MAX_THREADS are dropped). */
void bench_acc_add(bench_acc_set *a, const bench_thread_sample *before, int nb,
                   const bench_thread_sample *after, int na);

/* Sorts a's threads by CPU time, busiest first; returns their total (ns). */
unsigned long long bench_acc_sort(bench_acc_set *a);

/* ---- JSON fragments ---------------------------------------------------------------- */

/* The "model name" of /proc/cpuinfo (what lscpu shows), cut at any '"' or
 * '\\', or "". */
void bench_cpu_model(char *buf, size_t len);

/* Prints `  "host": {"name": ..., "cpu_model": ..., "online_cpus": N}` and
 * then end. */
void bench_json_host(const char *end);

/* Prints a JSON list of the `top` first threads of a (sort it first), one a
 * line: tid, comm, cpus_allowed, last_cpu and busy = CPU time / wall_ms. */
void bench_json_thread_list(const bench_acc_set *a, int top, double wall_ms);

/* Sorts a and prints `    "key": ` + its thread list + end + newline. */
void bench_json_threads(const char *key, bench_acc_set *a, int top, double wall_ms,
                        const char *end);
/* Prints `  "key": {"median": …, "min": …, "max": …}` and tail (",", or ""
 * for the last member) and a newline: the figures of v[0..n). */
void bench_json_stats(const char *key, const double *v, int n, const char *tail);

/* ---- options ------------------------------------------------------------------------ */

typedef enum bench_opt_type {
    BENCH_OPT_INT,    /* int *: atoi of the next argument */
    BENCH_OPT_DOUBLE, /* double *: atof of the next argument */
    BENCH_OPT_STR,    /* const char **: the next argument itself */
    BENCH_OPT_FLAG    /* int *: set to 1, no argument */
} bench_opt_type;

typedef struct bench_opt {
    const char *name; /* "--reps"; NULL ends a table */
    bench_opt_type type;
    void *dst;
} bench_opt;

/* Parses argv[1..argc) against opts (a later occurrence overrides an earlier
 * one). A non-option argument is stored in *positional (the last one wins;
 * empty strings are skipped); with positional NULL it is an error. Returns 0,
 * or -1 on an unknown option, an option missing its value or an unwanted
 * positional argument. */
int bench_parse_args(const bench_opt *opts, int argc, char **argv, const char **positional);

/* Parses shapes "B1xN1,B2xN2,..." (a batch of B n x n problems each) into at
 * most max pairs of batch[] and size[]; returns how many. */
int bench_parse_shapes(const char *s, int *batch, int *size, int max);

#endif
