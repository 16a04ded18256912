/*
 * test_local.c — the local transport (unix:/path): shared-memory buffers and
 * framed requests on the socket.
 *
 *  - zero copy: the client writes inputs through the device pointer itself
 *    and reads results the same way; the daemon computes on those pages;
 *  - the buffer's memfd is sealed: the client can neither shrink nor grow it
 *    nor lift the seals (a raw client receives the descriptor to try);
 *  - garbage on the socket (an oversized length, unknown flags) ends only
 *    that connection and its session; an undecodable body is answered
 *    INVALID_ARGUMENT; other clients do not notice;
 *  - buffers of 2 MiB and more are advised to use huge pages on both sides
 *    (VmFlags "hg" on the daemon's and the client's mapping), smaller ones
 *    are not;
 *  - call timeouts: with TRNSCI_CALL_TIMEOUT=600, a call to a stopped
 *    (SIGSTOP) daemon fails with trnsciErrorTimeout after about 0.6 s instead
 *    of hanging, naming the limit; once the daemon runs again the session
 *    works (the late reply is dropped);
 *  - 200 clients SIGKILLed mid-op while another client keeps getting exact
 *    results; afterwards the daemon's sessions, descriptors and shared memory
 *    are back to their baseline.
 *
 * Client processes are this binary re-executed (gRPC is not fork-safe).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

static th_daemon daemon_under_test;

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- a raw local-transport client ------------------------------------------- */

static int raw_connect(void) {
    struct sockaddr_un a = {0};
    a.sun_family = AF_UNIX;
    const char *path = daemon_under_test.unix_addr + 5;
    assert_true(strlen(path) < sizeof(a.sun_path));
    memcpy(a.sun_path, path, strlen(path) + 1);
    const int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(s >= 0);
    assert_int_equal(connect(s, (struct sockaddr *)&a, sizeof(a)), 0);
    return s;
}

static void raw_send(int s, uint16_t kind, uint16_t flags, uint32_t len, const void *body,
                     size_t body_len) {
    const trn_local_hdr h = {len, kind, flags, 42};
    assert_int_equal(send(s, &h, sizeof(h), MSG_NOSIGNAL), (ssize_t)sizeof(h));
    if (body_len)
        assert_int_equal(send(s, body, body_len, MSG_NOSIGNAL), (ssize_t)body_len);
}

static void raw_send_msg(int s, trn_wire_method m, const ProtobufCMessage *msg) {
    uint8_t buf[512];
    const size_t n = protobuf_c_message_pack(msg, buf);
    raw_send(s, (uint16_t)m, 0, (uint32_t)n, buf, n);
}

/* Receives one reply; returns its code, the body in buf and a passed fd. */
static int raw_recv(int s, uint8_t *buf, size_t cap, size_t *len, int *fd) {
    trn_local_hdr h;
    char cbuf[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&h, sizeof(h)};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = cbuf;
    msg.msg_controllen = sizeof(cbuf);
    *fd = -1;
    const ssize_t n = recvmsg(s, &msg, MSG_WAITALL | MSG_CMSG_CLOEXEC);
    if (n != (ssize_t)sizeof(h))
        return -1;
    struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    if (cm && cm->cmsg_type == SCM_RIGHTS)
        memcpy(fd, CMSG_DATA(cm), sizeof(int));
    assert_true(h.len <= cap);
    if (h.len)
        assert_int_equal(recv(s, buf, h.len, MSG_WAITALL), (ssize_t)h.len);
    *len = h.len;
    return h.kind;
}

static uint64_t raw_open_session(int s) {
    Trnsci__V1__OpenSessionRequest req = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    req.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    raw_send_msg(s, TRN_WIRE_OPEN_SESSION, &req.base);
    uint8_t buf[256];
    size_t len;
    int fd;
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), TRN_WIRE_OK);
    Trnsci__V1__OpenSessionReply *r = trnsci__v1__open_session_reply__unpack(NULL, len, buf);
    assert_non_null(r);
    const uint64_t id = r->session_id;
    trnsci__v1__open_session_reply__free_unpacked(r, NULL);
    return id;
}

/* ---- tests ---------------------------------------------------------------------- */

