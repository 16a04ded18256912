/*
 * bench_util.c — the helpers the benchmark programs in bench/ share (see
 * bench_util.h for what each does). Built as the static library bench_util;
 * it calls neither libtrnsci nor OpenBLAS.
 */
#define _GNU_SOURCE
#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---- time ---------------------------------------------------------------------- */

int64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- statistics of samples --------------------------------------------------------- */

int bench_cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *v, int n) {
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
    return median_sorted(v, n);
}

bench_stats bench_stats_of(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
    return (bench_stats){.median = median_sorted(v, n), .min = v[0], .max = v[n - 1]};
}

bench_stats bench_stats_copy(const double *v, int n) {
    bench_stats s = {NAN, v[0], v[0]};
    for (int i = 1; i < n; i++) {
        s.min = v[i] < s.min ? v[i] : s.min;
        s.max = v[i] > s.max ? v[i] : s.max;
    }
    double *tmp = malloc((size_t)n * sizeof(*v));
    if (tmp) {
        memcpy(tmp, v, (size_t)n * sizeof(*v));
        s.median = bench_median(tmp, n);
        free(tmp);
    }
    return s;
}

/* The nearest-rank p-th percentile of sorted v[0..n), n >= 1. */
static double nearest_rank(const double *v, int n, double p) {
    const int k = (int)ceil(p / 100.0 * n) - 1;
    return v[k < 0 ? 0 : k];
}

bench_dist bench_dist_of(double *v, int n) {
    bench_dist d = {0};
    if (n <= 0)
        return d;
    qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    d.n = n;
    d.min = v[0];
    d.max = v[n - 1];
    d.mean = sum / n;
    d.median = median_sorted(v, n);
    d.p50 = nearest_rank(v, n, 50.0);
    d.p90 = nearest_rank(v, n, 90.0);
    d.p99 = nearest_rank(v, n, 99.0);
    return d;
}

/* ---- checking results -------------------------------------------------------------- */

double bench_worse(double worst, double err) {
    if (isnan(err))
        return INFINITY;
    return err > worst ? err : worst;
}

double bench_max_rel_diff(const float *got, const float *ref, size_t n) {
    double maxdiff = 0.0, maxabs = 0.0;
    for (size_t i = 0; i < n; i++) {
        maxdiff = bench_worse(maxdiff, fabs((double)got[i] - (double)ref[i]));
        if (fabs((double)ref[i]) > maxabs)
            maxabs = fabs((double)ref[i]);
    }
    return maxabs > 0 ? maxdiff / maxabs : maxdiff;
}

double bench_sgemm_entry_err(const float *A, const float *B, const float *C, int n, size_t i,
                             size_t j) {
    const size_t ld = (size_t)n;
    double ref = 0.0, mag = 0.0;
    for (size_t l = 0; l < ld; l++) {
        const double p = (double)A[l * ld + i] * (double)B[j * ld + l];
        ref += p;
        mag += fabs(p);
    }
    return fabs((double)C[j * ld + i] - ref) / (mag > 0 ? mag : 1.0);
}

/* ---- test data ---------------------------------------------------------------------- */

void bench_fill(float *x, size_t n, uint64_t seed) {
    uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (float)((double)(s >> 40) / (double)(1u << 24) * 2.0 - 1.0);
    }
}

/* ---- CPUs ------------------------------------------------------------------------- */

void bench_cpuset_str(const cpu_set_t *set, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && used + 8 < len; c++)
        if (CPU_ISSET(c, set))
            used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
}

void bench_self_cpus(char *buf, size_t len) {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof(set), &set);
    bench_cpuset_str(&set, buf, len);
}

void bench_mask_str(uint64_t mask, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < 64 && used + 4 < len; c++)
        if (mask & (1ULL << c))
            used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
}

int bench_pin_self(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : -1;
}

/* ---- I/O ---------------------------------------------------------------------------- */

