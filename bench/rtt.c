/*
 * rtt.c — round-trip latency of the transports, each beside a raw IPC floor
 * measured in the same run, and the throughput of making input visible to the
 * daemon.
 *
 * Latency (µs per round trip; p50, p90, p99, min, mean, max). The bench pins
 * itself (all its threads) to --client-cpu (default 0); the peer runs on
 * --same-cpu (default 0, the client's CPU) for placement "same" and on
 * --diff-cpu (default 1) for placement "diff". The peers are:
 *   raw_shm_eventfd      a forked process pinned to the peer CPU; 16-byte
 *                        messages through a ring in shared memory, one
 *                        eventfd doorbell per direction (blocking reads)
 *   raw_socketpair       a forked process; 16 bytes each way on a unix
 *                        SOCK_STREAM socketpair, blocking read/send
 *   raw_socketpair_epoll as above, but the peer waits like the daemon's
 *                        local transport loop: epoll_wait, recv until EAGAIN,
 *                        reply with sendmsg(MSG_DONTWAIT)
 *   raw_grpc_echo        this binary exec'd as a C gRPC core server
 *                        (--echo-server) pinned to the peer CPU, answering
 *                        one registered method with the request's bytes the
 *                        way the daemon's gRPC frontend answers; the client
 *                        makes unary calls exactly as libtrnsci's gRPC
 *                        transport does (a pluck queue and one 6-op batch per
 *                        call, a new channel per block as libtrnsci gets
 *                        one per trnsciInit), with a 9-byte payload (a packed
 *                        SynchronizeRequest is 9 bytes)
 *   local_* / grpc_*     libtrnsci against the daemon pinned to the peer CPU
 *                        (--local-same/--grpc-same, --local-diff/--grpc-diff):
 *     *_stream_sync      trnsciStreamSynchronize(NULL) on an idle session:
 *                        the null op, one request and one reply through the
 *                        daemon's dispatcher and scheduler, no kernel
 *     *_device_sync      trnsciDeviceSynchronize() (all streams)
 *     *_sgemm1_sync      a 1x1x1 trnblasSgemm + trnsciStreamSynchronize(NULL):
 *                        two round trips and a kernel on the daemon's worker
 * The raw peers are forked (and the echo servers exec'd) before this process
 * makes any trnsci or gRPC call. --iters round trips per mechanism (default
 * 20000; --iters-extra, default 5000, for *_device_sync and *_sgemm1_sync),
 * interleaved: --rounds rounds (default 10), each running a block of every
 * mechanism and placement after --warmup untimed calls (default 200), so slow
 * periods of a noisy machine hit all alike.
 * libtrnsci has one session per process: switching daemons is
 * trnsciDeviceReset + trnsciInit(address).
 *
 * Next to every latency: CPU time per round trip of this process (all its
 * threads) and of the peer process (all its threads; with --pid-same /
 * --pid-diff for the daemons), from /proc/PID/task/ * /schedstat, how many
 * times their threads were scheduled in per round trip, and the CPUs the
 * threads that ran were last seen on.
 *
 * Throughput: trnsciMemcpy host-to-device of --copy-bytes (default 1 GiB) on
 * the local transport (a memcpy into the buffer's shared mapping) against a
 * plain memcpy between two host buffers of the same size, first touch ("cold")
 * and repeated ("warm", median of --copy-reps); and the same over gRPC
 * (--grpc-copy-bytes, default 256 MiB, chunked Write calls). Both use the
 * "diff" daemon when it is given.
 *
 * Output: one JSON object on stdout. bench/run_rtt.sh starts the daemons with
 * the right pinning (see docs/benchmarks.md).
 *
 * usage: bench_rtt [--local-same ADDR] [--grpc-same ADDR] [--local-diff ADDR]
 *                  [--grpc-diff ADDR] [--pid-same PID] [--pid-diff PID]
 *                  [--client-cpu C] [--same-cpu C] [--diff-cpu C]
 *                  [--iters N] [--iters-extra N] [--rounds R] [--warmup W]
 *                  [--copy-bytes B] [--grpc-copy-bytes B] [--copy-reps N]
 *                  [--only NAME,...] [--no-copy] [--tmpdir DIR] [--verbose]
 *        bench_rtt --echo-server unix:PATH [--ready-fd FD]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>
#include <unistd.h>

#include "bench_util.h"

#define MSG_BYTES 16
#define RING_SLOTS 64
#define ECHO_METHOD "/trnsci.bench.Echo/Echo"
#define ECHO_PAYLOAD_BYTES 9
#define MAX_COPY_REPS 64

/* ---- small utilities ----------------------------------------------------------- */

static void die(const char *what) {
    fprintf(stderr, "bench_rtt: %s failed: %s\n", what, strerror(errno));
    exit(1);
}

