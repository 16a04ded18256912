/*
 * routines.c — the table of outside routines the CPU kernels call
 * (routines.h): its storage, its names, installing the self-test's choices,
 * and the per-thread record of refused routines used.
 *
 * The table starts out holding every library routine (a static
 * initialiser), so kernels work before, and without, a self-test.
 */
#include "kernels/cpu/routines.h"

#include <string.h>

trn_routine_table trn_routines = {
#define INIT(group, name) .name = &name,
    TRN_ROUTINES(INIT)
#undef INIT
};

static const char *const names[TRN_ROUTINE_COUNT] = {
#define NAME(group, name) #name,
    TRN_ROUTINES(NAME)
#undef NAME
};

static const char *const groups[TRN_ROUTINE_COUNT] = {
#define GROUP(group, name) #group,
    TRN_ROUTINES(GROUP)
#undef GROUP
};

/* The library's routines, as plain pointers for the self-test. */
static void *library_fn(trn_routine_id id) {
    switch (id) {
#define LIB(group, name)                                                                           \
    case TRN_R_##name: return (void *)&name;
        TRN_ROUTINES(LIB)
#undef LIB
    case TRN_ROUTINE_COUNT: break;
    }
    return NULL;
}

const char *trn_routine_name(int id) {
    return id >= 0 && id < TRN_ROUTINE_COUNT ? names[id] : NULL;
}

const char *trn_routine_group(int id) {
    return id >= 0 && id < TRN_ROUTINE_COUNT ? groups[id] : NULL;
}

int trn_routine_find(const char *name) {
    for (int i = 0; i < TRN_ROUTINE_COUNT; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

void *trn_routine_library(trn_routine_id id) {
    return library_fn(id);
}

void *trn_routine_current(trn_routine_id id) {
    switch (id) {
#define CUR(group, name)                                                                           \
    case TRN_R_##name: return (void *)atomic_load(&trn_routines.name);
        TRN_ROUTINES(CUR)
#undef CUR
    case TRN_ROUTINE_COUNT: break;
    }
    return NULL;
}

int trn_routine_is_refused(trn_routine_id id) {
    return id < TRN_ROUTINE_COUNT && atomic_load(&trn_routines.refused[id]) != 0;
}

void trn_routine_install(trn_routine_id id, void *fn, int refused) {
    if (id >= TRN_ROUTINE_COUNT || !fn)
        return;
    /* The refusal mark goes up before a refused routine's stand-in becomes
     * reachable, and comes down after a good routine replaced it. */
    if (refused)
        atomic_store(&trn_routines.refused[id], 1);
    switch (id) {
#define SET(group, name)                                                                           \
    case TRN_R_##name: atomic_store(&trn_routines.name, (__typeof__(&name))fn); break;
        TRN_ROUTINES(SET)
#undef SET
    case TRN_ROUTINE_COUNT: break;
    }
    if (!refused)
        atomic_store(&trn_routines.refused[id], 0);
}

void trn_routine_reset(void) {
    for (int i = 0; i < TRN_ROUTINE_COUNT; i++)
        trn_routine_install((trn_routine_id)i, library_fn((trn_routine_id)i), 0);
}

/* The first refused routine this thread used since its last clear, + 1
 * (0: none). Thread-local because each worker runs one kernel at a time. */
static _Thread_local int refusal;

void trn_routine_note_refused(trn_routine_id id) {
    if (!refusal)
        refusal = (int)id + 1;
}

void trn_routine_clear_refusal(void) {
    refusal = 0;
}

int trn_routine_take_refusal(void) {
    const int r = refusal - 1;
    refusal = 0;
    return r;
}