static void test_zero_copy(void **state) {
    (void)state;
    enum { N = 64 };
    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    double *a, *c;
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(double) * N * N), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, sizeof(double) * N * N), trnsciSuccess);
    /* Inputs go straight into device memory: no trnsciMemcpy, no Write call. */
    for (int i = 0; i < N * N; i++)
        a[i] = (double)(i % 7) - 3;
    trnblasHandle_t h;
    const double one = 1, zero = 0;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, N, N, N, &one, a, N, a, N, &zero, c, N),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    /* ... and the result is read in place. A·Aᵀ of small integers is exact. */
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double ref = 0;
            for (int l = 0; l < N; l++)
                ref += a[i + l * N] * a[j + l * N];
            assert_true(c[i + j * N] == ref);
        }
    trnblasDestroy(h);
    trnsciFree(a);
    trnsciFree(c);
    trnsciDeviceReset();
}

/* Whether process pid maps a buffer of kb KiB (memfd "trnsci-buffer") with
 * the huge-page advice: 1 yes, 0 no, -1 no such mapping. */
static int buffer_mapping_advised(pid_t pid, long kb) {
    char path[64], line[512];
    snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int in_buffer = 0, found = -1;
    while (fgets(line, sizeof(line), f)) {
        /* A mapping's header line is "start-end perms offset dev inode path";
         * the others are "Key: value" (no "hex-hex" start). */
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2)
            in_buffer = strstr(line, "trnsci-buffer") && (long)((hi - lo) >> 10) == kb;
        if (in_buffer && strncmp(line, "VmFlags:", 8) == 0) {
            found = strstr(line, " hg") != NULL;
            in_buffer = 0;
            if (found)
                break;
        }
    }
    fclose(f);
    return found;
}

static void test_huge_page_advice(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    void *big, *small;
    assert_int_equal(trnsciMalloc(&big, 4 << 20), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&small, 1 << 20), trnsciSuccess);
    assert_int_equal(buffer_mapping_advised(daemon_under_test.pid, 4096), 1);
    assert_int_equal(buffer_mapping_advised(getpid(), 4096), 1);
    assert_int_equal(buffer_mapping_advised(daemon_under_test.pid, 1024), 0);
    assert_int_equal(buffer_mapping_advised(getpid(), 1024), 0);
    trnsciFree(big);
    trnsciFree(small);
    trnsciDeviceReset();
}

static void test_seals(void **state) {
    (void)state;
    const int s = raw_connect();
    const uint64_t sid = raw_open_session(s);
    Trnsci__V1__AllocRequest req = TRNSCI__V1__ALLOC_REQUEST__INIT;
    req.session_id = sid;
    req.bytes = 1 << 20;
    raw_send_msg(s, TRN_WIRE_ALLOC, &req.base);
    uint8_t buf[256];
    size_t len;
    int fd;
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), TRN_WIRE_OK);
    assert_true(fd >= 0);
    const int seals = fcntl(fd, F_GET_SEALS);
    assert_true(seals & F_SEAL_SHRINK);
    assert_true(seals & F_SEAL_GROW);
    assert_true(seals & F_SEAL_SEAL);
    assert_int_equal(ftruncate(fd, 4096), -1); /* shrinking would make the daemon fault */
    assert_int_equal(errno, EPERM);
    assert_int_equal(ftruncate(fd, 2 << 20), -1);
    assert_int_equal(errno, EPERM);
    assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), -1); /* seals are sealed */
    assert_int_equal(fallocate(fd, 0, 0, 4 << 20), -1);
    close(fd);
    close(s); /* the connection ends: so does the session */
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