static void die_trn(const char *what) {
    fprintf(stderr, "bench_rtt: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

/* ---- per-thread CPU accounting from /proc ---------------------------------------- */

typedef struct proc_sample {
    int n;
    bench_thread_sample t[BENCH_MAX_THREADS];
} proc_sample;

/* Every thread of pid (none if pid <= 0): CPU time, times scheduled in, last CPU. */
static void sample_proc(int pid, proc_sample *s) {
    s->n = bench_sample_threads(pid, s->t, BENCH_MAX_THREADS, 0);
}

/* CPU time and scheduled-in count gained between two samples; the CPUs of the
 * threads that ran are or-ed into *cpus. */
static void proc_delta(const proc_sample *a, const proc_sample *b, unsigned long long *ns,
                       unsigned long long *runs, uint64_t *cpus) {
    bench_thread_delta d = {0};
    bench_threads_delta(a->t, a->n, b->t, b->n, &d);
    *ns += d.ns;
    *runs += d.runs;
    *cpus |= d.cpus;
}

/* ---- raw peer 1: shared-memory ring + eventfd doorbells ---------------------------- */

typedef struct shm_chan {
    _Alignas(64) atomic_uint_fast64_t req_head; /* written by the client */
    _Alignas(64) atomic_uint_fast64_t rep_head; /* written by the peer */
    _Alignas(64) atomic_int stop;
    _Alignas(64) unsigned char req[RING_SLOTS][MSG_BYTES];
    _Alignas(64) unsigned char rep[RING_SLOTS][MSG_BYTES];
} shm_chan;

typedef struct shm_peer {
    shm_chan *ch;
    int efd_req, efd_rep;
    uint64_t sent;
} shm_peer;

static void shm_serve(shm_peer *p) {
    uint64_t tail = 0, cnt;
    for (;;) {
        if (bench_read_all(p->efd_req, &cnt, sizeof(cnt)) != 0)
            _exit(1);
        if (atomic_load_explicit(&p->ch->stop, memory_order_acquire))
            _exit(0);
        const uint64_t head = atomic_load_explicit(&p->ch->req_head, memory_order_acquire);
        for (; tail < head; tail++) {
            const uint64_t seq = tail + 1;
            memcpy(p->ch->rep[seq % RING_SLOTS], p->ch->req[seq % RING_SLOTS], MSG_BYTES);
            atomic_store_explicit(&p->ch->rep_head, seq, memory_order_release);
        }
        const uint64_t one = 1;
        if (bench_write_all(p->efd_rep, &one, sizeof(one)) != 0)
            _exit(1);
    }
}

static void shm_round_trip(shm_peer *p) {
    const uint64_t seq = ++p->sent;
    unsigned char msg[MSG_BYTES] = {0};
    memcpy(msg, &seq, sizeof(seq));
    memcpy(p->ch->req[seq % RING_SLOTS], msg, MSG_BYTES);
    atomic_store_explicit(&p->ch->req_head, seq, memory_order_release);
    uint64_t v = 1;
    if (bench_write_all(p->efd_req, &v, sizeof(v)) != 0 ||
        bench_read_all(p->efd_rep, &v, sizeof(v)) != 0)
        die("shm doorbell");
    if (atomic_load_explicit(&p->ch->rep_head, memory_order_acquire) < seq ||
        memcmp(p->ch->rep[seq % RING_SLOTS], msg, MSG_BYTES) != 0) {
        fprintf(stderr, "bench_rtt: shm peer answered out of order\n");
        exit(1);
    }
}

/* ---- raw peers 2 and 3: unix socketpair ----------------------------------------- */

static void sock_serve_blocking(int fd) {
    unsigned char m[MSG_BYTES];
    for (;;) {
        if (bench_read_all(fd, m, sizeof(m)) != 0)
            _exit(0);
        if (m[MSG_BYTES - 1] == 0xff) /* stop */
            _exit(0);
        if (bench_write_all(fd, m, sizeof(m)) != 0)
            _exit(1);
    }
}

/* The daemon's loop pattern: epoll_wait, recv until EAGAIN, reply with
 * sendmsg(MSG_DONTWAIT) per complete frame. */
static void sock_serve_epoll(int fd) {
    const int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0 ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0)
        _exit(1);
    unsigned char buf[4096];
    size_t have = 0;
    for (;;) {
        struct epoll_event got;
        const int n = epoll_wait(ep, &got, 1, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            _exit(1);
        for (;;) {
            const ssize_t k = recv(fd, buf + have, sizeof(buf) - have, MSG_DONTWAIT);
            if (k == 0)
                _exit(0);
            if (k < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK)
                    break;
                _exit(1);
            }
            have += (size_t)k;
            size_t pos = 0;
            for (; have - pos >= MSG_BYTES; pos += MSG_BYTES) {
                if (buf[pos + MSG_BYTES - 1] == 0xff)
                    _exit(0);
                struct iovec iov = {buf + pos, MSG_BYTES};
                struct msghdr msg = {0};
                msg.msg_iov = &iov;
                msg.msg_iovlen = 1;
                if (sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) != MSG_BYTES)
                    _exit(1);
            }
            memmove(buf, buf + pos, have - pos);
            have -= pos;
        }
    }
}

