/*
 * test_graph.c — stream capture and graphs against a real daemon, over the
 * local transport and over gRPC.
 *
 *  - capture and replay: a sequence of memsets, device copies, SGEMMs and
 *    DGEMMs captured on a stream is recorded, not run (the buffers stay as
 *    they were), becomes a graph of as many nodes (of the right types), and
 *    each launch of its executable graph gives bitwise the results of the
 *    same calls made eagerly on twin buffers;
 *  - fork and join: work forked to a second stream by an event recorded in
 *    the capture and joined back becomes a diamond (two branches, one join)
 *    and runs to the eager result; a stream left unjoined fails EndCapture
 *    with trnsciErrorStreamCaptureUnjoined;
 *  - illegal calls during capture fail as CUDA's: synchronizing the
 *    capturing stream, a copy to the host, an allocation in global mode (but
 *    not in relaxed mode), querying an event recorded in the capture, ending
 *    a capture that was not begun there, beginning one twice; an
 *    invalidated capture ends with trnsciErrorStreamCaptureInvalidated;
 *  - ExecUpdate: same structure with new operands and alpha runs on the new
 *    operands without instantiating again; a changed shape, node type or
 *    topology is refused with the CUDA result code and the exec unchanged;
 *  - graphs built node by node: memset, memcpy, empty, child graph, event
 *    record and wait nodes and added dependencies; the DOT print names each
 *    node's routine and shapes; GetNodes/GetRootNodes/NodeGetType;
 *  - the graph cache: a second instantiation of the same structure is a hit
 *    (trnsciDaemonGetGraphs); with --cache-dir the daemon lists it again
 *    after a restart, and instantiating it then is a hit;
 *  - an error inside a launched graph (an SpMV whose column index is out of
 *    range: only the kernel can see it) is reported by the next synchronize
 *    of the launching stream, naming the node, the graph and the launch; the
 *    node after it on the same stream did not run; the session goes on;
 *  - a graph's daemon memory counts against the session's quota;
 *  - a client killed while a large graph is launched leaves nothing behind
 *    (no session, buffer or op in the daemon).
 *
 * Exactness: the GEMMs multiply small integers, so every product and sum is
 * exact in float and double and any difference is a bug, not rounding.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsparse.h"

static th_daemon daemon_under_test;

typedef struct transport {
    const char *name;
    int grpc;
} transport;

static transport local = {"local", 0}, grpc = {"grpc", 1};

static void connect_to(void **state) {
    const transport *t = *state;
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(t->grpc ? daemon_under_test.tcp_addr : daemon_under_test.unix_addr),
                     trnsciSuccess);
}

#define N 24

/* Device buffers of one run: float and double matrices. */
typedef struct operands {
    float *a, *b, *c, *d;
    double *x, *y, *z;
} operands;

static void fill(float *hf, double *hd, int seed) {
    for (int i = 0; i < N * N; i++) {
        hf[i] = (float)((i * 7 + seed) % 5 - 2);
        hd[i] = (double)((i * 3 + seed) % 7 - 3);
    }
}

static void operands_make(operands *o, int seed) {
    float hf[N * N];
    double hd[N * N];
    fill(hf, hd, seed);
    const size_t fb = sizeof(hf), db = sizeof(hd);
    assert_int_equal(trnsciMalloc((void **)&o->a, fb), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->b, fb), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->c, fb), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->d, fb), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->x, db), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->y, db), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->z, db), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(o->a, hf, fb, trnsciMemcpyHostToDevice), trnsciSuccess);
    fill(hf, hd, seed + 1);
    assert_int_equal(trnsciMemcpy(o->b, hf, fb, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(o->x, hd, db, trnsciMemcpyHostToDevice), trnsciSuccess);
    fill(hf, hd, seed + 2);
    assert_int_equal(trnsciMemcpy(o->y, hd, db, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemset(o->c, 0x7f, fb), trnsciSuccess);
    assert_int_equal(trnsciMemset(o->d, 0x7f, fb), trnsciSuccess);
    assert_int_equal(trnsciMemset(o->z, 0x7f, db), trnsciSuccess);
}

static void operands_free(operands *o) {
    trnsciFree(o->a);
    trnsciFree(o->b);
    trnsciFree(o->c);
    trnsciFree(o->d);
    trnsciFree(o->x);
    trnsciFree(o->y);
    trnsciFree(o->z);
}

/* The sequence captured: 6 calls on stream s. */
static void sequence(trnblasHandle_t h, trnsciStream_t s, const operands *o, float alpha) {
    const float one = 1, zero = 0;
    const double two = 2, dzero = 0;
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemsetAsync(o->c, 0, sizeof(float) * N * N, s), trnsciSuccess);
    assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &alpha, o->a, N, o->b, N,
                                  &zero, o->c, N),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnsciMemcpyAsync(o->d, o->c, sizeof(float) * N * N, trnsciMemcpyDeviceToDevice, s),
        trnsciSuccess);
    assert_int_equal(
        trnblasSgemm(h, TRNBLAS_OP_T, TRNBLAS_OP_N, N, N, N, &one, o->d, N, o->a, N, &one, o->c, N),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, N, N, N, &two, o->x, N, o->y, N,
                                  &dzero, o->z, N),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &two, o->z, N, o->x, N,
                                  &dzero, o->y, N),
                     TRNBLAS_STATUS_SUCCESS);
}