/* Moves exactly n bytes between fd and p: write(2)s them if out, else read(2)s. */
static int transfer_all(int fd, char *p, size_t n, int out) {
    while (n) {
        const ssize_t k = out ? write(fd, p, n) : read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int bench_write_all(int fd, const void *p, size_t n) {
    return transfer_all(fd, (char *)p, n, 1); /* only written from */
}

int bench_read_all(int fd, void *p, size_t n) {
    return transfer_all(fd, p, n, 0);
}

int bench_write_str(int fd, const char *s) {
    return bench_write_all(fd, s, strlen(s));
}

int bench_read_line(int fd, char *buf, size_t len, int timeout_ms) {
    const int64_t deadline = bench_now_ns() + (int64_t)timeout_ms * 1000000LL;
    size_t used = 0;
    while (used + 1 < len) {
        struct pollfd p = {fd, POLLIN, 0};
        int wait_ms = -1;
        if (timeout_ms >= 0) {
            const int64_t left = deadline - bench_now_ns();
            if (left <= 0)
                return -1;
            wait_ms = (int)(left / 1000000LL) + 1;
        }
        const int pr = poll(&p, 1, wait_ms);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            return -1;
        char c;
        const ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        if (c == '\n')
            break;
        buf[used++] = c;
    }
    buf[used] = '\0';
    return (int)used;
}

int bench_readable(int fd) {
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

int bench_read_text(const char *path, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    const size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    return 0;
}

/* ---- this binary in another role ----------------------------------------------------- */

#define SPAWN_MAX_ARGS 48

pid_t bench_spawn_role(int *ctl_w, int *rep_r, const char *arg0, ...) {
    /* The child's argument list, built before the fork. */
    char *argv[SPAWN_MAX_ARGS + 5];
    int nargs = 0;
    va_list ap;
    va_start(ap, arg0);
    for (const char *a = arg0; a; a = va_arg(ap, const char *)) {
        if (nargs == SPAWN_MAX_ARGS) {
            va_end(ap);
            errno = E2BIG;
            return -1;
        }
        argv[nargs++] = (char *)a;
    }
    va_end(ap);
    int ctl[2], rep[2];
    if (pipe2(ctl, O_CLOEXEC))
        return -1;
    if (pipe2(rep, O_CLOEXEC)) {
        close(ctl[0]);
        close(ctl[1]);
        return -1;
    }
    char sctl[16], srep[16];
    snprintf(sctl, sizeof(sctl), "%d", ctl[0]);
    snprintf(srep, sizeof(srep), "%d", rep[1]);
    argv[nargs] = "--ctl-fd";
    argv[nargs + 1] = sctl;
    argv[nargs + 2] = "--rep-fd";
    argv[nargs + 3] = srep;
    argv[nargs + 4] = NULL;
    const pid_t pid = fork();
    if (pid < 0) {
        close(ctl[0]);
        close(ctl[1]);
        close(rep[0]);
        close(rep[1]);
        return -1;
    }
    if (pid == 0) {
        fcntl(ctl[0], F_SETFD, 0);
        fcntl(rep[1], F_SETFD, 0);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(ctl[0]);
    close(rep[1]);
    *ctl_w = ctl[1];
    *rep_r = rep[0];
    return pid;
}

/* ---- a process's threads, sampled from /proc/PID/task --------------------------------- */

/* The Cpus_allowed_list line of a /proc status file into buf ("" if none). */
static int status_cpus_allowed(const char *path, char *buf, size_t len) {
    char text[8192];
    buf[0] = '\0';
    if (bench_read_text(path, text, sizeof(text)))
        return -1;
    const char *l = strstr(text, "Cpus_allowed_list:");
    if (!l)
        return -1;
    l += strlen("Cpus_allowed_list:");
    while (*l == ' ' || *l == '\t')
        l++;
    snprintf(buf, len, "%.*s", (int)strcspn(l, "\n"), l);
    return 0;
}

int bench_sample_thread(int pid, int tid, bench_thread_sample *out, int allowed) {
    char path[128], buf[4096];
    memset(out, 0, sizeof(*out));
    out->tid = tid;
    snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
    if (bench_read_text(path, buf, sizeof(buf)))
        return -1;
    /* comm is in parentheses and may contain spaces: fields after the last ')'. */
    char *open = strchr(buf, '('), *close = strrchr(buf, ')');
    if (!open || !close)
        return -1;
    snprintf(out->comm, sizeof(out->comm), "%.*s", (int)(close - open - 1), open + 1);
    /* Fields from 3 on: state(3) ... utime(14) stime(15) ... processor(39). */
    unsigned long long utime = 0, stime = 0;
    int field = 3;
    char *save = NULL;
    for (char *tok = strtok_r(close + 2, " ", &save); tok && field <= 39;
         tok = strtok_r(NULL, " ", &save), field++) {
        if (field == 14)
            utime = strtoull(tok, NULL, 10);
        else if (field == 15)
            stime = strtoull(tok, NULL, 10);
        else if (field == 39)
            out->last_cpu = atoi(tok);
    }
    out->cpu_ns = (utime + stime) * (1000000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK));
    /* schedstat: time on a CPU (ns), time waiting, times scheduled in. */
    snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
    if (bench_read_text(path, buf, sizeof(buf)) == 0) {
        unsigned long long ns, wait_ns, runs;
        const int got = sscanf(buf, "%llu %llu %llu", &ns, &wait_ns, &runs);
        if (got >= 1)
            out->cpu_ns = ns;
        if (got == 3)
            out->runs = runs;
    }
    if (allowed) {
        snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
        status_cpus_allowed(path, out->allowed, sizeof(out->allowed));
    }
    return 0;
}

int bench_sample_threads(int pid, bench_thread_sample *out, int max, int allowed) {
    if (pid <= 0)
        return 0;
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d)) != NULL) {
        const int tid = atoi(e->d_name);
        if (tid > 0 && bench_sample_thread(pid, tid, &out[n], allowed) == 0)
            n++;
    }
    closedir(d);
    return n;
}