/* The client side of both: send, then recvmsg (as libtrnsci's local transport). */
static void sock_round_trip(int fd, uint64_t *sent) {
    unsigned char m[MSG_BYTES] = {0}, r[MSG_BYTES];
    const uint64_t seq = ++*sent;
    memcpy(m, &seq, sizeof(seq));
    if (send(fd, m, sizeof(m), MSG_NOSIGNAL) != (ssize_t)sizeof(m))
        die("socketpair send");
    size_t got = 0;
    while (got < sizeof(r)) {
        struct iovec iov = {r + got, sizeof(r) - got};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        const ssize_t k = recvmsg(fd, &msg, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            die("socketpair recvmsg");
        got += (size_t)k;
    }
    if (memcmp(m, r, sizeof(m)) != 0) {
        fprintf(stderr, "bench_rtt: socketpair peer answered out of order\n");
        exit(1);
    }
}

static void sock_stop(int fd) {
    unsigned char m[MSG_BYTES] = {0};
    m[MSG_BYTES - 1] = 0xff;
    if (send(fd, m, sizeof(m), MSG_NOSIGNAL) < 0) {
        /* the peer is gone already: waitpid will tell */
    }
}

/* ---- raw peer 4: a C gRPC core echo server (--echo-server) ------------------------- */

typedef struct echo_call {
    int generic;
    int stage; /* 0: waiting for a call; 1: reply batch started */
    grpc_call *call;
    gpr_timespec deadline;
    grpc_metadata_array md;
    grpc_call_details details;
    grpc_byte_buffer *payload, *reply;
    grpc_slice status_details;
    int has_details;
    int cancelled;
} echo_call;

static volatile sig_atomic_t echo_stop;

static void on_stop_signal(int sig) {
    (void)sig;
    echo_stop = 1;
}

static void echo_free(echo_call *c) {
    if (c->call)
        grpc_call_unref(c->call);
    grpc_metadata_array_destroy(&c->md);
    if (c->generic)
        grpc_call_details_destroy(&c->details);
    if (c->payload)
        grpc_byte_buffer_destroy(c->payload);
    if (c->reply)
        grpc_byte_buffer_destroy(c->reply);
    if (c->has_details)
        grpc_slice_unref(c->status_details);
    free(c);
}

static void echo_post(grpc_server *srv, grpc_completion_queue *cq, void *method, int generic) {
    echo_call *c = calloc(1, sizeof(*c));
    if (!c)
        return;
    c->generic = generic;
    grpc_metadata_array_init(&c->md);
    grpc_call_error e;
    if (generic) {
        grpc_call_details_init(&c->details);
        e = grpc_server_request_call(srv, &c->call, &c->details, &c->md, cq, cq, c);
    } else {
        e = grpc_server_request_registered_call(srv, method, &c->call, &c->deadline, &c->md,
                                                &c->payload, cq, cq, c);
    }
    if (e != GRPC_CALL_OK)
        echo_free(c);
}

/* A new call: answer it as the daemon's frontend answers a unary call (initial
 * metadata, the message, status, RECV_CLOSE_ON_SERVER in one batch). */
static void echo_answer(echo_call *c) {
    grpc_op ops[4];
    size_t n = 0;
    memset(ops, 0, sizeof(ops));
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    grpc_status_code status = GRPC_STATUS_UNIMPLEMENTED;
    if (!c->generic) {
        grpc_slice s = grpc_empty_slice();
        grpc_byte_buffer_reader reader;
        if (c->payload && grpc_byte_buffer_reader_init(&reader, c->payload)) {
            s = grpc_byte_buffer_reader_readall(&reader);
            grpc_byte_buffer_reader_destroy(&reader);
        }
        c->reply = grpc_raw_byte_buffer_create(&s, 1);
        grpc_slice_unref(s);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = c->reply;
        n++;
        status = GRPC_STATUS_OK;
    }
    c->status_details = grpc_slice_from_copied_string("");
    c->has_details = 1;
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = status;
    ops[n].data.send_status_from_server.status_details = &c->status_details;
    n++;
    ops[n].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    ops[n].data.recv_close_on_server.cancelled = &c->cancelled;
    n++;
    c->stage = 1;
    if (grpc_call_start_batch(c->call, ops, n, c, NULL) != GRPC_CALL_OK)
        echo_free(c);
}

static int echo_server_main(const char *addr, int ready_fd) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    gpr_set_log_verbosity(GPR_LOG_SEVERITY_ERROR);
    grpc_init();
    grpc_arg args[1];
    memset(args, 0, sizeof(args));
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_ALLOW_REUSEPORT;
    args[0].value.integer = 0;
    const grpc_channel_args chargs = {1, args};
    grpc_server *srv = grpc_server_create(&chargs, NULL);
    grpc_completion_queue *cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(srv, cq, NULL);
    void *method = grpc_server_register_method(srv, ECHO_METHOD, NULL,
                                               GRPC_SRM_PAYLOAD_READ_INITIAL_BYTE_BUFFER, 0);
    grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
    const int port = grpc_server_add_http2_port(srv, addr, creds);
    grpc_server_credentials_release(creds);
    if (port == 0) {
        fprintf(stderr, "bench_rtt --echo-server: cannot listen on %s\n", addr);
        return 1;
    }
    grpc_server_start(srv);
    echo_post(srv, cq, method, 0);
    echo_post(srv, cq, method, 1);
    if (ready_fd >= 0) {
        if (bench_write_all(ready_fd, "r", 1) != 0)
            return 1;
        close(ready_fd);
    }
    int shutting = 0, done = 0, shutdown_tag = 0;
    while (!done) {
        if (echo_stop && !shutting) {
            shutting = 1;
            grpc_server_shutdown_and_notify(srv, cq, &shutdown_tag);
            grpc_server_cancel_all_calls(srv);
        }
        const gpr_timespec deadline =
            gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(100, GPR_TIMESPAN));
        const grpc_event ev = grpc_completion_queue_next(cq, deadline, NULL);
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        if (ev.tag == &shutdown_tag) {
            done = 1;
            continue;
        }
        echo_call *c = ev.tag;
        if (c->stage == 1 || !ev.success) {
            echo_free(c);
            continue;
        }
        if (!shutting)
            echo_post(srv, cq, method, c->generic);
        echo_answer(c);
    }
    grpc_server_destroy(srv);
    grpc_completion_queue_shutdown(cq);
    for (;;) {
        const grpc_event ev =
            grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type == GRPC_OP_COMPLETE && ev.tag != &shutdown_tag)
            echo_free(ev.tag);
    }
    grpc_completion_queue_destroy(cq);
    grpc_shutdown();
    return 0;
}

/* The client: one unary call exactly as client/transport_grpc.c makes one. */
static grpc_channel *echo_channel(const char *target) {
    grpc_arg args[2];
    memset(args, 0, sizeof(args));
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = 8 << 20;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = 8 << 20;
    const grpc_channel_args chargs = {2, args};
    grpc_channel_credentials *creds = grpc_insecure_credentials_create();
    grpc_channel *ch = grpc_channel_create(target, creds, &chargs);
    grpc_channel_credentials_release(creds);
    return ch;
}

static void echo_round_trip(grpc_channel *ch) {
    static const uint8_t payload[ECHO_PAYLOAD_BYTES] = {0x09, 1, 2, 3, 4, 5, 6, 7, 8};
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_slice path = grpc_slice_from_static_string(ECHO_METHOD);
    grpc_call *call = grpc_channel_create_call(ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, path, NULL,
                                               gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    grpc_slice slice = grpc_slice_malloc(sizeof(payload));
    memcpy(GRPC_SLICE_START_PTR(slice), payload, sizeof(payload));
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&slice, 1), *recv = NULL;
    grpc_slice_unref(slice);
    grpc_metadata_array md, trailing;
    grpc_metadata_array_init(&md);
    grpc_metadata_array_init(&trailing);
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    grpc_op ops[6];
    memset(ops, 0, sizeof(ops));
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trailing;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;
    int ok = grpc_call_start_batch(call, ops, 6, call, NULL) == GRPC_CALL_OK;
    if (ok)
        grpc_completion_queue_pluck(cq, call, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    ok = ok && status == GRPC_STATUS_OK && recv;
    if (ok) {
        grpc_byte_buffer_reader reader;
        ok = grpc_byte_buffer_reader_init(&reader, recv);
        if (ok) {
            grpc_slice s = grpc_byte_buffer_reader_readall(&reader);
            grpc_byte_buffer_reader_destroy(&reader);
            ok = GRPC_SLICE_LENGTH(s) == sizeof(payload) &&
                 memcmp(GRPC_SLICE_START_PTR(s), payload, sizeof(payload)) == 0;
            grpc_slice_unref(s);
        }
    }
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&md);
    grpc_metadata_array_destroy(&trailing);
    grpc_byte_buffer_destroy(send);
    if (recv)
        grpc_byte_buffer_destroy(recv);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    grpc_completion_queue_destroy(cq);
    if (!ok) {
        fprintf(stderr, "bench_rtt: gRPC echo call failed (status %d)\n", (int)status);
        exit(1);
    }
}

