/*
 * graph_cache.h — the daemon-wide cache of instantiated graphs' structures.
 *
 * A graph's structure — its nodes' routines, shapes, types and modes, and its
 * edges, not its operands' addresses or its scalars — is its key (made by
 * daemon/graph_key.c). The entry remembers what the daemon prepared for that
 * structure: the lane plan its launches use, the plan-cache keys of the
 * plans its nodes run (FFT plans, contraction paths), and what preparing it
 * cost. A second instantiation of the same structure, by any session, is a
 * hit: its plans are found in the plan cache, already built.
 *
 * Bounded: at most max_entries; the least recently used entry goes first.
 * With a directory the entries are kept in `graphs.manifest` there (written
 * atomically after each new entry) and loaded at start, so `trnsci plans`
 * lists the graphs a restarted daemon has seen and their plans are among
 * the plan cache's persisted ones. Thread-safe.
 */
#ifndef TRN_SCHEDULER_GRAPH_CACHE_H
#define TRN_SCHEDULER_GRAPH_CACHE_H

#include <stddef.h>
#include <stdint.h>

typedef struct trn_graph_cache trn_graph_cache;

#define TRN_GRAPH_KEY_LEN 96

/* One entry, as `trnsci plans` lists it. */
typedef struct trn_graph_info {
    char key[TRN_GRAPH_KEY_LEN];
    uint32_t nodes, lanes;
    uint64_t hits, idle_ms;
    double prepare_seconds;
    char **plans; /* nplans plan keys (malloc'd with the info: trn_graph_info_free) */
    uint32_t nplans;
} trn_graph_info;

/* A cache of at most max_entries (> 0) kept in dir (NULL: memory only);
 * warn (may be NULL) hears about unreadable or unwritable files. NULL when
 * out of memory. Loads the persisted entries. */
trn_graph_cache *trn_graph_cache_create(const char *dir, uint32_t max_entries,
                                        void (*warn)(const char *msg));
void trn_graph_cache_destroy(trn_graph_cache *gc);

/* Records an instantiation of the graph with key: returns 1 when the cache
 * knew it (a hit: its count goes up, *prepare_seconds says what the first
 * one cost), else 0 after adding it with the given figures and plan keys.
 * -1 when out of memory (nothing recorded). */
int trn_graph_cache_note(trn_graph_cache *gc, const char *key, uint32_t nodes, uint32_t lanes,
                         double *prepare_seconds, const char *const *plans, uint32_t nplans);

/* A snapshot, most recently used first: the count and a malloc'd array in
 * *out (free with trn_graph_info_free). */
size_t trn_graph_cache_list(trn_graph_cache *gc, trn_graph_info **out);
void trn_graph_info_free(trn_graph_info *list, size_t n);
/* Forgets every entry (and the persisted file). Returns how many. */
unsigned trn_graph_cache_clear(trn_graph_cache *gc);

#endif