static void test_garbage(void **state) {
    (void)state;
    /* A healthy client alongside. */
    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    void *keep;
    assert_int_equal(trnsciMalloc(&keep, 4096), trnsciSuccess);

    uint8_t buf[512];
    size_t len;
    int fd;
    /* Oversized length: the connection (and its session) ends. */
    int s = raw_connect();
    raw_open_session(s);
    raw_send(s, TRN_WIRE_HELLO, 0, TRNSCI_WIRE_MAX_MESSAGE_BYTES + 1, NULL, 0);
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), -1);
    close(s);
    /* Unknown flags: likewise. */
    s = raw_connect();
    raw_send(s, TRN_WIRE_HELLO, 0x80, 0, NULL, 0);
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), -1);
    close(s);
    /* A well-framed but undecodable body: INVALID_ARGUMENT, and the
     * connection goes on serving. */
    s = raw_connect();
    const uint8_t junk[] = {0xff, 0xff, 0xff, 0xff};
    raw_send(s, TRN_WIRE_SUBMIT, 0, sizeof(junk), junk, sizeof(junk));
    assert_int_equal(raw_recv(s, buf, sizeof(buf) - 1, &len, &fd), TRN_WIRE_INVALID_ARGUMENT);
    buf[len] = '\0';
    assert_non_null(strstr((char *)buf, "malformed Submit"));
    /* An unknown method number: UNIMPLEMENTED. */
    raw_send(s, 999, 0, 0, NULL, 0);
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), TRN_WIRE_UNIMPLEMENTED);
    Trnsci__V1__HelloRequest hello = TRNSCI__V1__HELLO_REQUEST__INIT;
    hello.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    raw_send_msg(s, TRN_WIRE_HELLO, &hello.base);
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), TRN_WIRE_OK);
    /* A second session on one connection is refused. */
    raw_open_session(s);
    Trnsci__V1__OpenSessionRequest open = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    open.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    raw_send_msg(s, TRN_WIRE_OPEN_SESSION, &open.base);
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, &fd), TRN_WIRE_ALREADY_EXISTS);
    close(s);

    /* The healthy client noticed nothing. */
    trnsciDaemonStatus st;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(trnsciDaemonGetStatus(daemon_under_test.unix_addr, &st), trnsciSuccess);
        if (st.sessions == 1)
            break;
        sleep_ms(20);
    }
    assert_int_equal(st.sessions, 1);
    assert_int_equal(trnsciMemset(keep, 7, 4096), trnsciSuccess);
    assert_int_equal(((unsigned char *)keep)[4095], 7);
    trnsciFree(keep);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

static uint64_t raw_alloc(int s, uint64_t sid, uint64_t bytes, int *fd) {
    Trnsci__V1__AllocRequest req = TRNSCI__V1__ALLOC_REQUEST__INIT;
    req.session_id = sid;
    req.bytes = bytes;
    raw_send_msg(s, TRN_WIRE_ALLOC, &req.base);
    uint8_t buf[256];
    size_t len;
    assert_int_equal(raw_recv(s, buf, sizeof(buf), &len, fd), TRN_WIRE_OK);
    Trnsci__V1__AllocReply *r = trnsci__v1__alloc_reply__unpack(NULL, len, buf);
    assert_non_null(r);
    const uint64_t id = r->buffer_id;
    trnsci__v1__alloc_reply__free_unpacked(r, NULL);
    return id;
}

/* A connection can name only its own session, and Status never lists
 * session ids (they are what lets a client use a session). */