/* ---- mechanisms ---------------------------------------------------------------------- */

enum { SAME, DIFF, NPLACE };
static const char *const place_names[NPLACE] = {"same", "diff"};

typedef enum mech {
    M_SHM,
    M_SOCK,
    M_SOCK_EPOLL,
    M_GRPC_ECHO,
    M_LOCAL_SYNC,
    M_LOCAL_DEVSYNC,
    M_LOCAL_SGEMM,
    M_GRPC_SYNC,
    M_GRPC_DEVSYNC,
    M_GRPC_SGEMM,
    M_COUNT
} mech;

static const char *const mech_names[M_COUNT] = {
    "raw_shm_eventfd",   "raw_socketpair",    "raw_socketpair_epoll", "raw_grpc_echo",
    "local_stream_sync", "local_device_sync", "local_sgemm1_sync",    "grpc_stream_sync",
    "grpc_device_sync",  "grpc_sgemm1_sync",
};

/* Secondary mechanisms run --iters-extra round trips instead of --iters. */
static int mech_is_extra(mech m) {
    return m == M_LOCAL_DEVSYNC || m == M_LOCAL_SGEMM || m == M_GRPC_DEVSYNC || m == M_GRPC_SGEMM;
}

static int mech_is_local(mech m) {
    return m == M_LOCAL_SYNC || m == M_LOCAL_DEVSYNC || m == M_LOCAL_SGEMM;
}

static int mech_is_grpc(mech m) {
    return m == M_GRPC_SYNC || m == M_GRPC_DEVSYNC || m == M_GRPC_SGEMM;
}

typedef struct placement {
    int peer_cpu;
    const char *local_addr, *grpc_addr;
    int daemon_pid;
    shm_peer shm;
    pid_t shm_pid;
    int sock_fd, epoll_fd;
    pid_t sock_pid, epoll_pid;
    uint64_t sock_sent, epoll_sent;
    pid_t echo_pid;
    char echo_addr[256];
    grpc_channel *echo_ch;
} placement;

typedef struct result {
    double *samples; /* µs */
    int n, cap;
    unsigned long long client_ns, client_runs, peer_ns, peer_runs;
    uint64_t client_cpus, peer_cpus;
} result;

/* The trnsci session currently open, and its buffers for the 1x1x1 SGEMM. */
static const char *trn_addr;
static float *dA, *dB, *dC;
static trnblasHandle_t blas;

static void trn_switch(const char *addr) {
    if (trn_addr && strcmp(trn_addr, addr) == 0)
        return;
    if (trn_addr && trnsciDeviceReset() != trnsciSuccess)
        die_trn("trnsciDeviceReset");
    trn_addr = NULL;
    if (trnsciInit(addr) != trnsciSuccess)
        die_trn("trnsciInit");
    trn_addr = addr;
    const float one = 1.0f, zero = 0.0f;
    if (trnsciMalloc((void **)&dA, sizeof(float)) || trnsciMalloc((void **)&dB, sizeof(float)) ||
        trnsciMalloc((void **)&dC, sizeof(float)))
        die_trn("trnsciMalloc");
    if (trnsciMemcpy(dA, &one, sizeof(float), trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dB, &one, sizeof(float), trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dC, &zero, sizeof(float), trnsciMemcpyHostToDevice))
        die_trn("trnsciMemcpy");
    if (!blas && trnblasCreate(&blas) != TRNBLAS_STATUS_SUCCESS)
        die_trn("trnblasCreate");
}

static void one_round_trip(placement *p, mech m) {
    const float alpha = 1.0f, beta = 0.0f;
    switch (m) {
    case M_SHM: shm_round_trip(&p->shm); return;
    case M_SOCK: sock_round_trip(p->sock_fd, &p->sock_sent); return;
    case M_SOCK_EPOLL: sock_round_trip(p->epoll_fd, &p->epoll_sent); return;
    case M_GRPC_ECHO: echo_round_trip(p->echo_ch); return;
    case M_LOCAL_SYNC:
    case M_GRPC_SYNC:
        if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die_trn("trnsciStreamSynchronize");
        return;
    case M_LOCAL_DEVSYNC:
    case M_GRPC_DEVSYNC:
        if (trnsciDeviceSynchronize() != trnsciSuccess)
            die_trn("trnsciDeviceSynchronize");
        return;
    case M_LOCAL_SGEMM:
    case M_GRPC_SGEMM:
        if (trnblasSgemm(blas, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &alpha, dA, 1, dB, 1, &beta, dC,
                         1) != TRNBLAS_STATUS_SUCCESS)
            die_trn("trnblasSgemm");
        if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die_trn("trnsciStreamSynchronize");
        return;
    case M_COUNT: break;
    }
}

static int peer_pid_of(const placement *p, mech m) {
    switch (m) {
    case M_SHM: return p->shm_pid;
    case M_SOCK: return p->sock_pid;
    case M_SOCK_EPOLL: return p->epoll_pid;
    case M_GRPC_ECHO: return p->echo_pid;
    default: return p->daemon_pid;
    }
}

static proc_sample s_client0, s_client1, s_peer0, s_peer1;
static int verbose; /* --verbose: each block's median and CPU times on stderr */

