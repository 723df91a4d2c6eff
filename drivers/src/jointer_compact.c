// SPDX-License-Identifier: MIT
/*
 * jointer_compact.c - decoder of the compact trace encoding (see
 * jointer_compact.h and doc/trace-encoding.md). The Python reference is
 * sim/jointer_sim/compact.py (CompactDecoder); drivers/tests/test_compact.c
 * checks this file against vectors it produced.
 */
#include <limits.h>

#include "jointer.h"
#include "jointer_compact.h"

#define M30 0x3FFFFFFFu

void jointer_compact_reset(jointer_compact_state *st)
{
    if (st == NULL)
        return;
    st->ts = 0;
    st->data = 0;
    st->synced = 0;
}

/* one record from a delta and the low `bits` bits of its data (the others
 * are the previous record's) */
static void put(jointer_compact_state *st, jointer_trace_record *out, uint32_t delta,
                uint32_t low, unsigned bits)
{
    uint32_t keep = bits >= 32u ? 0u : ~((1u << bits) - 1u);
    st->ts += delta;
    st->data = (st->data & keep) | low;
    out->timestamp = st->ts;
    out->data = st->data;
}

int jointer_compact_decode(jointer_compact_state *st, const uint64_t *units, uint32_t n,
                           jointer_trace_record *out, uint32_t max, uint32_t *n_out,
                           uint32_t *skipped)
{
    uint32_t i, w = 0, skip = 0;

    if (st == NULL || n_out == NULL || (units == NULL && n != 0) || (out == NULL && max != 0))
        return -EINVAL;
    if (n > (uint32_t)INT_MAX) /* the count consumed must fit the return value */
        n = (uint32_t)INT_MAX;
    for (i = 0; i < n; i++) {
        uint64_t u = units[i];
        uint32_t kind = (uint32_t)(u >> 62);
        uint32_t hi = (uint32_t)(u >> 32), lo = (uint32_t)u;

        if (!st->synced && kind != JOINTER_COMPACT_SYNC) {
            skip++;
            continue;
        }
        if (kind == JOINTER_COMPACT_TRIPLE && ((hi >> 28) & 3u) != 0) {
            if (i == 0) {
                *n_out = 0;
                return -EILSEQ;
            }
            break;
        }
        if (max - w < jointer_compact_unit_records(u))
            break;
        switch (kind) {
        case JOINTER_COMPACT_SYNC: {
            uint32_t v = hi & M30;
            /* the timestamp T with T mod 2^30 = v and T - ts in [0, 2^30) */
            st->ts = st->synced ? st->ts + ((v - st->ts) & M30) : v;
            st->data = lo;
            st->synced = 1;
            out[w].timestamp = st->ts;
            out[w].data = lo;
            w++;
            break;
        }
        case JOINTER_COMPACT_LONG:
            put(st, &out[w++], hi & M30, lo, 32);
            break;
        case JOINTER_COMPACT_PAIR: {
            uint32_t a = (uint32_t)(u >> 31) & 0x7FFFFFFFu, b = lo & 0x7FFFFFFFu;
            put(st, &out[w++], a >> 16, a & 0xFFFFu, 16);
            put(st, &out[w++], b >> 16, b & 0xFFFFu, 16);
            break;
        }
        default: { /* TRIPLE */
            uint32_t a = (uint32_t)(u >> 40) & 0xFFFFFu, b = (uint32_t)(u >> 20) & 0xFFFFFu;
            uint32_t c = lo & 0xFFFFFu;
            put(st, &out[w++], a >> 10, a & 0x3FFu, 10);
            put(st, &out[w++], b >> 10, b & 0x3FFu, 10);
            put(st, &out[w++], c >> 10, c & 0x3FFu, 10);
            break;
        }
        }
    }
    *n_out = w;
    if (skipped != NULL)
        *skipped += skip;
    return (int)i;
}
