/*
 * fake_session.c — the two session functions the validators call, for the
 * fuzz build (which does not link daemon/session.c and the scheduler it
 * needs). Same contract as session.h: a lookup in the session's own buffer
 * table that takes a reference, and dropping it. The fuzz session's table
 * keeps its own reference to every buffer, so none is ever freed here;
 * fuzz_validate.c checks the counts come back to one after every input.
 */
#include <stdlib.h>

#include "daemon/session.h"

trn_buffer *trn_session_buffer_get(trn_session *s, uint64_t id) {
    pthread_mutex_lock(&s->lock);
    trn_buffer *b = trn_idmap_get(&s->buffers, id);
    if (b)
        atomic_fetch_add(&b->refs, 1);
    pthread_mutex_unlock(&s->lock);
    return b;
}

void trn_buffer_unref(trn_buffer *b) {
    if (atomic_fetch_sub(&b->refs, 1) == 1)
        abort(); /* the table's own reference was dropped: a double release */
}