static void run_block(placement *p, mech m, result *r, int n, int warmup, const char *where) {
    if (mech_is_local(m))
        trn_switch(p->local_addr);
    else if (mech_is_grpc(m))
        trn_switch(p->grpc_addr);
    if (m == M_GRPC_ECHO) {
        /* A new channel per block, as libtrnsci gets one per trnsciInit. */
        if (p->echo_ch)
            grpc_channel_destroy(p->echo_ch);
        p->echo_ch = echo_channel(p->echo_addr);
    }
    for (int i = 0; i < warmup; i++)
        one_round_trip(p, m);
    const int peer = peer_pid_of(p, m);
    sample_proc(getpid(), &s_client0);
    sample_proc(peer, &s_peer0);
    const int first = r->n;
    for (int i = 0; i < n && r->n < r->cap; i++) {
        const int64_t t0 = bench_now_ns();
        one_round_trip(p, m);
        r->samples[r->n++] = (double)(bench_now_ns() - t0) * 1e-3;
    }
    sample_proc(getpid(), &s_client1);
    sample_proc(peer, &s_peer1);
    unsigned long long cns = 0, cruns = 0, pns = 0, pruns = 0;
    proc_delta(&s_client0, &s_client1, &cns, &cruns, &r->client_cpus);
    proc_delta(&s_peer0, &s_peer1, &pns, &pruns, &r->peer_cpus);
    r->client_ns += cns;
    r->client_runs += cruns;
    r->peer_ns += pns;
    r->peer_runs += pruns;
    if (verbose && r->n > first) {
        const int k = r->n - first;
        double *v = malloc((size_t)k * sizeof(double));
        if (v) {
            memcpy(v, r->samples + first, (size_t)k * sizeof(double));
            fprintf(stderr,
                    "bench_rtt: %-5s %-22s n=%-6d p50=%8.2f us  client_cpu=%6.2f us  "
                    "peer_cpu=%6.2f us\n",
                    where, mech_names[m], k, bench_median(v, k), (double)cns * 1e-3 / k,
                    (double)pns * 1e-3 / k);
            free(v);
        }
    }
}

/* ---- starting and stopping the peers ------------------------------------------------ */

static pid_t fork_peer(int cpu) {
    const pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (bench_pin_self(cpu) != 0) {
            fprintf(stderr, "bench_rtt: cannot pin a peer to CPU %d: %s\n", cpu, strerror(errno));
            _exit(1);
        }
    }
    return pid;
}

static void start_raw_peers(placement *p, int want_shm, int want_sock, int want_epoll) {
    if (want_shm) {
        p->shm.ch =
            mmap(NULL, sizeof(shm_chan), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p->shm.ch == MAP_FAILED)
            die("mmap");
        memset(p->shm.ch, 0, sizeof(shm_chan));
        p->shm.efd_req = eventfd(0, EFD_CLOEXEC);
        p->shm.efd_rep = eventfd(0, EFD_CLOEXEC);
        if (p->shm.efd_req < 0 || p->shm.efd_rep < 0)
            die("eventfd");
        p->shm_pid = fork_peer(p->peer_cpu);
        if (p->shm_pid == 0)
            shm_serve(&p->shm);
    }
    for (int k = 0; k < 2; k++) {
        if (!(k ? want_epoll : want_sock))
            continue;
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
            die("socketpair");
        const pid_t pid = fork_peer(p->peer_cpu);
        if (pid == 0) {
            close(sv[0]);
            if (k)
                sock_serve_epoll(sv[1]);
            else
                sock_serve_blocking(sv[1]);
            _exit(0);
        }
        close(sv[1]);
        if (k) {
            p->epoll_fd = sv[0];
            p->epoll_pid = pid;
        } else {
            p->sock_fd = sv[0];
            p->sock_pid = pid;
        }
    }
}

/* Execs this binary as a gRPC echo server pinned to the placement's CPU and
 * waits (at most 10 s) until it listens. */
