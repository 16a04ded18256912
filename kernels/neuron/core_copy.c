/*
 * core_copy.c — one copy of a matrix per NeuronCore, bound by the programs
 * that read it (core_copy.h).
 */
#include "kernels/neuron/core_copy.h"

#include "kernels/neuron/nc_cost.h"

static int current(const trn_nc_runtime *rt, const trn_nc_core_copy *c, uintptr_t lo, size_t n) {
    return trn_write_clock_unchanged(rt->wclock, (const void *)lo, n, c->since);
}

/* The copy on core that holds [lo, lo + n) current, or NULL; *stale: the
 * copy of exactly that span when it is not current. */
static trn_nc_core_copy *find(trn_nc_runtime *rt, int core, uintptr_t lo, size_t n,
                              trn_nc_core_copy **stale) {
    *stale = NULL;
    for (trn_nc_core_copy *c = rt->core_copy_list; c; c = c->next) {
        if (c->core != core || c->lo > lo || c->hi < lo || c->hi - lo < n)
            continue;
        if (c->valid && current(rt, c, lo, n))
            return c;
        if (c->lo == lo && c->hi == lo + n)
            *stale = c;
    }
    return NULL;
}

/* After a failed write into c: nothing that binds it holds anything
 * known, and it is found again only to be written whole (lock held). */
static void invalidate(trn_nc_runtime *rt, trn_nc_core_copy *c) {
    c->valid = 0;
    for (trn_nc_loaded *ld = rt->loaded; ld; ld = ld->next)
        for (int ti = 0; ti < ld->ntensors; ti++)
            for (int set = 0; set < TRN_NC_SETS; set++)
                if (ld->t[ti].bound[set] == c)
                    ld->t[ti].held[set].valid = 0;
}

/* Writes memory as it is now into c, whole. Called with the lock held; it
 * is let go for the write itself, with c pinned (a pinned copy is never
 * freed, and only this core's worker uses the core's copies), so that
 * other cores' workers are not held up by it. c is not valid meanwhile. */
static int refresh(trn_nc_runtime *rt, trn_nc_core_copy *c) {
    const size_t n = c->hi - c->lo;
    const uint64_t since = trn_write_clock_now(rt->wclock); /* before the bytes are read */
    c->valid = 0;
    c->binds++;
    pthread_mutex_unlock(&rt->lock);
    const trn_nrt_status st = trn_nc_move_to_core(rt, c->tensor, (const void *)c->lo, n);
    pthread_mutex_lock(&rt->lock);
    c->binds--;
    if (st != TRN_NRT_SUCCESS) {
        invalidate(rt, c);
        return -1;
    }
    c->since = since;
    c->valid = 1;
    return 0;
}

/* Points input ti of set `set` at n bytes of c from lo (lock held). */
static int bind_slice(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti, trn_nc_core_copy *c,
                      uintptr_t lo, size_t n) {
    trn_nrt_tensor *slice = NULL;
    if (rt->api.tensor_allocate_slice(c->tensor, lo - c->lo, n, ld->t[ti].name, &slice) !=
        TRN_NRT_SUCCESS)
        return -1;
    if (rt->api.add_tensor_to_tensor_set(ld->in[set], ld->t[ti].name, slice) != TRN_NRT_SUCCESS) {
        rt->api.tensor_free(&slice);
        return -1;
    }
    trn_nc_copy_release_locked(rt, ld, set, ti);
    ld->t[ti].bound[set] = c;
    ld->t[ti].slice[set] = slice;
    ld->t[ti].slice_lo[set] = lo;
    c->binds++;
    return 0;
}

int trn_nc_copy_bind(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti, const void *host,
                     size_t n, uint64_t *since, size_t *moved) {
    const uintptr_t lo = (uintptr_t)host;
    if (!rt->wclock || n == 0 || n != ld->t[ti].size || ld->t[ti].output || lo + n < lo)
        return -1;
    int rc = -1;
    *moved = 0;
    pthread_mutex_lock(&rt->lock);
    trn_nc_core_copy *stale, *c = find(rt, ld->core, lo, n, &stale);
    int made = 0;
    if (!c && stale) {
        c = stale;
        *moved = n;
    } else if (!c) {
        c = trn_nc_copy_new_locked(rt, ld->core, lo, n);
        made = c != NULL;
        *moved = n;
    }
    if (!c)
        goto out;
    if (*moved && refresh(rt, c) != 0) {
        *moved = 0;
        if (made && c->binds == 0)
            trn_nc_copy_drop_locked(rt, c);
        goto out;
    }
    const int already = ld->t[ti].bound[set] == c && ld->t[ti].slice_lo[set] == lo;
    if (!already && bind_slice(rt, ld, set, ti, c, lo, n) != 0)
        goto out;
    c->last_use = ++rt->clock;
    *since = c->since;
    rc = 0;
out:
    pthread_mutex_unlock(&rt->lock);
    return rc;
}

/* Gives input ti of the set its own tensor back (lock held): 0, or -1
 * when the runtime refused (it stays bound, holding nothing known). */
static int unbind_locked(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti) {
    ld->t[ti].held[set].valid = 0; /* its own tensor holds what it held before */
    if (!ld->t[ti].bound[set])
        return 0;
    /* The set names its own tensor again before the slice goes. */
    if (rt->api.add_tensor_to_tensor_set(ld->in[set], ld->t[ti].name, ld->t[ti].tensor[set]) !=
        TRN_NRT_SUCCESS)
        return -1;
    trn_nc_copy_release_locked(rt, ld, set, ti);
    return 0;
}

int trn_nc_copy_unbind(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti) {
    if (!ld->t[ti].bound[set])
        return 0;
    pthread_mutex_lock(&rt->lock);
    const int rc = unbind_locked(rt, ld, set, ti);
    pthread_mutex_unlock(&rt->lock);
    return rc;
}

void trn_nc_copy_unbind_set(trn_nc_runtime *rt, trn_nc_loaded *ld, int set) {
    pthread_mutex_lock(&rt->lock);
    for (int ti = 0; ti < ld->ntensors; ti++)
        if (ld->t[ti].bound[set])
            (void)unbind_locked(rt, ld, set, ti); /* a refusal shows at its next write */
    pthread_mutex_unlock(&rt->lock);
}

trn_nrt_tensor *trn_nc_copy_bound_tensor(const trn_nc_loaded *ld, int set, int ti) {
    return ld->t[ti].slice[set] ? ld->t[ti].slice[set] : ld->t[ti].tensor[set];
}
