/*
 * metrics_overhead.c — what --metrics-listen costs on the smallest request
 * paths: two daemons started the same way except that one serves metrics
 * (and is scraped once a second while the bench runs), measured in the same
 * run, interleaved.
 *
 * Paths (µs per call, from the client):
 *   stream_sync   trnsciStreamSynchronize(NULL) on an idle session: the null
 *                 op (one request, a marker through the scheduler, one reply);
 *                 with metrics it counts the request and the reply bytes
 *   sgemm1_sync   a 1x1x1 trnblasSgemm + trnsciStreamSynchronize(NULL): a
 *                 kernel op, so also the op counter and both histograms
 * Rounds (--rounds, default 10) alternate which daemon goes first; each runs
 * a block of --iters calls (default 5000) of each path on each daemon after
 * --warmup (200) untimed ones, in a fresh session. Reported: per path and
 * daemon the median of the per-round medians and the pooled p50/p99; the
 * overhead = median on / median off - 1 (target: <= 2 %).
 *
 * The scraper is a forked process (forked before any trnsci call: libtrnsci
 * is not fork-safe once initialised) that GETs /metrics from --metrics-port
 * every --scrape-ms (default 1000, faster than Prometheus's usual 15 s).
 * Placement: bench/run_metrics_overhead.sh pins both daemons to one CPU and
 * this process (and the scraper) to another.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

enum { PATH_SYNC, PATH_SGEMM, NPATHS };
static const char *const path_names[NPATHS] = {"stream_sync", "sgemm1_sync"};
enum { OFF, ON };

static void die(const char *what) {
    fprintf(stderr, "metrics_overhead: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

/* The scraper: GET /metrics every scrape_ms until killed; counts to stderr. */
static void scraper(int port, int scrape_ms) {
    static char buf[1 << 17];
    for (long n = 0;; n++) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
        if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
            write(fd, req, sizeof(req) - 1) == (ssize_t)(sizeof(req) - 1))
            while (read(fd, buf, sizeof(buf)) > 0) {
            }
        close(fd);
        struct timespec ts = {scrape_ms / 1000, (long)(scrape_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

static float *dA, *dB, *dC;
static trnblasHandle_t blas;

static void open_session(const char *addr) {
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    const float one = 1.0f, zero = 0.0f;
    if (trnsciMalloc((void **)&dA, sizeof(float)) || trnsciMalloc((void **)&dB, sizeof(float)) ||
        trnsciMalloc((void **)&dC, sizeof(float)))
        die("trnsciMalloc");
    if (trnsciMemcpy(dA, &one, sizeof(float), trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dB, &one, sizeof(float), trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dC, &zero, sizeof(float), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy");
    if (!blas && trnblasCreate(&blas) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");
}

static void call(int path) {
    const float alpha = 1.0f, beta = 0.0f;
    if (path == PATH_SGEMM && trnblasSgemm(blas, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &alpha, dA, 1,
                                           dB, 1, &beta, dC, 1) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasSgemm");
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

int main(int argc, char **argv) {
    const char *addr[2] = {NULL, NULL};
    int port = 0, rounds = 10, iters = 5000, warmup = 200, scrape_ms = 1000;
    const bench_opt opts[] = {
        {"--off", BENCH_OPT_STR, &addr[OFF]},       {"--on", BENCH_OPT_STR, &addr[ON]},
        {"--metrics-port", BENCH_OPT_INT, &port},   {"--rounds", BENCH_OPT_INT, &rounds},
        {"--iters", BENCH_OPT_INT, &iters},         {"--warmup", BENCH_OPT_INT, &warmup},
        {"--scrape-ms", BENCH_OPT_INT, &scrape_ms}, {NULL, 0, NULL},
    };
    if (bench_parse_args(opts, argc, argv, NULL) || !addr[OFF] || !addr[ON] || port <= 0 ||
        rounds < 1 || iters < 1) {
        fprintf(stderr, "usage: bench_metrics_overhead --off ADDR --on ADDR --metrics-port P "
                        "[--rounds R] [--iters N] [--warmup W] [--scrape-ms MS]\n");
        return 2;
    }
    const pid_t scr = fork();
    if (scr == 0) {
        scraper(port, scrape_ms);
        _exit(0);
    }
    double *round_med[2][NPATHS], *pooled[2][NPATHS], *block = malloc(sizeof(double) * iters);
    for (int d = 0; d < 2; d++)
        for (int p = 0; p < NPATHS; p++) {
            round_med[d][p] = malloc(sizeof(double) * rounds);
            pooled[d][p] = malloc(sizeof(double) * (size_t)rounds * iters);
        }
    const double t0 = bench_now_ms();
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            const int d = (r + k) % 2; /* alternate which daemon goes first */
            open_session(addr[d]);
            for (int p = 0; p < NPATHS; p++) {
                for (int i = 0; i < warmup; i++)
                    call(p);
                for (int i = 0; i < iters; i++) {
                    const int64_t a = bench_now_ns();
                    call(p);
                    block[i] = (double)(bench_now_ns() - a) * 1e-3;
                }
                memcpy(pooled[d][p] + (size_t)r * iters, block, sizeof(double) * iters);
                round_med[d][p][r] = bench_median(block, iters);
            }
            if (trnsciDeviceReset() != trnsciSuccess)
                die("trnsciDeviceReset");
        }
        fprintf(stderr, "round %d/%d: sync %.2f/%.2f us, sgemm1 %.2f/%.2f us (off/on)\n", r + 1,
                rounds, round_med[OFF][0][r], round_med[ON][0][r], round_med[OFF][1][r],
                round_med[ON][1][r]);
    }
    const double wall = bench_now_ms() - t0;
    kill(scr, SIGTERM);
    waitpid(scr, NULL, 0);

    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    printf("{\n  \"bench\": \"metrics_overhead\",\n");
    bench_json_host(",\n");
    printf("  \"client_cpus\": \"%s\", \"rounds\": %d, \"iters\": %d, \"scrape_ms\": %d, "
           "\"wall_s\": %.1f,\n",
           cpus, rounds, iters, scrape_ms, wall * 1e-3);
    printf("  \"paths\": {\n");
    for (int p = 0; p < NPATHS; p++) {
        double med[2];
        bench_dist dist[2];
        for (int d = 0; d < 2; d++) {
            med[d] = bench_median(round_med[d][p], rounds);
            dist[d] = bench_dist_of(pooled[d][p], rounds * iters);
        }
        printf(
            "    \"%s\": {\"off_us\": {\"median_of_rounds\": %.3f, \"p50\": %.3f, \"p99\": %.3f}, "
            "\"on_us\": {\"median_of_rounds\": %.3f, \"p50\": %.3f, \"p99\": %.3f}, "
            "\"overhead\": %.4f}%s\n",
            path_names[p], med[OFF], dist[OFF].p50, dist[OFF].p99, med[ON], dist[ON].p50,
            dist[ON].p99, med[ON] / med[OFF] - 1.0, p + 1 < NPATHS ? "," : "");
    }
    printf("  },\n  \"target_overhead\": 0.02\n}\n");
    for (int d = 0; d < 2; d++)
        for (int p = 0; p < NPATHS; p++) {
            free(round_med[d][p]);
            free(pooled[d][p]);
        }
    free(block);
    if (blas)
        trnblasDestroy(blas);
    return 0;
}