static void start_echo(placement *p, const char *dir, int idx) {
    snprintf(p->echo_addr, sizeof(p->echo_addr), "unix:%s/echo-%s.sock", dir, place_names[idx]);
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe");
    const pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        close(fds[0]);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (bench_pin_self(p->peer_cpu) != 0)
            _exit(1);
        char fd_arg[16];
        snprintf(fd_arg, sizeof(fd_arg), "%d", fds[1]);
        execl("/proc/self/exe", "bench_rtt", "--echo-server", p->echo_addr, "--ready-fd", fd_arg,
              (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
    char c;
    if (poll(&pfd, 1, 10000) != 1 || read(fds[0], &c, 1) != 1) {
        fprintf(stderr, "bench_rtt: the gRPC echo server on %s did not start\n", p->echo_addr);
        kill(pid, SIGKILL);
        exit(1);
    }
    close(fds[0]);
    p->echo_pid = pid;
}

/* Stops a peer and returns its exit status (0 = clean), or -1 if it did not exit. */
static int reap(pid_t pid, int sig) {
    if (pid <= 0)
        return 0;
    if (sig)
        kill(pid, sig);
    for (int i = 0; i < 1000; i++) {
        int st;
        const pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

/* ---- throughput ------------------------------------------------------------------------ */

typedef struct copy_result {
    int done;
    const char *addr;
    size_t bytes;
    int reps;
    double trn_cold, host_cold; /* GiB/s, first touch of the destination */
    double trn_warm, host_warm; /* GiB/s, median over reps */
    double trn_best, host_best; /* GiB/s, best rep */
} copy_result;

static double gibps(size_t bytes, int64_t ns) {
    return (double)bytes / (double)(1u << 30) / ((double)ns * 1e-9);
}

static void *map_bytes(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        die("mmap (host buffer)");
    return p;
}

static void measure_copy(copy_result *cr, const char *addr, size_t bytes, int reps) {
    trn_switch(addr);
    cr->addr = addr;
    cr->bytes = bytes;
    cr->reps = reps;
    unsigned char *src = map_bytes(bytes), *dst = map_bytes(bytes);
    for (size_t i = 0; i < bytes; i += 4096) /* fault in the source, a known pattern */
        memset(src + i, (int)((i >> 12) * 131u + 7u) & 0xff, 4096 < bytes - i ? 4096 : bytes - i);
    void *dev = NULL;
    if (trnsciMalloc(&dev, bytes) != trnsciSuccess)
        die_trn("trnsciMalloc (copy buffer)");
    /* Cold: the first copy into each destination also faults its pages in. */
    int64_t t0 = bench_now_ns();
    if (trnsciMemcpy(dev, src, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        die_trn("trnsciMemcpy (host to device)");
    cr->trn_cold = gibps(bytes, bench_now_ns() - t0);
    t0 = bench_now_ns();
    memcpy(dst, src, bytes);
    cr->host_cold = gibps(bytes, bench_now_ns() - t0);
    /* Warm: alternate the two, so that slow periods hit both alike. */
    double trn[MAX_COPY_REPS], host[MAX_COPY_REPS];
    for (int r = 0; r < reps; r++) {
        src[(size_t)r * 4096 % bytes] ^= 1; /* nothing can be skipped */
        t0 = bench_now_ns();
        if (trnsciMemcpy(dev, src, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
            die_trn("trnsciMemcpy (host to device)");
        trn[r] = gibps(bytes, bench_now_ns() - t0);
        t0 = bench_now_ns();
        memcpy(dst, src, bytes);
        host[r] = gibps(bytes, bench_now_ns() - t0);
    }
    cr->trn_best = cr->host_best = 0;
    for (int r = 0; r < reps; r++) {
        cr->trn_best = trn[r] > cr->trn_best ? trn[r] : cr->trn_best;
        cr->host_best = host[r] > cr->host_best ? host[r] : cr->host_best;
    }
    cr->trn_warm = bench_median(trn, reps);
    cr->host_warm = bench_median(host, reps);
    /* The daemon holds what was sent: read back a page at a few places. */
    unsigned char back[4096];
    const size_t offs[3] = {0, bytes / 2 / 4096 * 4096, bytes >= 4096 ? bytes - 4096 : 0};
    for (int i = 0; i < 3; i++) {
        const size_t len = bytes - offs[i] < sizeof(back) ? bytes - offs[i] : sizeof(back);
        if (trnsciMemcpy(back, (unsigned char *)dev + offs[i], len, trnsciMemcpyDeviceToHost) !=
            trnsciSuccess)
            die_trn("trnsciMemcpy (device to host)");
        if (memcmp(back, src + offs[i], len) != 0) {
            fprintf(stderr, "bench_rtt: the daemon's copy of the input differs at %zu\n", offs[i]);
            exit(3);
        }
    }
    if (trnsciFree(dev) != trnsciSuccess)
        die_trn("trnsciFree");
    munmap(src, bytes);
    munmap(dst, bytes);
    cr->done = 1;
}

/* ---- output ------------------------------------------------------------------------------ */

/* target <= 0: informational, no target. */
static void print_ratio(const char *name, const bench_dist *num, const bench_dist *den,
                        double target, int last) {
    if (num->median <= 0 || den->median <= 0) {
        printf("      \"%s\": null%s\n", name, last ? "" : ",");
        return;
    }
    const double ratio = num->median / den->median;
    printf("      \"%s\": {\"ratio\": %.3f, ", name, ratio);
    if (target > 0)
        printf("\"target\": %.1f, \"met\": %s, ", target, ratio <= target ? "true" : "false");
    printf("\"ratio_of_p99\": %.3f, \"ratio_of_min\": %.3f}%s\n", num->p99 / den->p99,
           num->min / den->min, last ? "" : ",");
}

/* min_ratio > 0: the target for ratio_warm (trnsci / plain memcpy). */
static void print_copy(const char *name, const copy_result *c, const char *how, double min_ratio,
                       int last) {
    if (!c->done) {
        printf("    \"%s\": null%s\n", name, last ? "" : ",");
        return;
    }
    printf("    \"%s\": {\"address\": \"%s\", \"how\": \"%s\", \"bytes\": %zu, \"reps\": %d,\n",
           name, c->addr, how, c->bytes, c->reps);
    printf("      \"trnsci_memcpy_h2d_gibps\": {\"cold\": %.3f, \"warm_median\": %.3f, "
           "\"warm_best\": %.3f},\n",
           c->trn_cold, c->trn_warm, c->trn_best);
    printf("      \"host_memcpy_gibps\": {\"cold\": %.3f, \"warm_median\": %.3f, "
           "\"warm_best\": %.3f},\n",
           c->host_cold, c->host_warm, c->host_best);
    const double ratio = c->trn_warm / c->host_warm;
    printf("      \"ratio_warm\": %.3f, \"ratio_cold\": %.3f", ratio, c->trn_cold / c->host_cold);
    if (min_ratio > 0)
        printf(", \"target_ratio_warm\": %.2f, \"met\": %s", min_ratio,
               ratio >= min_ratio ? "true" : "false");
    printf("}%s\n", last ? "" : ",");
}

/* ---- main ------------------------------------------------------------------------------- */

static void usage(void) {
    fputs("usage: bench_rtt [--local-same ADDR] [--grpc-same ADDR] [--local-diff ADDR]\n"
          "                 [--grpc-diff ADDR] [--pid-same PID] [--pid-diff PID]\n"
          "                 [--client-cpu C] [--same-cpu C] [--diff-cpu C]\n"
          "                 [--iters N] [--iters-extra N] [--rounds R] [--warmup W]\n"
          "                 [--copy-bytes B] [--grpc-copy-bytes B] [--copy-reps N]\n"
          "                 [--only NAME,...] [--no-copy] [--tmpdir DIR] [--verbose]\n"
          "       bench_rtt --echo-server unix:PATH [--ready-fd FD]\n",
          stderr);
    exit(2);
}

static size_t parse_bytes(const char *s) {
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'G':
    case 'g': v *= 1024.0 * 1024 * 1024; break;
    case 'M':
    case 'm': v *= 1024.0 * 1024; break;
    case 'K':
    case 'k': v *= 1024.0; break;
    case '\0': break;
    default: usage();
    }
    if (v < 4096)
        usage();
    return (size_t)v;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "--echo-server") == 0) {
        const int fd = argc >= 5 && strcmp(argv[3], "--ready-fd") == 0 ? atoi(argv[4]) : -1;
        return echo_server_main(argv[2], fd);
    }

    placement pl[NPLACE];
    memset(pl, 0, sizeof(pl));
    pl[SAME].peer_cpu = 0;
    pl[DIFF].peer_cpu = 1;
    int client_cpu = 0, iters = 20000, iters_extra = 5000, rounds = 10, warmup = 200;
    int copy_reps = 5;
    size_t copy_bytes = (size_t)1 << 30, grpc_copy_bytes = (size_t)256 << 20;
    const char *only = NULL, *tmpdir = NULL, *copy_arg = NULL, *grpc_copy_arg = NULL;
    int no_copy = 0;
    const bench_opt opts[] = {{"--local-same", BENCH_OPT_STR, &pl[SAME].local_addr},
                              {"--grpc-same", BENCH_OPT_STR, &pl[SAME].grpc_addr},
                              {"--local-diff", BENCH_OPT_STR, &pl[DIFF].local_addr},
                              {"--grpc-diff", BENCH_OPT_STR, &pl[DIFF].grpc_addr},
                              {"--pid-same", BENCH_OPT_INT, &pl[SAME].daemon_pid},
                              {"--pid-diff", BENCH_OPT_INT, &pl[DIFF].daemon_pid},
                              {"--client-cpu", BENCH_OPT_INT, &client_cpu},
                              {"--same-cpu", BENCH_OPT_INT, &pl[SAME].peer_cpu},
                              {"--diff-cpu", BENCH_OPT_INT, &pl[DIFF].peer_cpu},
                              {"--iters", BENCH_OPT_INT, &iters},
                              {"--iters-extra", BENCH_OPT_INT, &iters_extra},
                              {"--rounds", BENCH_OPT_INT, &rounds},
                              {"--warmup", BENCH_OPT_INT, &warmup},
                              {"--copy-bytes", BENCH_OPT_STR, &copy_arg},
                              {"--grpc-copy-bytes", BENCH_OPT_STR, &grpc_copy_arg},
                              {"--copy-reps", BENCH_OPT_INT, &copy_reps},
                              {"--only", BENCH_OPT_STR, &only},
                              {"--verbose", BENCH_OPT_FLAG, &verbose},
                              {"--no-copy", BENCH_OPT_FLAG, &no_copy},
                              {"--tmpdir", BENCH_OPT_STR, &tmpdir},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0)
        usage();
    const int do_copy = !no_copy;
    if (copy_arg)
        copy_bytes = parse_bytes(copy_arg);
    if (grpc_copy_arg)
        grpc_copy_bytes = parse_bytes(grpc_copy_arg);
    if (iters < 1 || iters_extra < 1 || rounds < 1 || warmup < 0 || copy_reps < 1 ||
        copy_reps > MAX_COPY_REPS)
        usage();

    /* Which mechanisms run where. */
    int want[NPLACE][M_COUNT];
    for (int p = 0; p < NPLACE; p++)
        for (int m = 0; m < M_COUNT; m++) {
            int w = 1;
            if (only) {
                char list[1024];
                snprintf(list, sizeof(list), ",%s,", only);
                char key[64];
                snprintf(key, sizeof(key), ",%s,", mech_names[m]);
                w = strstr(list, key) != NULL;
            }
            if (mech_is_local(m) && !pl[p].local_addr)
                w = 0;
            if (mech_is_grpc(m) && !pl[p].grpc_addr)
                w = 0;
            want[p][m] = w;
        }

    /* Peers first: fork before this process makes any trnsci or gRPC call. */
    char dir[512] = "";
    if (want[SAME][M_GRPC_ECHO] || want[DIFF][M_GRPC_ECHO]) {
        snprintf(dir, sizeof(dir), "%s/bench-rtt.XXXXXX",
                 tmpdir ? tmpdir : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"));
        if (!mkdtemp(dir))
            die("mkdtemp");
    }
    for (int p = 0; p < NPLACE; p++) {
        start_raw_peers(&pl[p], want[p][M_SHM], want[p][M_SOCK], want[p][M_SOCK_EPOLL]);
        if (want[p][M_GRPC_ECHO])
            start_echo(&pl[p], dir, p);
    }
    if (bench_pin_self(client_cpu) != 0) {
        fprintf(stderr, "bench_rtt: cannot pin to CPU %d: %s\n", client_cpu, strerror(errno));
        return 1;
    }
    gpr_set_log_verbosity(GPR_LOG_SEVERITY_ERROR);
    grpc_init();

    static result res[NPLACE][M_COUNT];
    for (int p = 0; p < NPLACE; p++)
        for (int m = 0; m < M_COUNT; m++) {
            if (!want[p][m])
                continue;
            const int total = mech_is_extra((mech)m) ? iters_extra : iters;
            res[p][m].cap = total;
            res[p][m].samples = calloc((size_t)total, sizeof(double));
            if (!res[p][m].samples)
                die("calloc");
        }

    /* Interleaved rounds: every mechanism and placement in each. */
    const int64_t t_start = bench_now_ns();
    for (int r = 0; r < rounds; r++)
        for (int p = 0; p < NPLACE; p++)
            for (int m = 0; m < M_COUNT; m++) {
                if (!want[p][m])
                    continue;
                const int total = res[p][m].cap;
                const int n = total / rounds + (r < total % rounds ? 1 : 0);
                run_block(&pl[p], (mech)m, &res[p][m], n, warmup, place_names[p]);
            }
    const double latency_s = (double)(bench_now_ns() - t_start) * 1e-9;

    /* Throughput, on the "diff" daemons when given (the client's CPU is then
     * not shared with the daemon). */
    copy_result copy_local = {0}, copy_grpc = {0};
    const char *la = pl[DIFF].local_addr ? pl[DIFF].local_addr : pl[SAME].local_addr;
    const char *ga = pl[DIFF].grpc_addr ? pl[DIFF].grpc_addr : pl[SAME].grpc_addr;
    if (do_copy && la)
        measure_copy(&copy_local, la, copy_bytes, copy_reps);
    if (do_copy && ga)
        measure_copy(&copy_grpc, ga, grpc_copy_bytes, copy_reps < 3 ? copy_reps : 3);

    trnsciDaemonStatus st[NPLACE];
    int have_st[NPLACE] = {0, 0};
    for (int p = 0; p < NPLACE; p++) {
        const char *a = pl[p].local_addr ? pl[p].local_addr : pl[p].grpc_addr;
        have_st[p] = a && trnsciDaemonGetStatus(a, &st[p]) == trnsciSuccess;
    }
    if (trn_addr) {
        if (blas)
            trnblasDestroy(blas);
        trnsciDeviceReset();
    }

    /* Stop the peers. */
    int peers_ok = 1;
    for (int p = 0; p < NPLACE; p++) {
        if (pl[p].shm_pid) {
            atomic_store(&pl[p].shm.ch->stop, 1);
            const uint64_t one = 1;
            if (bench_write_all(pl[p].shm.efd_req, &one, sizeof(one)) != 0) {
                /* reap reports it */
            }
            peers_ok &= reap(pl[p].shm_pid, 0) == 0;
        }
        if (pl[p].sock_pid) {
            sock_stop(pl[p].sock_fd);
            peers_ok &= reap(pl[p].sock_pid, 0) == 0;
        }
        if (pl[p].epoll_pid) {
            sock_stop(pl[p].epoll_fd);
            peers_ok &= reap(pl[p].epoll_pid, 0) == 0;
        }
        if (pl[p].echo_ch)
            grpc_channel_destroy(pl[p].echo_ch);
    }
    int echo_ok = 1;
    for (int p = 0; p < NPLACE; p++)
        if (pl[p].echo_pid)
            echo_ok &= reap(pl[p].echo_pid, SIGTERM) == 0;
    for (int p = 0; p < NPLACE; p++)
        if (pl[p].echo_pid)
            unlink(pl[p].echo_addr + strlen("unix:"));
    if (dir[0])
        rmdir(dir);

    /* ---- JSON ---- */
    /* "p50" is the median (for an even count, the mean of the two middle
     * samples); p90 and p99 are nearest-rank. */
    bench_dist sm[NPLACE][M_COUNT];
    for (int p = 0; p < NPLACE; p++)
        for (int m = 0; m < M_COUNT; m++)
            sm[p][m] = bench_dist_of(res[p][m].samples, res[p][m].n);
    printf("{\n  \"benchmark\": \"rtt\",\n");
    printf("  \"what\": \"round-trip latency in microseconds, client pinned to CPU %d, peer "
           "(raw partner, echo server or trnscid) pinned to the placement's CPU\",\n",
           client_cpu);
    printf("  \"iterations\": %d, \"iterations_extra\": %d, \"rounds\": %d, "
           "\"warmup_per_block\": %d, \"latency_phase_s\": %.1f,\n",
           iters, iters_extra, rounds, warmup, latency_s);
    printf("  \"message_bytes\": {\"raw_shm_eventfd\": %d, \"raw_socketpair\": %d, "
           "\"raw_grpc_echo\": %d},\n",
           MSG_BYTES, MSG_BYTES, ECHO_PAYLOAD_BYTES);
    bench_json_host(",\n");
    printf("  \"placements\": {\n");
    for (int p = 0; p < NPLACE; p++) {
        char allowed[64] = "null";
        if (pl[p].daemon_pid > 0) {
            char a[48];
            if (bench_cpus_allowed(pl[p].daemon_pid, a, sizeof(a)) != 0)
                snprintf(a, sizeof(a), "?");
            snprintf(allowed, sizeof(allowed), "\"%s\"", a);
        }
        printf("    \"%s\": {\"client_cpu\": %d, \"peer_cpu\": %d, \"local\": \"%s\", \"grpc\": "
               "\"%s\", \"daemon_pid\": %d, \"daemon_cpus_allowed\": %s",
               place_names[p], client_cpu, pl[p].peer_cpu, pl[p].local_addr ? pl[p].local_addr : "",
               pl[p].grpc_addr ? pl[p].grpc_addr : "", pl[p].daemon_pid, allowed);
        if (have_st[p])
            printf(", \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", \"cores\": %u}",
                   st[p].daemonVersion, st[p].backend, st[p].coreCount);
        printf("}%s\n", p + 1 < NPLACE ? "," : "");
    }
    printf("  },\n  \"latency_us\": {\n");
    for (int p = 0; p < NPLACE; p++) {
        printf("    \"%s\": {\n", place_names[p]);
        int first = 1;
        for (int m = 0; m < M_COUNT; m++) {
            if (!want[p][m])
                continue;
            const result *r = &res[p][m];
            const bench_dist *s = &sm[p][m];
            char cc[64], pc[64];
            bench_mask_str(r->client_cpus, cc, sizeof(cc));
            bench_mask_str(r->peer_cpus, pc, sizeof(pc));
            printf("%s      \"%s\": {\"n\": %d, \"p50\": %.2f, \"p90\": %.2f, \"p99\": %.2f, "
                   "\"min\": %.2f, \"mean\": %.2f, \"max\": %.1f,\n",
                   first ? "" : ",\n", mech_names[m], r->n, s->median, s->p90, s->p99, s->min,
                   s->mean, s->max);
            printf("        \"client_cpu_us\": %.2f, \"client_runs\": %.2f, \"client_cpus\": "
                   "\"%s\", ",
                   (double)r->client_ns * 1e-3 / r->n, (double)r->client_runs / r->n, cc);
            if (peer_pid_of(&pl[p], (mech)m) > 0)
                printf("\"peer_cpu_us\": %.2f, \"peer_runs\": %.2f, \"peer_cpus\": \"%s\"}",
                       (double)r->peer_ns * 1e-3 / r->n, (double)r->peer_runs / r->n, pc);
            else
                printf("\"peer_cpu_us\": null, \"peer_runs\": null, \"peer_cpus\": null}");
            first = 0;
        }
        printf("\n    }%s\n", p + 1 < NPLACE ? "," : "");
    }
    printf("  },\n  \"ratios_p50\": {\n");
    for (int p = 0; p < NPLACE; p++) {
        printf("    \"%s\": {\n", place_names[p]);
        print_ratio("local_stream_sync_over_raw_shm_eventfd", &sm[p][M_LOCAL_SYNC], &sm[p][M_SHM],
                    3.0, 0);
        print_ratio("local_stream_sync_over_raw_socketpair", &sm[p][M_LOCAL_SYNC], &sm[p][M_SOCK],
                    0, 0);
        print_ratio("local_stream_sync_over_raw_socketpair_epoll", &sm[p][M_LOCAL_SYNC],
                    &sm[p][M_SOCK_EPOLL], 0, 0);
        print_ratio("grpc_stream_sync_over_raw_grpc_echo", &sm[p][M_GRPC_SYNC], &sm[p][M_GRPC_ECHO],
                    1.3, 1);
        printf("    }%s\n", p + 1 < NPLACE ? "," : "");
    }
    printf("  },\n  \"throughput\": {\n");
    print_copy("local", &copy_local,
               "trnsciMemcpy host-to-device: memcpy into the buffer's shared mapping", 0.9, 0);
    print_copy("grpc", &copy_grpc, "trnsciMemcpy host-to-device: chunked Write calls", 0, 1);
    printf("  },\n  \"peers_exited_cleanly\": %s\n}\n", peers_ok && echo_ok ? "true" : "false");
    return peers_ok && echo_ok ? 0 : 1;
}