static void test_session_scope(void **state) {
    (void)state;
    const int a = raw_connect(), b = raw_connect();
    const uint64_t sid = raw_open_session(a);
    int fd;
    raw_alloc(a, sid, 4096, &fd);
    close(fd);
    /* b names a's session: the same error as a session that does not exist. */
    Trnsci__V1__AllocRequest req = TRNSCI__V1__ALLOC_REQUEST__INIT;
    req.session_id = sid;
    req.bytes = 4096;
    raw_send_msg(b, TRN_WIRE_ALLOC, &req.base);
    uint8_t buf[4096];
    size_t len;
    assert_int_equal(raw_recv(b, buf, sizeof(buf), &len, &fd), TRN_WIRE_ABORTED);
    Trnsci__V1__StatusRequest st = TRNSCI__V1__STATUS_REQUEST__INIT;
    raw_send_msg(b, TRN_WIRE_STATUS, &st.base);
    assert_int_equal(raw_recv(b, buf, sizeof(buf), &len, &fd), TRN_WIRE_OK);
    Trnsci__V1__StatusReply *r = trnsci__v1__status_reply__unpack(NULL, len, buf);
    assert_non_null(r);
    assert_int_equal(r->n_session_info, 1);
    assert_true(r->session_info[0]->number != sid);
    assert_true(memmem(buf, len, &sid, sizeof(sid)) == NULL); /* not anywhere in the reply */
    trnsci__v1__status_reply__free_unpacked(r, NULL);
    close(a);
    close(b);
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

/* A client that pipelines large replies without reading them: the daemon
 * stops taking its requests past a bound instead of queueing without limit,
 * and everything arrives once the client reads (1 MiB replies are larger
 * than the socket buffer: the reply path must wait for it to drain). */
static void test_reply_backpressure(void **state) {
    (void)state;
    enum { READS = 200, CHUNK = 1 << 20 };
    const int s = raw_connect();
    const uint64_t sid = raw_open_session(s);
    int fd;
    const uint64_t buf_id = raw_alloc(s, sid, CHUNK, &fd);
    uint8_t *map = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    assert_true(map != MAP_FAILED);
    close(fd);
    for (size_t i = 0; i < CHUNK; i++)
        map[i] = (uint8_t)(i * 7 + 3);
    const long rss0 = th_status_kb(daemon_under_test.pid, "VmRSS:");
    Trnsci__V1__BufferRef ref = TRNSCI__V1__BUFFER_REF__INIT;
    ref.buffer_id = buf_id;
    Trnsci__V1__ReadRequest rd = TRNSCI__V1__READ_REQUEST__INIT;
    rd.session_id = sid;
    rd.src = &ref;
    rd.length = CHUNK;
    /* All requests in one send: a unix socket charges each send's buffer
     * overhead to the sender, and this client deliberately reads nothing. */
    const size_t one = protobuf_c_message_get_packed_size(&rd.base);
    const size_t frame = sizeof(trn_local_hdr) + one;
    uint8_t *reqs = malloc(frame * READS);
    assert_non_null(reqs);
    for (int i = 0; i < READS; i++) {
        const trn_local_hdr h = {(uint32_t)one, TRN_WIRE_READ, 0, 42};
        memcpy(reqs + (size_t)i * frame, &h, sizeof(h));
        protobuf_c_message_pack(&rd.base, reqs + (size_t)i * frame + sizeof(h));
    }
    assert_int_equal(send(s, reqs, frame * READS, MSG_NOSIGNAL), (ssize_t)(frame * READS));
    free(reqs);
    sleep_ms(300);
    const long rss1 = th_status_kb(daemon_under_test.pid, "VmRSS:");
    fprintf(stderr, "daemon RSS with %d MiB of replies requested and unread: %ld -> %ld kB\n",
            READS, rss0, rss1);
    assert_true(rss1 - rss0 < 64 * 1024); /* bounded: far below the 200 MiB asked for */
    uint8_t *body = malloc(CHUNK + 64);
    assert_non_null(body);
    for (int i = 0; i < READS; i++) {
        size_t len = 0;
        assert_int_equal(raw_recv(s, body, CHUNK + 64, &len, &fd), TRN_WIRE_OK);
        Trnsci__V1__ReadReply *r = trnsci__v1__read_reply__unpack(NULL, len, body);
        assert_non_null(r);
        assert_int_equal(r->data.len, CHUNK);
        assert_memory_equal(r->data.data, map, CHUNK);
        trnsci__v1__read_reply__free_unpacked(r, NULL);
    }
    free(body);
    munmap(map, CHUNK);
    close(s);
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

/* A client that writes garbage into its submission ring loses its connection
 * and session; nobody else notices. */
static void test_ring_garbage(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    void *keep;
    assert_int_equal(trnsciMalloc(&keep, 4096), trnsciSuccess);

    for (int variant = 0; variant < 2; variant++) {
        const int s = raw_connect();
        raw_open_session(s);
        raw_send(s, TRN_LOCAL_RING_SETUP, 0, 0, NULL, 0);
        /* The reply carries three descriptors: region, submission bell,
         * completion bell. */
        trn_local_hdr h;
        char cbuf[CMSG_SPACE(3 * sizeof(int))];
        struct iovec iov = {&h, sizeof(h)};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = cbuf;
        msg.msg_controllen = sizeof(cbuf);
        assert_int_equal(recvmsg(s, &msg, MSG_WAITALL), (ssize_t)sizeof(h));
        assert_int_equal(h.kind, TRN_WIRE_OK);
        assert_int_equal(h.flags, TRN_LOCAL_FLAG_FD3);
        struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
        assert_non_null(cm);
        int fds[3];
        memcpy(fds, CMSG_DATA(cm), sizeof(fds));
        trn_ring_shared *rs =
            mmap(NULL, TRN_RING_REGION_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
        assert_true(rs != MAP_FAILED);
        assert_int_equal(rs->magic, TRN_RING_MAGIC);
        uint8_t *sq = (uint8_t *)rs + sizeof(*rs);
        uint64_t tail;
        if (variant == 0) {
            /* An entry whose length runs past everything published. */
            const trn_local_hdr bad = {1u << 30, TRN_WIRE_HELLO, 0, 7};
            memcpy(sq, &bad, sizeof(bad));
            tail = sizeof(bad);
        } else {
            /* A well-framed entry whose body does not decode. */
            const trn_local_hdr bad = {4, TRN_WIRE_SUBMIT, 0, 7};
            memcpy(sq, &bad, sizeof(bad));
            memset(sq + sizeof(bad), 0xff, 4);
            tail = sizeof(bad) + 8;
        }
        __atomic_store_n(&rs->sq_tail, tail, __ATOMIC_RELEASE);
        const uint64_t one = 1;
        assert_int_equal(write(fds[1], &one, sizeof(one)), (ssize_t)sizeof(one));
        /* The connection is closed on us (an error reply may come first). */
        uint8_t buf[512];
        size_t len;
        int fd, rc;
        while ((rc = raw_recv(s, buf, sizeof(buf), &len, &fd)) >= 0)
            assert_int_equal(rc, TRN_WIRE_INVALID_ARGUMENT);
        munmap(rs, TRN_RING_REGION_BYTES);
        for (int i = 0; i < 3; i++)
            close(fds[i]);
        close(s);
    }

    /* The healthy client goes on. */
    assert_int_equal(trnsciMemset(keep, 9, 4096), trnsciSuccess);
    assert_int_equal(((unsigned char *)keep)[100], 9);
    trnsciFree(keep);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

/* Per-uid limits, on a daemon of their own: every client here is this uid. */
static void test_uid_limits(void **state) {
    (void)state;
    th_daemon d;
    const char *const args[] = {"--max-sessions-per-uid", "2", "--max-bytes-per-uid", "1M", NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    th_daemon saved = daemon_under_test;
    daemon_under_test = d; /* raw_connect uses it */
    uint8_t buf[512];
    size_t len;
    int fd;
    const int s1 = raw_connect(), s2 = raw_connect(), s3 = raw_connect();
    const uint64_t id1 = raw_open_session(s1), id2 = raw_open_session(s2);
    Trnsci__V1__OpenSessionRequest open = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    open.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    raw_send_msg(s3, TRN_WIRE_OPEN_SESSION, &open.base);
    assert_int_equal(raw_recv(s3, buf, sizeof(buf) - 1, &len, &fd), TRN_WIRE_RESOURCE_EXHAUSTED);
    buf[len] = '\0';
    assert_non_null(strstr((char *)buf, "max-sessions-per-uid 2"));

    /* 600 KiB in each of two sessions is over 1 MiB for the uid. */
    Trnsci__V1__AllocRequest alloc = TRNSCI__V1__ALLOC_REQUEST__INIT;
    alloc.bytes = 600 << 10;
    alloc.session_id = id1;
    raw_send_msg(s1, TRN_WIRE_ALLOC, &alloc.base);
    assert_int_equal(raw_recv(s1, buf, sizeof(buf), &len, &fd), TRN_WIRE_OK);
    close(fd);
    alloc.session_id = id2;
    raw_send_msg(s2, TRN_WIRE_ALLOC, &alloc.base);
    assert_int_equal(raw_recv(s2, buf, sizeof(buf) - 1, &len, &fd), TRN_WIRE_RESOURCE_EXHAUSTED);
    buf[len] = '\0';
    assert_non_null(strstr((char *)buf, "max-bytes-per-uid"));

    /* The first session ends: its session slot and bytes come back. */
    close(s1);
    int ok = 0;
    for (int i = 0; i < 100 && !ok; i++) {
        sleep_ms(20);
        raw_send_msg(s2, TRN_WIRE_ALLOC, &alloc.base);
        ok = raw_recv(s2, buf, sizeof(buf), &len, &fd) == TRN_WIRE_OK;
        if (fd >= 0)
            close(fd);
    }
    assert_true(ok);
    raw_open_session(s3);
    /* Through the library, the session limit is trnsciErrorBusy. */
    assert_int_equal(trnsciInit(d.unix_addr), trnsciErrorBusy);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "max-sessions-per-uid"));
    close(s2);
    close(s3);
    daemon_under_test = saved;
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* Backpressure on queued work for a client whose Submits wait for their
 * replies (TRNSCI_LAUNCH_BLOCKING=1): past --max-queued-ops a Submit is
 * refused with trnsciErrorBusy (TRNBLAS_STATUS_ALLOC_FAILED through trnblas),
 * naming the limit, and accepted again once work completes. (Asynchronous
 * launches block instead: test_launch.c.) gRPC, where the daemon takes
 * every request: a local client's requests wait while its queue is full. */
static void test_queue_limit(void **state) {
    (void)state;
    enum { N = 800 }; /* ~1 GFLOP per DGEMM: the queue cannot drain meanwhile */
    th_daemon d;
    const char *const args[] = {"--max-queued-ops", "3", "--cores", "1", NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    setenv("TRNSCI_LAUNCH_BLOCKING", "1", 1);
    assert_int_equal(trnsciInit(d.tcp_addr), trnsciSuccess);
    unsetenv("TRNSCI_LAUNCH_BLOCKING");
    double *a, *c;
    const double one = 1, zero = 0;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(double) * N * N), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, sizeof(double) * N * N), trnsciSuccess);
    for (int i = 0; i < 3; i++)
        assert_int_equal(
            trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N),
            TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N),
        TRNBLAS_STATUS_ALLOC_FAILED);
    assert_int_equal(trnsciPeekAtLastError(), trnsciErrorBusy);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "max-queued-ops 3"));
    /* Recovery: once the queue drains, submissions are accepted again. */
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnblasDestroy(h);
    trnsciFree(a);
    trnsciFree(c);
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* ---- many clients killed mid-op ---------------------------------------------------- */

