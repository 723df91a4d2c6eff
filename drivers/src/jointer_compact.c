/*
 * jointer_compact.c - decoder of the compact trace encoding
 * (doc/trace-encoding.md). No OS header, no allocation.
 */
#include "jointer.h"

void jointer_compact_reset(jointer_compact_state *st)
{
    st->ts = 0;
    st->data = 0;
    st->synced = 0;
}

/* one packed record: delta in the bits above `data_bits`, data below */
static void packed(jointer_compact_state *st, uint32_t rec, unsigned data_bits, unsigned delta_bits,
                   jointer_trace_record *out)
{
    uint32_t mask = (1u << data_bits) - 1u;

    st->ts += (rec >> data_bits) & ((1u << delta_bits) - 1u);
    st->data = (st->data & ~mask) | (rec & mask);
    out->timestamp = st->ts;
    out->data = st->data;
}

int jointer_compact_decode(jointer_compact_state *st, const uint64_t *units, uint32_t n,
                           jointer_trace_record *out, uint32_t max, uint32_t *n_out,
                           uint32_t *skipped)
{
    uint32_t i, k = 0;

    if (st == NULL || (units == NULL && n != 0) || (out == NULL && max != 0) || n_out == NULL)
        return -EINVAL;
    for (i = 0; i < n; i++) {
        uint64_t u = units[i];
        unsigned type = (unsigned)(u >> 62);
        uint32_t hi30 = (uint32_t)(u >> 32) & 0x3FFFFFFFu, lo = (uint32_t)u;
        uint32_t need = type == 3u ? 3u : type == 2u ? 2u : 1u;

        if (type == 3u && ((u >> 60) & 3u) != 0)
            return -EILSEQ;
        if (!st->synced && type != 0u) {
            if (skipped != NULL)
                ++*skipped;
            continue;
        }
        if (max - k < need)
            break;
        switch (type) {
        case 0u: /* SYNC: T mod 2^30 = hi30, T - ts in [0, 2^30) */
            st->ts = st->synced ? st->ts + ((hi30 - st->ts) & 0x3FFFFFFFu) : hi30;
            st->data = lo;
            st->synced = 1;
            out[k].timestamp = st->ts;
            out[k++].data = lo;
            break;
        case 1u: /* LONG */
            st->ts += hi30;
            st->data = lo;
            out[k].timestamp = st->ts;
            out[k++].data = lo;
            break;
        case 2u: /* PAIR: A in bits 61..31, B in 30..0 */
            packed(st, (uint32_t)(u >> 31) & 0x7FFFFFFFu, 16u, 15u, &out[k++]);
            packed(st, (uint32_t)u & 0x7FFFFFFFu, 16u, 15u, &out[k++]);
            break;
        default: /* TRIPLE: A 59..40, B 39..20, C 19..0 */
            packed(st, (uint32_t)(u >> 40) & 0xFFFFFu, 10u, 10u, &out[k++]);
            packed(st, (uint32_t)(u >> 20) & 0xFFFFFu, 10u, 10u, &out[k++]);
            packed(st, (uint32_t)u & 0xFFFFFu, 10u, 10u, &out[k++]);
            break;
        }
    }
    *n_out = k;
    return (int)i;
}