static void read_back(const operands *o, float *c, double *y) {
    assert_int_equal(trnsciMemcpy(c, o->c, sizeof(float) * N * N, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(y, o->y, sizeof(double) * N * N, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
}

static void test_capture_replay(void **state) {
    connect_to(state);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    operands eager, graphed;
    operands_make(&eager, 1);
    operands_make(&graphed, 1);
    float c_before[N * N], c_eager[N * N], c_graph[N * N];
    double y_before[N * N], y_eager[N * N], y_graph[N * N];
    read_back(&graphed, c_before, y_before);

    trnsciStreamCaptureStatus cs;
    assert_int_equal(trnsciStreamIsCapturing(s, &cs), trnsciSuccess);
    assert_int_equal(cs, trnsciStreamCaptureStatusNone);
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciStreamIsCapturing(s, &cs), trnsciSuccess);
    assert_int_equal(cs, trnsciStreamCaptureStatusActive);
    sequence(h, s, &graphed, 3.0f);
    unsigned long long id = 0;
    trnsciGraph_t during = NULL;
    const trnsciGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    assert_int_equal(trnsciStreamGetCaptureInfo(s, &cs, &id, &during, &deps, &ndeps),
                     trnsciSuccess);
    assert_true(id > 0);
    assert_non_null(during);
    assert_int_equal(ndeps, 1);
    trnsciGraph_t g = NULL;
    assert_int_equal(trnsciStreamEndCapture(s, &g), trnsciSuccess);
    assert_ptr_equal(g, during);
    assert_int_equal(trnsciStreamIsCapturing(s, &cs), trnsciSuccess);
    assert_int_equal(cs, trnsciStreamCaptureStatusNone);

    /* Recorded, not run. */
    float c_now[N * N];
    double y_now[N * N];
    read_back(&graphed, c_now, y_now);
    assert_memory_equal(c_now, c_before, sizeof(c_now));
    assert_memory_equal(y_now, y_before, sizeof(y_now));

    size_t n = 0;
    assert_int_equal(trnsciGraphGetNodes(g, NULL, &n), trnsciSuccess);
    assert_int_equal(n, 6);
    trnsciGraphNode_t nodes[6];
    assert_int_equal(trnsciGraphGetNodes(g, nodes, &n), trnsciSuccess);
    const trnsciGraphNodeType want[6] = {trnsciGraphNodeTypeMemset, trnsciGraphNodeTypeKernel,
                                         trnsciGraphNodeTypeMemcpy, trnsciGraphNodeTypeKernel,
                                         trnsciGraphNodeTypeKernel, trnsciGraphNodeTypeKernel};
    for (int i = 0; i < 6; i++) {
        trnsciGraphNodeType ty;
        assert_int_equal(trnsciGraphNodeGetType(nodes[i], &ty), trnsciSuccess);
        assert_int_equal(ty, want[i]);
    }

    trnsciGraphExec_t x;
    assert_int_equal(trnsciGraphInstantiate(&x, g, 0), trnsciSuccess);
    for (int round = 0; round < 3; round++) {
        sequence(h, NULL, &eager, 3.0f);
        read_back(&eager, c_eager, y_eager);
        assert_int_equal(trnsciGraphLaunch(x, s), trnsciSuccess);
        assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
        read_back(&graphed, c_graph, y_graph);
        assert_memory_equal(c_graph, c_eager, sizeof(c_graph));
        assert_memory_equal(y_graph, y_eager, sizeof(y_graph));
    }
    assert_int_equal(trnsciGraphExecDestroy(x), trnsciSuccess);
    assert_int_equal(trnsciGraphDestroy(g), trnsciSuccess);
    operands_free(&eager);
    operands_free(&graphed);
    trnsciStreamDestroy(s);
    trnblasDestroy(h);
}

/* s1: C = A B; fork: s2: D = B A; join: s1: C = C + D^T ... as a diamond. */
static void diamond(trnblasHandle_t h, trnsciStream_t s1, trnsciStream_t s2, trnsciEvent_t fork,
                    trnsciEvent_t join, const operands *o) {
    const float one = 1, zero = 0;
    assert_int_equal(trnsciMemsetAsync(o->c, 0, sizeof(float) * N * N, s1), trnsciSuccess);
    assert_int_equal(trnsciEventRecord(fork, s1), trnsciSuccess);
    assert_int_equal(trnsciStreamWaitEvent(s2, fork, 0), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, s1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, o->a, N, o->b, N,
                                  &zero, o->c, N),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetStream(h, s2), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, o->b, N, o->a, N,
                                  &zero, o->d, N),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciEventRecord(join, s2), trnsciSuccess);
    assert_int_equal(trnsciStreamWaitEvent(s1, join, 0), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, s1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasSgemm(h, TRNBLAS_OP_T, TRNBLAS_OP_N, N, N, N, &one, o->d, N, o->a, N, &one, o->c, N),
        TRNBLAS_STATUS_SUCCESS);
}

