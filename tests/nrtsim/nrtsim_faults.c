/*
 * nrtsim_faults.c — fault injection from a control file.
 *
 * NRTSIM_FAULTS names a text file, read at nrt_init and read again whenever
 * its identity (device, inode, size, mtime) changed, which is checked at
 * each nrt_execute, each DEVICE allocation and each write to a core. The file is only ever opened
 * read-only. Lines ('#' starts a comment; N is a physical NeuronCore, as in
 * NEURON_RT_VISIBLE_CORES):
 *   exec_error core=N count=C   the next C executes on core N return
 *                               NRT_EXEC_COMPLETED_WITH_ERR (kernel not run)
 *   alloc_fail core=N count=C   the next C DEVICE allocations on core N
 *                               return NRT_RESOURCE
 *   write_fail core=N count=C   the next C nrt_tensor_writes to core N's
 *                               memory write half their bytes and return
 *                               NRT_FAILURE
 *   timeout core=N count=C      the next C executes on core N return
 *                               NRT_TIMEOUT after NRTSIM_TIMEOUT_MS
 *   hang core=N                 executes on core N never return
 * Counts are this process's: each (re)reading of the file arms them anew,
 * and a new process starts from the file as it is. A test re-arms a fault
 * by rewriting the file (write a new file and rename it over the old one:
 * the inode changes even within one mtime tick). A missing file arms
 * nothing; a line not understood is reported on stderr and skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/nrtsim/nrtsim_internal.h"

/* "core=N" / "count=C" into *out. */
static int keyed_number(const char *tok, const char *key, uint64_t limit, uint64_t *out) {
    const size_t kl = strlen(key);
    if (!tok || strncmp(tok, key, kl) != 0 || tok[kl] != '=' || !tok[kl + 1])
        return -1;
    uint64_t v = 0;
    for (const char *p = tok + kl + 1; *p; p++) {
        const uint64_t d = (uint64_t)(*p - '0');
        /* v * 10 + d <= limit, without overflow (d > limit first). */
        if (*p < '0' || *p > '9' || d > limit || v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* One line into f; -1 when it is not understood. */
static int parse_line(nrtsim_faults *f, char *s) {
    char *save = NULL;
    const char *kind = strtok_r(s, " \t\r\n", &save);
    if (!kind || kind[0] == '#')
        return 0;
    uint64_t core, count = 0;
    if (keyed_number(strtok_r(NULL, " \t\r\n", &save), "core", NRTSIM_MAX_CORES - 1, &core) != 0)
        return -1;
    const int is_hang = strcmp(kind, "hang") == 0;
    if (!is_hang &&
        keyed_number(strtok_r(NULL, " \t\r\n", &save), "count", UINT32_MAX, &count) != 0)
        return -1;
    if (strtok_r(NULL, " \t\r\n", &save))
        return -1;
    nrtsim_core_faults *c = &f->core[core];
    if (is_hang)
        c->hang = 1;
    else if (strcmp(kind, "exec_error") == 0)
        c->exec_error = count;
    else if (strcmp(kind, "alloc_fail") == 0)
        c->alloc_fail = count;
    else if (strcmp(kind, "timeout") == 0)
        c->timeout = count;
    else if (strcmp(kind, "write_fail") == 0)
        c->write_fail = count;
    else
        return -1;
    return 0;
}

static void read_file(nrtsim_faults *f) {
    memset(f->core, 0, sizeof(f->core));
    FILE *fp = fopen(f->path, "r");
    if (!fp)
        return;
    char buf[256];
    for (int lineno = 1; fgets(buf, sizeof(buf), fp); lineno++)
        if (parse_line(f, buf) != 0)
            fprintf(stderr, "nrtsim: %s:%d: fault line not understood\n", f->path, lineno);
    fclose(fp);
}

/* Re-reads the file when it is not the one last read. */
static void refresh(nrtsim_faults *f) {
    if (!f->path[0])
        return;
    struct stat st;
    if (stat(f->path, &st) != 0) {
        if (f->seen)
            memset(f->core, 0, sizeof(f->core));
        f->seen = 0;
        return;
    }
    if (f->seen && st.st_dev == f->dev && st.st_ino == f->ino && st.st_size == f->size &&
        st.st_mtim.tv_sec == f->mtime.tv_sec && st.st_mtim.tv_nsec == f->mtime.tv_nsec)
        return;
    f->seen = 1;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->size = st.st_size;
    f->mtime = st.st_mtim;
    read_file(f);
}

void nrtsim_faults_init(nrtsim_faults *f) {
    memset(f, 0, sizeof(*f));
    const char *path = getenv("NRTSIM_FAULTS");
    if (path && path[0] && strlen(path) < sizeof(f->path))
        memcpy(f->path, path, strlen(path) + 1);
    refresh(f);
}

/* Takes one from *count when there is one. */
static int take(uint64_t *count) {
    if (!*count)
        return 0;
    --*count;
    return 1;
}

nrtsim_fault nrtsim_faults_exec(nrtsim_faults *f, int pc) {
    refresh(f);
    nrtsim_core_faults *c = &f->core[pc];
    if (c->hang)
        return NRTSIM_FAULT_HANG;
    if (take(&c->timeout))
        return NRTSIM_FAULT_TIMEOUT;
    if (take(&c->exec_error))
        return NRTSIM_FAULT_EXEC_ERROR;
    return NRTSIM_FAULT_NONE;
}

int nrtsim_faults_alloc(nrtsim_faults *f, int pc) {
    refresh(f);
    return take(&f->core[pc].alloc_fail);
}

int nrtsim_faults_write(nrtsim_faults *f, int pc) {
    refresh(f);
    return take(&f->core[pc].write_fail);
}
