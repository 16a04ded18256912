/*
 * executor_fault.c — fault injection for the executor tests (test builds
 * only: TRNSCI_FAULT_INJECTION, and then only with --fault-injection).
 *
 * The trigger is an op no program asks for: a 1×1×1 CGEMM whose alpha is
 * 0 + iF, F one of the codes below. The executor then really crashes
 * (SIGSEGV from a write to address 0, SIGABRT from abort(), SIGFPE from
 * raise) or spins until its watchdog kills it — the faults a kernel, BLAS
 * or FFTW could have — instead of running the GEMM.
 *
 * Every start of an executor pauses START_GAP_NS between its spawn and the
 * daemon's first message to it, so that a test can kill it mid-start.
 *
 * For the planner executor the trigger is planning a 1D complex FFT of
 * PLAN_FAULT_SEGV or PLAN_FAULT_SPIN points (primes no test plans for
 * anything else).
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "daemon/executor_internal.h"

#ifdef TRNSCI_FAULT_INJECTION
#define FAULT_SEGV (-7001.0)
#define FAULT_ABORT (-7002.0)
#define FAULT_SPIN (-7003.0)
#define FAULT_FPE (-7004.0)
#define PLAN_FAULT_SEGV 7001
#define PLAN_FAULT_SPIN 7013
/* A new executor's start, spawned to first message: long enough for a test
 * polling /proc to see it and kill it (test_killed_while_starting). */
#define START_GAP_NS 30000000L

void trn_exec_fault_maybe(const trn_exec_pool *p, const trn_op_desc *op) {
    if (!p->cfg.fault_injection || op->kind != TRN_OP_GEMM)
        return;
    const trn_gemm_desc *g = &op->u.gemm;
    if (g->type != TRN_DTYPE_C32F || g->m != 1 || g->n != 1 || g->k != 1 || g->alpha.re != 0.0)
        return;
    if (g->alpha.im == FAULT_SEGV) {
        volatile int *null = NULL;
        *null = 1;
    } else if (g->alpha.im == FAULT_ABORT) {
        abort();
    } else if (g->alpha.im == FAULT_FPE) {
        raise(SIGFPE);
    } else if (g->alpha.im == FAULT_SPIN) {
        for (volatile unsigned long i = 0;; i++)
            ;
    }
}

void trn_exec_fault_plan_maybe(const trn_exec_pool *p, const trn_plan_spec *spec) {
    if (!p->cfg.fault_injection || spec->family != TRN_PLAN_FFT || spec->u.fft.rank != 1)
        return;
    const trn_fft_type t = spec->u.fft.type;
    if (t != TRN_FFT_C2C && t != TRN_FFT_Z2Z)
        return;
    if (spec->u.fft.n[0] == PLAN_FAULT_SEGV) {
        volatile int *null = NULL;
        *null = 1;
    } else if (spec->u.fft.n[0] == PLAN_FAULT_SPIN) {
        for (volatile unsigned long i = 0;; i++)
            ;
    }
}

void trn_exec_fault_start_gap(const trn_exec_pool *p) {
    if (!p->cfg.fault_injection)
        return;
    const struct timespec gap = {0, START_GAP_NS};
    nanosleep(&gap, NULL);
}
#else
void trn_exec_fault_maybe(const trn_exec_pool *p, const trn_op_desc *op) {
    (void)p;
    (void)op;
}

void trn_exec_fault_plan_maybe(const trn_exec_pool *p, const trn_plan_spec *spec) {
    (void)p;
    (void)spec;
}

void trn_exec_fault_start_gap(const trn_exec_pool *p) {
    (void)p;
}
#endif