static void test_fork_join(void **state) {
    connect_to(state);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t s1, s2;
    trnsciEvent_t fork, join;
    assert_int_equal(trnsciStreamCreate(&s1), trnsciSuccess);
    assert_int_equal(trnsciStreamCreate(&s2), trnsciSuccess);
    assert_int_equal(trnsciEventCreate(&fork), trnsciSuccess);
    assert_int_equal(trnsciEventCreate(&join), trnsciSuccess);
    operands eager, graphed;
    operands_make(&eager, 5);
    operands_make(&graphed, 5);

    assert_int_equal(trnsciStreamBeginCapture(s1, trnsciStreamCaptureModeThreadLocal),
                     trnsciSuccess);
    diamond(h, s1, s2, fork, join, &graphed);
    /* An event recorded in a capture that is still going on cannot be
     * queried. */
    assert_int_equal(trnsciEventQuery(fork), trnsciErrorCapturedEvent);
    trnsciGraph_t g;
    assert_int_equal(trnsciStreamEndCapture(s1, &g), trnsciSuccess);
    trnsciStreamCaptureStatus cs;
    assert_int_equal(trnsciStreamIsCapturing(s2, &cs), trnsciSuccess);
    assert_int_equal(cs, trnsciStreamCaptureStatusNone);
    /* memset -> {gemm on s1, gemm on s2} -> gemm: 4 nodes, 1 root, the
     * last with two dependencies. */
    size_t n = 0, roots = 0;
    assert_int_equal(trnsciGraphGetNodes(g, NULL, &n), trnsciSuccess);
    assert_int_equal(n, 4);
    assert_int_equal(trnsciGraphGetRootNodes(g, NULL, &roots), trnsciSuccess);
    assert_int_equal(roots, 1);
    trnsciGraphNode_t nodes[4];
    assert_int_equal(trnsciGraphGetNodes(g, nodes, &n), trnsciSuccess);
    size_t nd = 0;
    assert_int_equal(trnsciGraphNodeGetDependencies(nodes[3], NULL, &nd), trnsciSuccess);
    assert_int_equal(nd, 2);

    trnsciGraphExec_t x;
    assert_int_equal(trnsciGraphInstantiate(&x, g, 0), trnsciSuccess);
    assert_int_equal(trnsciGraphLaunch(x, s1), trnsciSuccess);
    assert_int_equal(trnsciGraphLaunch(x, s1), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s1), trnsciSuccess);
    diamond(h, s1, s2, fork, join, &eager);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    float ce[N * N], cg[N * N];
    double ye[N * N], yg[N * N];
    read_back(&eager, ce, ye);
    read_back(&graphed, cg, yg);
    assert_memory_equal(cg, ce, sizeof(cg));

    /* A fork that does not join back. */
    assert_int_equal(trnsciStreamBeginCapture(s1, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciEventRecord(fork, s1), trnsciSuccess);
    assert_int_equal(trnsciStreamWaitEvent(s2, fork, 0), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(graphed.d, 0, 16, s2), trnsciSuccess);
    trnsciGraph_t bad = (trnsciGraph_t)1;
    assert_int_equal(trnsciStreamEndCapture(s1, &bad), trnsciErrorStreamCaptureUnjoined);
    assert_null(bad);
    assert_int_equal(trnsciStreamIsCapturing(s2, &cs), trnsciSuccess);
    assert_int_equal(cs, trnsciStreamCaptureStatusNone);

    assert_int_equal(trnsciGraphExecDestroy(x), trnsciSuccess);
    assert_int_equal(trnsciGraphDestroy(g), trnsciSuccess);
    operands_free(&eager);
    operands_free(&graphed);
    trnsciEventDestroy(fork);
    trnsciEventDestroy(join);
    trnsciStreamDestroy(s1);
    trnsciStreamDestroy(s2);
    trnblasDestroy(h);
}