static atomic_int checker_stop;
static atomic_int checker_rounds;

/* Keeps checking exact GEMM results on this process's session. */
static void *checker(void *arg) {
    (void)arg;
    enum { N = 32 };
    trnsciStream_t s;
    trnblasHandle_t h;
    double *a, *c;
    const double one = 1, zero = 0;
    if (trnsciStreamCreate(&s) || trnblasCreate(&h) || trnblasSetStream(h, s) ||
        trnsciMalloc((void **)&a, sizeof(double) * N * N) ||
        trnsciMalloc((void **)&c, sizeof(double) * N * N))
        return (void *)1;
    intptr_t bad = 0;
    for (int r = 0; !atomic_load(&checker_stop) && !bad; r++) {
        for (int i = 0; i < N * N; i++)
            a[i] = (double)((i + r) % 5) - 2;
        bad = trnblasDgemm(h, TRNBLAS_OP_T, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N) ||
              trnsciStreamSynchronize(s);
        for (int j = 0; j < N && !bad; j++)
            for (int i = 0; i < N && !bad; i++) {
                double ref = 0;
                for (int l = 0; l < N; l++)
                    ref += a[l + i * N] * a[l + j * N];
                bad = c[i + j * N] != ref;
            }
        atomic_fetch_add(&checker_rounds, 1);
    }
    trnsciFree(a);
    trnsciFree(c);
    trnblasDestroy(h);
    trnsciStreamDestroy(s);
    return (void *)bad;
}

