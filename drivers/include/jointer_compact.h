/*
 * jointer_compact.h - decoder of the compact trace encoding
 * (doc/trace-encoding.md): 64-bit units of 1..3 records each.
 */
#ifndef JOINTER_COMPACT_H
#define JOINTER_COMPACT_H

#include <stdint.h>

struct jointer_trace_record;

typedef struct jointer_compact_state {
    uint32_t ts, data;  /* the previous record */
    uint8_t synced;     /* a SYNC was seen */
} jointer_compact_state;

/* the next unit must be a SYNC */
void jointer_compact_reset(jointer_compact_state *st);

/* Decodes units[0..n) into out (at most max records). Returns the number of
 * units consumed (it stops before a unit whose records do not fit), *n_out =
 * records written; units before the first SYNC are skipped (consumed, no
 * record) and counted in *skipped when skipped != NULL. -EINVAL on NULL
 * pointers, -EILSEQ on a malformed unit. */
int jointer_compact_decode(jointer_compact_state *st, const uint64_t *units, uint32_t n,
                           struct jointer_trace_record *out, uint32_t max, uint32_t *n_out,
                           uint32_t *skipped);

#endif