static void expect_invalidated(trnsciStream_t s) {
    trnsciStreamCaptureStatus cs;
    assert_int_equal(trnsciStreamIsCapturing(s, &cs), trnsciSuccess);
    assert_int_equal(cs, trnsciStreamCaptureStatusInvalidated);
    trnsciGraph_t g = (trnsciGraph_t)1;
    assert_int_equal(trnsciStreamEndCapture(s, &g), trnsciErrorStreamCaptureInvalidated);
    assert_null(g);
}

static void test_illegal_during_capture(void **state) {
    connect_to(state);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    float *dev;
    float host[4] = {0};
    assert_int_equal(trnsciMalloc((void **)&dev, sizeof(host)), trnsciSuccess);

    trnsciGraph_t g = NULL;
    assert_int_equal(trnsciStreamEndCapture(s, &g), trnsciErrorStreamCaptureUnmatched);

    /* Synchronizing the capturing stream. */
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal),
                     trnsciErrorIllegalState);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciErrorStreamCaptureUnsupported);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "being captured"));
    /* Later calls on it say the capture is invalidated. */
    assert_int_equal(trnsciMemsetAsync(dev, 0, sizeof(host), s),
                     trnsciErrorStreamCaptureInvalidated);
    expect_invalidated(s);

    /* A copy to the host. */
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(host, dev, sizeof(host), trnsciMemcpyDeviceToHost, s),
                     trnsciErrorStreamCaptureUnsupported);
    expect_invalidated(s);

    /* An implicitly synchronising call: refused in global mode ... */
    void *p = NULL;
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&p, 64), trnsciErrorStreamCaptureUnsupported);
    assert_null(p);
    expect_invalidated(s);
    /* ... allowed when this thread's mode is relaxed, or the capture's. */
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    trnsciStreamCaptureMode mode = trnsciStreamCaptureModeRelaxed;
    assert_int_equal(trnsciThreadExchangeStreamCaptureMode(&mode), trnsciSuccess);
    assert_int_equal(mode, trnsciStreamCaptureModeGlobal);
    assert_int_equal(trnsciMalloc(&p, 64), trnsciSuccess);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciThreadExchangeStreamCaptureMode(&mode), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(dev, 0, sizeof(host), s), trnsciSuccess);
    assert_int_equal(trnsciStreamEndCapture(s, &g), trnsciSuccess);
    assert_int_equal(trnsciGraphDestroy(g), trnsciSuccess);
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeRelaxed), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&p, 64), trnsciSuccess);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciStreamEndCapture(s, &g), trnsciSuccess);
    assert_int_equal(trnsciGraphDestroy(g), trnsciSuccess);

    /* A stream that is not capturing is unaffected afterwards. */
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    trnsciFree(dev);
    trnsciStreamDestroy(s);
}

static void gemm_graph(trnsciGraph_t *g, trnblasHandle_t h, trnsciStream_t s, int m,
                       const float *alpha, const float *a, const float *b, float *c) {
    const float zero = 0;
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(
        trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, N, N, alpha, a, N, b, N, &zero, c, N),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamEndCapture(s, g), trnsciSuccess);
}