/* The victim: maps buffers, queues DGEMMs on two streams, signals, waits. */
static int victim(const char *addr, int ready_fd) {
    enum { N = 384 };
    trnblasHandle_t h;
    trnsciStream_t s;
    double *a, *c;
    const double one = 1, zero = 0;
    if (trnsciInit(addr) || trnblasCreate(&h) || trnsciStreamCreate(&s) ||
        trnsciMalloc((void **)&a, sizeof(double) * N * N) ||
        trnsciMalloc((void **)&c, sizeof(double) * N * N))
        return 20;
    for (int i = 0; i < N * N; i++)
        a[i] = 1.0;
    for (int r = 0; r < 6; r++) {
        trnblasSetStream(h, (r & 1) ? s : NULL);
        if (trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N))
            return 21;
    }
    const char ok = 1;
    if (write(ready_fd, &ok, 1) != 1)
        return 22;
    for (;;)
        pause();
}

static void test_kill_clients_mid_op(void **state) {
    (void)state;
    enum { ITERATIONS = 200 };
    const pid_t dpid = daemon_under_test.pid;
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
    const long fds0 = th_count_fds(dpid), shmem0 = th_status_kb(dpid, "RssShmem:");
    assert_true(fds0 > 0);

    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    pthread_t t;
    atomic_store(&checker_stop, 0);
    assert_int_equal(pthread_create(&t, NULL, checker, NULL), 0);
    for (int i = 0; i < ITERATIONS; i++) {
        const pid_t pid = th_spawn_ready("victim", daemon_under_test.unix_addr);
        assert_true(pid > 0);
        assert_int_equal(th_kill_child(pid), 0);
    }
    atomic_store(&checker_stop, 1);
    void *bad;
    assert_int_equal(pthread_join(t, &bad), 0);
    assert_null(bad);
    assert_true(atomic_load(&checker_rounds) > 0);
    trnsciDeviceReset();

    /* Every victim's session, buffers, mappings and descriptors are gone. */
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 15000), 0);
    long fds1 = -1, shmem1 = -1;
    for (int i = 0; i < 100; i++) {
        fds1 = th_count_fds(dpid);
        shmem1 = th_status_kb(dpid, "RssShmem:");
        if (fds1 <= fds0 && shmem1 <= shmem0)
            break;
        sleep_ms(50);
    }
    fprintf(stderr,
            "daemon after %d killed clients: fds %ld -> %ld, RssShmem %ld -> %ld kB, "
            "checker rounds %d\n",
            ITERATIONS, fds0, fds1, shmem0, shmem1, atomic_load(&checker_rounds));
    assert_true(fds1 <= fds0);
    assert_true(shmem1 <= shmem0);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether every thread of pid is stopped (state T in each /proc/PID/task/TID/stat):
 * kill(SIGSTOP) returns before the threads have stopped. */