int bench_cpus_allowed(int pid, char *buf, size_t len) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/status", pid);
    return status_cpus_allowed(path, buf, len);
}

/* The sample of thread tid in s[0..n), or NULL. */
static const bench_thread_sample *find_tid(const bench_thread_sample *s, int n, int tid) {
    const bench_thread_sample *found = NULL;
    for (int j = 0; j < n; j++)
        if (s[j].tid == tid)
            found = &s[j];
    return found;
}

void bench_threads_delta(const bench_thread_sample *before, int nb,
                         const bench_thread_sample *after, int na, bench_thread_delta *d) {
    for (int i = 0; i < na; i++) {
        const bench_thread_sample *b = find_tid(before, nb, after[i].tid);
        const unsigned long long pns = b ? b->cpu_ns : 0, pruns = b ? b->runs : 0;
        if (after[i].cpu_ns > pns) {
            d->ns += after[i].cpu_ns - pns;
            d->runs += after[i].runs - pruns;
            d->threads_ran++;
            if (after[i].last_cpu >= 0 && after[i].last_cpu < 64)
                d->cpus |= 1ULL << after[i].last_cpu;
        }
    }
}

void bench_acc_add(bench_acc_set *a, const bench_thread_sample *before, int nb,
                   const bench_thread_sample *after, int na) {
    for (int i = 0; i < na; i++) {
        const bench_thread_sample *b = find_tid(before, nb, after[i].tid);
        const unsigned long long prev = b ? b->cpu_ns : 0;
        int k = 0;
        while (k < a->n && a->t[k].last.tid != after[i].tid)
            k++;
        if (k == a->n) {
            if (a->n == BENCH_MAX_THREADS)
                continue;
            a->n++;
            a->t[k].ns = 0;
        }
        a->t[k].last = after[i];
        a->t[k].ns += after[i].cpu_ns - prev;
    }
}

static int cmp_acc_desc(const void *x, const void *y) {
    const unsigned long long a = ((const bench_thread_acc *)x)->ns,
                             b = ((const bench_thread_acc *)y)->ns;
    return (a < b) - (a > b);
}

unsigned long long bench_acc_sort(bench_acc_set *a) {
    qsort(a->t, (size_t)a->n, sizeof(a->t[0]), cmp_acc_desc);
    unsigned long long total = 0;
    for (int i = 0; i < a->n; i++)
        total += a->t[i].ns;
    return total;
}

/* ---- JSON fragments ---------------------------------------------------------------- */

void bench_cpu_model(char *buf, size_t len) {
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                snprintf(buf, len, "%.*s", (int)strcspn(v, "\"\\\n"), v);
            }
            break;
        }
    }
    fclose(f);
}

