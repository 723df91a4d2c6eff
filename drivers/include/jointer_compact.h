/* SPDX-License-Identifier: MIT */
/*
 * jointer_compact.h - decoder of the compact trace encoding
 * (doc/trace-encoding.md, JOINTER_ENCODING_COMPACT): 64-bit units of 1 to 3
 * records {timestamp, data} -> jointer_trace_record. Portable C99, no
 * allocation: the caller owns the state and the buffers, so the same code
 * decodes a ring in memory on bare metal, a relay on Linux and a trace file.
 * Returns negative errno values (<errno.h>).
 *
 * Units are host-endian uint64_t with the bits of the spec (bits 31..0 are
 * the word at the lower address: on a little-endian CPU a unit read from
 * memory is already in this form). A reader can start anywhere: units before
 * the first SYNC are skipped. The first SYNC gives the timestamp modulo 2^30
 * (its bits 31..30 are 0); every later SYNC and delta keeps the full 32 bits.
 */
#ifndef JOINTER_COMPACT_H
#define JOINTER_COMPACT_H

#include <stdint.h>

/* jointer.h includes this header before it defines the record type */
struct jointer_trace_record;

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

/* unit kinds: bits 63..62 */
#define JOINTER_COMPACT_SYNC   0u  /* 1 record: timestamp bits 29..0 absolute, data 32 */
#define JOINTER_COMPACT_LONG   1u  /* 1 record: delta 30, data 32 */
#define JOINTER_COMPACT_PAIR   2u  /* 2 records: delta 15, data 15..0 each */
#define JOINTER_COMPACT_TRIPLE 3u  /* 3 records: delta 10, data 9..0 each; bits 61..60 = 0 */

typedef struct jointer_compact_state {
    uint32_t ts, data;  /* the last record decoded */
    uint8_t synced;     /* a SYNC was seen since the reset */
} jointer_compact_state;

/* the next unit must be a SYNC (start of a ring, after a gap or a drop) */
void jointer_compact_reset(jointer_compact_state *st);

/*
 * Decodes units[0..n) into out (at most max records). Returns the number of
 * units consumed: it stops before a unit whose records do not fit in out,
 * and before a malformed unit (a TRIPLE with bits 61..60 set) when units
 * were consumed before it; *n_out = records written. Units before the first
 * SYNC are consumed without a record and added to *skipped (when skipped
 * != NULL). -EINVAL on a NULL pointer (out may be
 * NULL when max is 0), -EILSEQ when units[0] is malformed (nothing
 * consumed, st unchanged: skip it and call jointer_compact_reset to resume
 * at the next SYNC).
 */
int jointer_compact_decode(jointer_compact_state *st, const uint64_t *units, uint32_t n,
                           struct jointer_trace_record *out, uint32_t max, uint32_t *n_out,
                           uint32_t *skipped);

/* records in a unit (1..3), from its kind (bits 63..62) */
static inline uint32_t jointer_compact_unit_records(uint64_t unit)
{
    uint32_t kind = (uint32_t)(unit >> 62);
    return kind == JOINTER_COMPACT_PAIR ? 2u : kind == JOINTER_COMPACT_TRIPLE ? 3u : 1u;
}

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_COMPACT_H */