static void test_exec_update(void **state) {
    connect_to(state);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    operands o1, o2;
    operands_make(&o1, 2);
    operands_make(&o2, 9);
    const float alpha1 = 1, alpha2 = -2;
    trnsciGraph_t g1, g2, g3, g4;
    gemm_graph(&g1, h, s, N, &alpha1, o1.a, o1.b, o1.c);
    gemm_graph(&g2, h, s, N, &alpha2, o2.a, o2.b, o2.c);
    gemm_graph(&g3, h, s, N - 1, &alpha2, o2.a, o2.b, o2.c); /* another shape */
    assert_int_equal(trnsciGraphCreate(&g4, 0), trnsciSuccess);
    trnsciGraphNode_t e1, e2;
    assert_int_equal(trnsciGraphAddEmptyNode(&e1, g4, NULL, 0), trnsciSuccess);
    assert_int_equal(trnsciGraphAddEmptyNode(&e2, g4, &e1, 1), trnsciSuccess);

    trnsciGraphExec_t x;
    assert_int_equal(trnsciGraphInstantiate(&x, g1, 0), trnsciSuccess);
    trnsciGraphExecUpdateResultInfo info;
    assert_int_equal(trnsciGraphExecUpdate(x, g2, &info), trnsciSuccess);
    assert_int_equal(info.result, trnsciGraphExecUpdateSuccess);
    assert_int_equal(trnsciGraphLaunch(x, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    /* o2.c = -2 o2.a o2.b, computed eagerly into o2.d for comparison. */
    const float zero = 0;
    assert_int_equal(trnblasSetStream(h, NULL), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &alpha2, o2.a, N, o2.b, N,
                                  &zero, o2.d, N),
                     TRNBLAS_STATUS_SUCCESS);
    float c[N * N], d[N * N], before[N * N];
    assert_int_equal(trnsciMemcpy(c, o2.c, sizeof(c), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, o2.d, sizeof(d), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(c, d, sizeof(c));

    /* Refused updates leave the exec as it was (still on o2). */
    assert_int_equal(trnsciGraphExecUpdate(x, g3, &info), trnsciErrorGraphExecUpdateFailure);
    assert_int_equal(info.result, trnsciGraphExecUpdateErrorParametersChanged);
    assert_non_null(info.errorNode);
    assert_int_equal(trnsciGraphExecUpdate(x, g4, &info), trnsciErrorGraphExecUpdateFailure);
    assert_int_equal(info.result, trnsciGraphExecUpdateErrorTopologyChanged);
    assert_int_equal(trnsciMemset(o2.c, 0, sizeof(c)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(before, o1.c, sizeof(c), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_int_equal(trnsciGraphLaunch(x, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(c, o2.c, sizeof(c), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(c, d, sizeof(c));
    assert_int_equal(trnsciMemcpy(c, o1.c, sizeof(c), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(c, before, sizeof(c));

    assert_int_equal(trnsciGraphExecDestroy(x), trnsciSuccess);
    trnsciGraphDestroy(g1);
    trnsciGraphDestroy(g2);
    trnsciGraphDestroy(g3);
    trnsciGraphDestroy(g4);
    operands_free(&o1);
    operands_free(&o2);
    trnsciStreamDestroy(s);
    trnblasDestroy(h);
}

static void test_explicit_nodes(void **state) {
    connect_to(state);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    trnsciEvent_t ev;
    assert_int_equal(trnsciEventCreate(&ev), trnsciSuccess);
    operands o;
    operands_make(&o, 4);
    const float one = 1;
    trnsciGraph_t child;
    gemm_graph(&child, h, s, N, &one, o.a, o.b, o.c);

    trnsciGraph_t g;
    assert_int_equal(trnsciGraphCreate(&g, 0), trnsciSuccess);
    trnsciGraphNode_t set, cp, kid, empty, rec, wait;
    const trnsciMemsetParams mp = {.dst = o.d,
                                   .pitch = 0,
                                   .value = 0x01010101u,
                                   .elementSize = 4,
                                   .width = N * N,
                                   .height = 1};
    assert_int_equal(trnsciGraphAddMemsetNode(&set, g, NULL, 0, &mp), trnsciSuccess);
    assert_int_equal(trnsciGraphAddChildGraphNode(&kid, g, NULL, 0, child), trnsciSuccess);
    /* c runs after d is set; then a = c; then an event. */
    assert_int_equal(trnsciGraphAddDependencies(g, &set, &kid, 1), trnsciSuccess);
    assert_int_equal(trnsciGraphAddMemcpyNode1D(&cp, g, &kid, 1, o.a, o.c, sizeof(float) * N * N,
                                                trnsciMemcpyDeviceToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciGraphAddEmptyNode(&empty, g, &cp, 1), trnsciSuccess);
    assert_int_equal(trnsciGraphAddEventRecordNode(&rec, g, &empty, 1, ev), trnsciSuccess);
    assert_int_equal(trnsciGraphAddEventWaitNode(&wait, g, &rec, 1, ev), trnsciSuccess);
    size_t n = 0, roots = 0;
    assert_int_equal(trnsciGraphGetNodes(g, NULL, &n), trnsciSuccess);
    assert_int_equal(n, 6);
    assert_int_equal(trnsciGraphGetRootNodes(g, NULL, &roots), trnsciSuccess);
    assert_int_equal(roots, 1);
    trnsciGraph_t inner;
    assert_int_equal(trnsciGraphChildGraphNodeGetGraph(kid, &inner), trnsciSuccess);
    assert_int_equal(trnsciGraphGetNodes(inner, NULL, &n), trnsciSuccess);
    assert_int_equal(n, 1);
    /* A value that is not one repeated byte cannot be a memset node. */
    trnsciMemsetParams bad = mp;
    bad.value = 0x01020304u;
    trnsciGraphNode_t no;
    assert_int_equal(trnsciGraphAddMemsetNode(&no, g, NULL, 0, &bad), trnsciErrorNotSupported);

    char dot[320];
    snprintf(dot, sizeof(dot), "%s/graph.dot", daemon_under_test.dir);
    assert_int_equal(trnsciGraphDebugDotPrint(g, dot, 0), trnsciSuccess);
    assert_true(th_file_contains(dot, "digraph"));
    assert_true(th_file_contains(dot, "blas gemm"));
    assert_true(th_file_contains(dot, "m=24"));
    assert_true(th_file_contains(dot, "memory memset"));
    assert_true(th_file_contains(dot, "event record"));
    assert_true(th_file_contains(dot, "cluster"));

    trnsciGraphExec_t x;
    assert_int_equal(trnsciGraphInstantiate(&x, g, 0), trnsciSuccess);
    assert_int_equal(trnsciGraphLaunch(x, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(trnsciEventQuery(ev), trnsciSuccess);
    float a[N * N], c[N * N], dd[N * N];
    assert_int_equal(trnsciMemcpy(a, o.a, sizeof(a), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(c, o.c, sizeof(c), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dd, o.d, sizeof(dd), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(a, c, sizeof(a));
    for (int i = 0; i < N * N; i++) {
        uint32_t bits;
        memcpy(&bits, &dd[i], sizeof(bits));
        assert_int_equal(bits, 0x01010101u);
    }

    /* The same structure again: a hit in the daemon's graph cache. */
    trnsciGraphExec_t x2;
    assert_int_equal(trnsciGraphInstantiate(&x2, g, 0), trnsciSuccess);
    trnsciGraphCacheInfo info[64];
    int count = 0;
    assert_int_equal(trnsciDaemonGetGraphs(daemon_under_test.unix_addr, info, 64, &count),
                     trnsciSuccess);
    int hit = 0;
    for (int i = 0; i < count && i < 64; i++)
        if (info[i].nodes == 6 && info[i].hits >= 1)
            hit = 1;
    assert_true(hit);
    /* `trnsci plans` lists it. */
    char out[320];
    snprintf(out, sizeof(out), "%s/plans.txt", daemon_under_test.dir);
    const char *const cli[] = {TRNSCI_CLI_PATH, "--addr", daemon_under_test.unix_addr, "plans",
                               NULL};
    assert_int_equal(th_run(cli, out), 0);
    assert_true(th_file_contains(out, "graph cache:"));
    assert_true(th_file_contains(out, "graph-6-"));

    assert_int_equal(trnsciGraphExecDestroy(x), trnsciSuccess);
    assert_int_equal(trnsciGraphExecDestroy(x2), trnsciSuccess);
    trnsciGraphDestroy(g);
    trnsciGraphDestroy(child);
    operands_free(&o);
    trnsciEventDestroy(ev);
    trnsciStreamDestroy(s);
    trnblasDestroy(h);
}

/* 2 x 2 CSR with a column index out of range, captured between two memsets. */
static void test_node_error(void **state) {
    connect_to(state);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    assert_int_equal(trnsparseSetStream(h, s), TRNSPARSE_STATUS_SUCCESS);
    const int32_t off[3] = {0, 1, 2}, col[2] = {0, 5}; /* 5 >= 2 columns */
    const float val[2] = {1, 1}, xv[2] = {1, 1};
    int32_t *doff, *dcol;
    float *dval, *dx, *dy;
    unsigned char *flag;
    assert_int_equal(trnsciMalloc((void **)&doff, sizeof(off)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dcol, sizeof(col)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dval, sizeof(val)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dx, sizeof(xv)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dy, sizeof(xv)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&flag, 1), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(doff, off, sizeof(off), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dcol, col, sizeof(col), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dval, val, sizeof(val), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dx, xv, sizeof(xv), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemset(flag, 0, 1), trnsciSuccess);
    trnsparseSpMatDescr_t a;
    trnsparseDnVecDescr_t x, y;
    assert_int_equal(trnsparseCreateCsr(&a, 2, 2, 2, doff, dcol, dval, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_32F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&x, 2, dx, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&y, 2, dy, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    const float one = 1, zero = 0;
    assert_int_equal(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(dy, 0, sizeof(xv), s), trnsciSuccess);
    assert_int_equal(trnsparseSpMV(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, a, x, &zero, y,
                                   TRNSCI_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciMemsetAsync(flag, 1, 1, s), trnsciSuccess);
    trnsciGraph_t g;
    assert_int_equal(trnsciStreamEndCapture(s, &g), trnsciSuccess);
    trnsciGraphExec_t ge;
    assert_int_equal(trnsciGraphInstantiate(&ge, g, 0), trnsciSuccess);
    assert_int_equal(trnsciGraphLaunch(ge, s), trnsciSuccess); /* launched: no error yet */
    assert_int_equal(trnsciStreamSynchronize(s), trnsciErrorInvalidValue);
    const char *msg = trnsciGetLastErrorMessage();
    print_message("deferred graph error (%s): %s\n", ((const transport *)*state)->name, msg);
    assert_non_null(strstr(msg, "sparse spmv (node 1 of graph "));
    assert_non_null(strstr(msg, "csrColInd[1] = 5"));
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess); /* reported once */
    unsigned char f = 9;
    assert_int_equal(trnsciMemcpy(&f, flag, 1, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(f, 0); /* the node after the failed one did not run */
    trnsciGraphExecDestroy(ge);
    trnsciGraphDestroy(g);
    trnsparseDestroySpMat(a);
    trnsparseDestroyDnVec(x);
    trnsparseDestroyDnVec(y);
    trnsciFree(doff);
    trnsciFree(dcol);
    trnsciFree(dval);
    trnsciFree(dx);
    trnsciFree(dy);
    trnsciFree(flag);
    trnsciStreamDestroy(s);
    trnsparseDestroy(h);
}

/* One SGEMM graph instantiated on a daemon with --cache-dir: listed after a
 * restart, and a hit when instantiated again. */
static void cached_graph(const char *addr, int *hit_key_count, char *key, size_t keylen) {
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    operands o;
    operands_make(&o, 3);
    const float one = 1;
    trnsciGraph_t g;
    gemm_graph(&g, h, s, 7, &one, o.a, o.b, o.c);
    trnsciGraphExec_t x;
    assert_int_equal(trnsciGraphInstantiate(&x, g, 0), trnsciSuccess);
    trnsciGraphCacheInfo info[8];
    int count = 0;
    assert_int_equal(trnsciDaemonGetGraphs(addr, info, 8, &count), trnsciSuccess);
    assert_true(count >= 1);
    *hit_key_count = (int)info[0].hits;
    if (key[0])
        assert_string_equal(info[0].key, key);
    snprintf(key, keylen, "%s", info[0].key);
    trnsciGraphExecDestroy(x);
    trnsciGraphDestroy(g);
    operands_free(&o);
    trnsciStreamDestroy(s);
    trnblasDestroy(h);
    trnsciDeviceReset();
}

static void test_cache_across_restart(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-graph-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *const args[] = {"--cache-dir", dir, NULL};
    th_daemon d;
    assert_int_equal(th_daemon_start(&d, args), 0);
    char key[96] = "";
    int hits = -1;
    cached_graph(d.unix_addr, &hits, key, sizeof(key));
    assert_int_equal(hits, 0);
    assert_int_equal(th_daemon_stop(&d), 0);
    assert_int_equal(th_daemon_start(&d, args), 0);
    trnsciGraphCacheInfo info[8];
    int count = 0;
    assert_int_equal(trnsciDaemonGetGraphs(d.unix_addr, info, 8, &count), trnsciSuccess);
    assert_int_equal(count, 1);
    assert_string_equal(info[0].key, key);
    cached_graph(d.unix_addr, &hits, key, sizeof(key));
    assert_int_equal(hits, 1);
    assert_int_equal(th_daemon_stop(&d), 0);
    th_remove_dir(dir);
}

/* A graph's daemon memory counts against the session's quota. */
static void test_graph_quota(void **state) {
    (void)state;
    const char *const args[] = {"--max-session-bytes", "1M", NULL};
    th_daemon d;
    trnsciDeviceReset();
    assert_int_equal(th_daemon_start(&d, args), 0);
    assert_int_equal(trnsciInit(d.unix_addr), trnsciSuccess);
    trnsciGraph_t g;
    assert_int_equal(trnsciGraphCreate(&g, 0), trnsciSuccess);
    trnsciGraphNode_t prev = NULL, node;
    for (int i = 0; i < 4000; i++) { /* about 5 MB of nodes in the daemon */
        assert_int_equal(trnsciGraphAddEmptyNode(&node, g, prev ? &prev : NULL, prev ? 1 : 0),
                         trnsciSuccess);
        prev = node;
    }
    trnsciGraphExec_t x = (trnsciGraphExec_t)1;
    assert_int_equal(trnsciGraphInstantiate(&x, g, 0), trnsciErrorMemoryAllocation);
    assert_null(x);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "a graph of 4000 nodes"));
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "session quota"));
    trnsciGraphDestroy(g);
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* ---- a client killed while its large graph runs ---- */

#define VICTIM_NODES 4000

static int victim(const char *addr, int fd) {
    if (trnsciInit(addr) != trnsciSuccess)
        return 20;
    trnblasHandle_t h;
    trnsciStream_t s;
    float *a, *c;
    const size_t n = 128;
    if (trnblasCreate(&h) || trnsciStreamCreate(&s) ||
        trnsciMalloc((void **)&a, n * n * sizeof(float)) ||
        trnsciMalloc((void **)&c, n * n * sizeof(float)) ||
        trnsciMemset(a, 0, n * n * sizeof(float)) || trnblasSetStream(h, s))
        return 21;
    const float one = 1;
    if (trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal))
        return 22;
    for (int i = 0; i < VICTIM_NODES; i++)
        if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, (int)n, (int)n, (int)n, &one, a, (int)n, a,
                         (int)n, &one, c, (int)n))
            return 23;
    trnsciGraph_t g;
    trnsciGraphExec_t x;
    if (trnsciStreamEndCapture(s, &g) || trnsciGraphInstantiate(&x, g, 0))
        return 24;
    for (int k = 0; k < 3; k++)
        if (trnsciGraphLaunch(x, s))
            return 25;
    /* Queued in the daemon (a query travels after the launches). */
    trnsciStreamQuery(s);
    const char ok = 1;
    if (write(fd, &ok, 1) != 1)
        return 26;
    for (;;)
        pause();
}

static void test_killed_mid_launch(void **state) {
    const transport *t = *state;
    trnsciDeviceReset();
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t pid = th_spawn_role(
        "victim", t->grpc ? daemon_under_test.tcp_addr : daemon_under_test.unix_addr, fds[1]);
    assert_true(pid > 0);
    close(fds[1]);
    char ok = 0;
    assert_int_equal(read(fds[0], &ok, 1), 1);
    close(fds[0]);
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(daemon_under_test.unix_addr, &st), trnsciSuccess);
    assert_true(st.opsQueued + st.opsRunning > 0);
    kill(pid, SIGKILL);
    assert_int_equal(th_wait_child(pid), 128 + SIGKILL);
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 30000), 0);
}

static int run_role(char **argv) {
    if (strcmp(argv[2], "victim") == 0)
        return victim(argv[3], atoi(argv[4]));
    return 99;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0)
        return run_role(argv);
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        {"capture_replay (local)", test_capture_replay, NULL, NULL, &local},
        {"capture_replay (grpc)", test_capture_replay, NULL, NULL, &grpc},
        {"fork_join (local)", test_fork_join, NULL, NULL, &local},
        {"fork_join (grpc)", test_fork_join, NULL, NULL, &grpc},
        {"illegal_during_capture (local)", test_illegal_during_capture, NULL, NULL, &local},
        {"exec_update (local)", test_exec_update, NULL, NULL, &local},
        {"exec_update (grpc)", test_exec_update, NULL, NULL, &grpc},
        {"explicit_nodes (local)", test_explicit_nodes, NULL, NULL, &local},
        {"explicit_nodes (grpc)", test_explicit_nodes, NULL, NULL, &grpc},
        {"node_error (local)", test_node_error, NULL, NULL, &local},
        {"node_error (grpc)", test_node_error, NULL, NULL, &grpc},
        {"cache_across_restart", test_cache_across_restart, NULL, NULL, NULL},
        {"graph_quota", test_graph_quota, NULL, NULL, NULL},
        {"killed_mid_launch (local)", test_killed_mid_launch, NULL, NULL, &local},
        {"killed_mid_launch (grpc)", test_killed_mid_launch, NULL, NULL, &grpc},
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    trnsciDeviceReset();
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed;
}
