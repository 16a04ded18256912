/*
 * executor_sandbox.c — an executor's privileges, cut to what running
 * kernels needs (daemon/executor.h, "Least privilege").
 *
 * In order: a private mount namespace (where the kernel allows it: root);
 * an unprivileged user (nobody) when started as root — its buffers arrive
 * as open descriptors and its slot and op arena are inherited mappings, so
 * it needs no permission on anything; death with its parent (set after the
 * change of user, which clears it); no new privileges; and a seccomp filter
 * that refuses, with EPERM, what an executor never does: sockets and
 * connections, new processes (threads stay possible: clone with
 * CLONE_THREAD), running programs, opening files for writing, signalling
 * other processes, tracing, mounting, changing users or namespaces, loading
 * modules or BPF programs (where the kernel has seccomp filters).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/executor_internal.h"

#define NOBODY 65534

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#endif

#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define LOAD_ARG(i) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i]))
#define DENY BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
/* nr == n: deny, else next rule. */
#define DENY_NR(n) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (n), 0, 1), DENY

static int install_filter(pid_t self) {
#ifdef AUDIT_ARCH_HERE
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0),
        DENY,
        LOAD_NR,
        DENY_NR(__NR_socket),
        DENY_NR(__NR_socketpair),
        DENY_NR(__NR_connect),
        DENY_NR(__NR_bind),
        DENY_NR(__NR_listen),
        DENY_NR(__NR_accept),
        DENY_NR(__NR_accept4),
        DENY_NR(__NR_execve),
        DENY_NR(__NR_execveat),
#ifdef __NR_fork
        DENY_NR(__NR_fork),
        DENY_NR(__NR_vfork),
#endif
        DENY_NR(__NR_ptrace),
        DENY_NR(__NR_process_vm_readv),
        DENY_NR(__NR_process_vm_writev),
        DENY_NR(__NR_mount),
        DENY_NR(__NR_umount2),
        DENY_NR(__NR_unshare),
        DENY_NR(__NR_setns),
        DENY_NR(__NR_setuid),
        DENY_NR(__NR_setgid),
        DENY_NR(__NR_setresuid),
        DENY_NR(__NR_setresgid),
        DENY_NR(__NR_init_module),
        DENY_NR(__NR_finit_module),
        DENY_NR(__NR_bpf),
        DENY_NR(__NR_perf_event_open),
        DENY_NR(__NR_pidfd_open),
        DENY_NR(__NR_pidfd_getfd),
        /* clone3 hides its flags in memory: ENOSYS, so libc falls back to clone. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        /* clone: threads only. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3),
        LOAD_ARG(0),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0),
        DENY,
        ALLOW,
        /* kill, tgkill: this process only (abort raises on itself). */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 0, 3),
        LOAD_ARG(0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)self, 1, 0),
        DENY,
        ALLOW,
        /* openat: reading only. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 3),
        LOAD_ARG(2),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC, 0, 1),
        DENY,
        ALLOW,
#ifdef __NR_open
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 0, 3),
        LOAD_ARG(1),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC, 0, 1),
        DENY,
        ALLOW,
        DENY_NR(__NR_creat),
#endif
        ALLOW,
    };
    const struct sock_fprog prog = {.len = (unsigned short)(sizeof(f) / sizeof(f[0])), .filter = f};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#else
    (void)self;
    return 0;
#endif
}

int trn_exec_sandbox_enter(int channel) {
    (void)channel;
    const pid_t parent = getppid();
    if (geteuid() == 0) {
        /* Best effort: a kernel without mount namespaces, or a container
         * that forbids them, still gets the rest. */
        if (unshare(CLONE_NEWNS) == 0)
            (void)mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
        if (setgroups(0, NULL) != 0 || setresgid(NOBODY, NOBODY, NOBODY) != 0 ||
            setresuid(NOBODY, NOBODY, NOBODY) != 0)
            return -1;
    }
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        return -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    if (install_filter(getpid()) != 0 && errno != EINVAL && errno != ENOSYS)
        return -1;
    /* A kernel built without seccomp filters (EINVAL/ENOSYS) runs the
     * executor with the rest of its limits. */
    return 0;
}
