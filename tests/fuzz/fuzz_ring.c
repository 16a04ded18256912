/*
 * fuzz_ring.c — libFuzzer target: the local transport's ring reader.
 *
 * The daemon consumes a submission ring that lives in memory the client can
 * write at any time, so every byte of it and the client's published tail
 * are attacker-controlled. Input: the producer's published tail (8 bytes),
 * the consumer's starting head (8 bytes), then the ring's contents (a 1 KiB
 * ring; shorter input leaves zeros). The target pops entries the way the
 * daemon's loop does until the ring is empty or reported corrupt, and checks
 * what trnsci_ring.h promises: no access outside the ring or the body
 * buffer (ASan), bodies no longer than the cap, the head only moves forward
 * and never past the tail.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnsci_ring.h"

#define RING 1024u
#define CAP (RING / 2)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 16)
        return 0;
    uint64_t tail, head;
    memcpy(&tail, data, 8);
    memcpy(&head, data + 8, 8);
    uint8_t *ring = calloc(1, RING); /* heap: ASan sees a read past it */
    uint8_t *body = malloc(CAP);
    if (!ring || !body)
        abort();
    memcpy(ring, data + 16, size - 16 < RING ? size - 16 : RING);
    uint64_t published = head;
    trn_ring_end r = {
        .data = ring, .size = RING, .pos = head, .published = &published, .peer = &tail};
    for (int i = 0; i < (int)RING; i++) {
        const uint64_t before = r.pos;
        const int ready = trn_ring_ready(&r);
        trn_local_hdr h;
        const int rc = trn_ring_pop(&r, &h, body, CAP);
        if (rc != 0) {
            if (r.pos != before || (rc == 1 && ready != 0))
                abort();
            break;
        }
        if (ready != 1 || h.len > CAP || r.pos <= before || r.pos > tail || published != r.pos)
            abort();
    }
    free(body);
    free(ring);
    return 0;
}