static int all_threads_stopped(pid_t pid) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    int stopped = 1;
    const struct dirent *e;
    while (stopped && (e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char stat_path[384], buf[512];
        snprintf(stat_path, sizeof(stat_path), "%s/%s/stat", path, e->d_name);
        FILE *f = fopen(stat_path, "r");
        const size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
        if (f)
            fclose(f);
        buf[n] = '\0';
        const char *close_paren = strrchr(buf, ')'); /* the state follows the command name */
        stopped = close_paren && close_paren[1] == ' ' && close_paren[2] == 'T';
    }
    closedir(dir);
    return stopped;
}

/* A hung daemon (stopped with SIGSTOP) no longer hangs its clients' calls. */
static void test_call_timeout(void **state) {
    (void)state;
    th_daemon d;
    assert_int_equal(th_daemon_start(&d, NULL), 0);
    setenv("TRNSCI_CALL_TIMEOUT", "600", 1);
    assert_int_equal(trnsciInit(d.unix_addr), trnsciSuccess);
    void *a = NULL, *b = NULL;
    assert_int_equal(trnsciMalloc(&a, 4096), trnsciSuccess);
    assert_int_equal(kill(d.pid, SIGSTOP), 0);
    for (int waited_ms = 0; !all_threads_stopped(d.pid); waited_ms++) {
        assert_true(waited_ms < 5000);
        th_sleep_ms(1);
    }
    const double t0 = now_s();
    assert_int_equal(trnsciMalloc(&b, 4096), trnsciErrorTimeout);
    const double waited = now_s() - t0;
    print_message("call to a stopped daemon: trnsciErrorTimeout after %.2f s: %s\n", waited,
                  trnsciGetLastErrorMessage());
    assert_true(waited >= 0.55 && waited < 10.0);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "no reply from the daemon within 600 ms"));
    assert_null(b);
    assert_int_equal(kill(d.pid, SIGCONT), 0);
    assert_int_equal(trnsciMalloc(&b, 4096), trnsciSuccess); /* the session goes on */
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
    unsetenv("TRNSCI_CALL_TIMEOUT");
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop(&d), 0);
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "victim") == 0)
        return victim(argv[3], atoi(argv[4]));
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_copy),          cmocka_unit_test(test_seals),
        cmocka_unit_test(test_huge_page_advice),   cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_uid_limits),         cmocka_unit_test(test_session_scope),
        cmocka_unit_test(test_reply_backpressure), cmocka_unit_test(test_ring_garbage),
        cmocka_unit_test(test_queue_limit),        cmocka_unit_test(test_kill_clients_mid_op),
        cmocka_unit_test(test_call_timeout),
    };
    if (getenv("TRNSCI_TEST_FILTER")) /* e.g. test_ring* */
        cmocka_set_test_filter(getenv("TRNSCI_TEST_FILTER"));
    int failed = cmocka_run_group_tests_name("local transport", tests, NULL, NULL);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