void bench_json_host(const char *end) {
    char host[256] = "", model[256];
    gethostname(host, sizeof(host) - 1);
    bench_cpu_model(model, sizeof(model));
    printf("  \"host\": {\"name\": \"%s\", \"cpu_model\": \"%s\", \"online_cpus\": %ld}%s", host,
           model, sysconf(_SC_NPROCESSORS_ONLN), end);
}

void bench_json_thread_list(const bench_acc_set *a, int top, double wall_ms) {
    printf("[");
    for (int i = 0; i < top && i < a->n; i++)
        printf("%s\n      {\"tid\": %d, \"comm\": \"%s\", \"cpus_allowed\": \"%s\", "
               "\"last_cpu\": %d, \"busy\": %.3f}",
               i ? "," : "", a->t[i].last.tid, a->t[i].last.comm, a->t[i].last.allowed,
               a->t[i].last.last_cpu, wall_ms > 0 ? (double)a->t[i].ns * 1e-6 / wall_ms : 0.0);
    printf("]");
}

void bench_json_threads(const char *key, bench_acc_set *a, int top, double wall_ms,
                        const char *end) {
    bench_acc_sort(a);
    printf("    \"%s\": ", key);
    bench_json_thread_list(a, top, wall_ms);
    printf("%s\n", end);
}

/* ---- options ------------------------------------------------------------------------ */

int bench_parse_args(const bench_opt *opts, int argc, char **argv, const char **positional) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            if (!positional)
                return -1;
            if (a[0] != '\0')
                *positional = a;
            continue;
        }
        const bench_opt *o = opts;
        while (o->name && strcmp(o->name, a) != 0)
            o++;
        if (!o->name)
            return -1;
        if (o->type == BENCH_OPT_FLAG) {
            *(int *)o->dst = 1;
            continue;
        }
        if (i + 1 >= argc)
            return -1;
        const char *v = argv[++i];
        switch (o->type) {
        case BENCH_OPT_INT: *(int *)o->dst = atoi(v); break;
        case BENCH_OPT_DOUBLE: *(double *)o->dst = atof(v); break;
        case BENCH_OPT_STR: *(const char **)o->dst = v; break;
        case BENCH_OPT_FLAG: break;
        }
    }
    return 0;
}

int bench_parse_shapes(const char *s, int *batch, int *size, int max) {
    int n = 0;
    for (const char *p = s; p && *p && n < max; n++) {
        batch[n] = atoi(p);
        const char *x = strchr(p, 'x');
        size[n] = x ? atoi(x + 1) : 0;
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return n;
}

void bench_pin_init(bench_pin *p, int cpu) {
    p->cpu = cpu;
    CPU_ZERO(&p->start);
    sched_getaffinity(0, sizeof(p->start), &p->start);
}

void bench_pin_enter(const bench_pin *p, const char *who) {
    if (p->cpu >= 0 && bench_pin_self(p->cpu) != 0) {
        fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", who, p->cpu, strerror(errno));
        exit(1);
    }
}

void bench_pin_leave(const bench_pin *p) {
    if (p->cpu >= 0)
        sched_setaffinity(0, sizeof(p->start), &p->start);
}

double bench_process_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_json_stats(const char *key, const double *v, int n, const char *tail) {
    const bench_stats s = bench_stats_copy(v, n);
    printf("  \"%s\": {\"median\": %.4f, \"min\": %.4f, \"max\": %.4f}%s\n", key, s.median, s.min,
           s.max, tail);
}

double bench_metric(int port, const char *series) {
    static char page[1 << 17];
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(0x7f000001u);
    if (fd < 0 || connect(fd, (const struct sockaddr *)&sa, sizeof(sa)) != 0 ||
        bench_write_str(fd, "GET /metrics HTTP/1.0\r\n\r\n") != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t got = 0;
    for (ssize_t r; got + 1 < sizeof(page) && (r = read(fd, page + got, sizeof(page) - 1 - got));) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    page[got] = '\0';
    const size_t n = strlen(series);
    for (const char *p = strstr(page, series); p; p = strstr(p + 1, series))
        if ((p == page || p[-1] == '\n') && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}
