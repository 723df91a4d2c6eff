// SPDX-License-Identifier: MIT
/*
 * jointer_trace_file.c - the relay trace file (jointer_trace_file.h): a
 * little-endian header and raw records or compact units, written and read
 * byte by byte so the format does not depend on the host's endianness or
 * struct layout; compact units are decoded by jointer_compact.c.
 */
#include <string.h>

#include "jointer_trace_file.h"

#ifndef EPROTO
#define EPROTO 71
#endif

static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xFFu);
    p[1] = (unsigned char)((v >> 8) & 0xFFu);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xFFFFu);
    put16(p + 2, v >> 16);
}

static uint32_t get16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
    return get16(p) | get16(p + 2) << 16;
}

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)(v & 0xFFFFFFFFu));
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get64(const unsigned char *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* src into dst[size], truncated, NUL padded */
static void copy_text(char *dst, const char *src, size_t size)
{
    size_t n = src != NULL ? strlen(src) : 0;
    if (n > size - 1u)
        n = size - 1u;
    memset(dst, 0, size);
    if (n != 0)
        memcpy(dst, src, n);
}

static void copy_name(char *dst, const char *src)
{
    copy_text(dst, src, 32);
}

/* ---- the timeline block (version 2) ------------------------------------------ */

#define EXT_FIXED 44u     /* ext_bytes .. clock */
#define EXT_SPAN  28u
#define EXT_SYNC  16u
#define EXT_MAX   (EXT_FIXED + JOINTER_MAX_LANES * JOINTER_TFILE_NAME + JOINTER_MAX_SPANS * EXT_SPAN \
                   + JOINTER_TFILE_MAX_SYNCS * EXT_SYNC + 8u)

static uint32_t ext_bytes(unsigned lanes, unsigned spans)
{
    uint32_t n = EXT_FIXED + lanes * JOINTER_TFILE_NAME + spans * EXT_SPAN + JOINTER_TFILE_MAX_SYNCS * EXT_SYNC;
    return (n + 7u) & ~7u;
}

static size_t ext_encode(unsigned char *b, const jointer_tfile_header *h)
{
    uint32_t n = ext_bytes(h->num_lanes, h->num_spans);
    unsigned char *p = b + EXT_FIXED;
    unsigned k;

    memset(b, 0, n);
    put32(b, n);
    b[4] = h->num_lanes;
    b[5] = h->sync;
    b[6] = h->num_spans;
    b[7] = h->num_syncs;
    b[8] = JOINTER_TFILE_MAX_SYNCS;
    memcpy(b + 12, h->clock, 31);
    for (k = 0; k < h->num_lanes; k++, p += JOINTER_TFILE_NAME)
        memcpy(p, h->lane_names[k], JOINTER_TFILE_NAME - 1u);
    for (k = 0; k < h->num_spans; k++, p += EXT_SPAN) {
        memcpy(p, h->spans[k].name, JOINTER_TFILE_NAME - 1u);
        p[24] = h->spans[k].begin;
        p[25] = h->spans[k].end;
        p[26] = h->spans[k].flags;
    }
    for (k = 0; k < JOINTER_TFILE_MAX_SYNCS; k++, p += EXT_SYNC) {
        put64(p, h->syncs[k].before_ns);
        put64(p + 8, h->syncs[k].after_ns);
    }
    return n;
}

/* a span's lanes: both JOINTER_SPAN_LEVEL or both lanes of the trace */
static int span_ok(const jointer_tfile_span *sp, unsigned lanes)
{
    int level = sp->begin == JOINTER_SPAN_LEVEL;
    return level == (sp->end == JOINTER_SPAN_LEVEL) && (level || (sp->begin < lanes && sp->end < lanes))
           && sp->flags <= (JOINTER_SPAN_BY_ID | JOINTER_SPAN_TRACK_VALUE);
}

/* the block after the fixed header: -EPROTO malformed, -EIO short */
static int ext_decode(FILE *f, jointer_tfile_header *h)
{
    unsigned char b[EXT_MAX];
    const unsigned char *p;
    uint32_t n;
    unsigned k, slots;

    if (fread(b, 1, EXT_FIXED, f) != EXT_FIXED)
        return -EIO;
    n = get32(b);
    h->num_lanes = b[4];
    h->sync = b[5];
    h->num_spans = b[6];
    h->num_syncs = b[7];
    slots = b[8];
    if (h->num_lanes > JOINTER_MAX_LANES || h->num_spans > JOINTER_MAX_SPANS || h->sync > 1u
        || (h->sync && h->num_lanes == 0u) || slots > JOINTER_TFILE_MAX_SYNCS || h->num_syncs > slots
        || n % 8u != 0 || n > EXT_MAX
        || n < EXT_FIXED + h->num_lanes * JOINTER_TFILE_NAME + h->num_spans * EXT_SPAN + slots * EXT_SYNC)
        return -EPROTO;
    if (fread(b + EXT_FIXED, 1, n - EXT_FIXED, f) != n - EXT_FIXED)
        return -EIO;
    memcpy(h->clock, b + 12, 31);
    for (k = 0, p = b + EXT_FIXED; k < h->num_lanes; k++, p += JOINTER_TFILE_NAME)
        memcpy(h->lane_names[k], p, JOINTER_TFILE_NAME - 1u);
    for (k = 0; k < h->num_spans; k++, p += EXT_SPAN) {
        memcpy(h->spans[k].name, p, JOINTER_TFILE_NAME - 1u);
        h->spans[k].begin = p[24];
        h->spans[k].end = p[25];
        h->spans[k].flags = p[26];
        if (!span_ok(&h->spans[k], h->num_lanes))
            return -EPROTO;
    }
    for (k = 0; k < slots; k++, p += EXT_SYNC) {
        h->syncs[k].before_ns = get64(p);
        h->syncs[k].after_ns = get64(p + 8);
    }
    h->data_offset = JOINTER_TFILE_HEADER_BYTES + n;
    return 0;
}

int jointer_tfile_header_init(jointer_tfile_header *h, const jointer_cfg *cfg, unsigned trace)
{
    const jointer_trace_desc *t;

    if (h == NULL || cfg == NULL || trace >= cfg->num_traces || cfg->traces == NULL)
        return -EINVAL;
    t = &cfg->traces[trace];
    memset(h, 0, sizeof *h);
    h->version = JOINTER_TFILE_VERSION;
    h->encoding = JOINTER_TFILE_ENC_RAW;
    h->config_hash = cfg->config_hash;
    h->clock_hz = t->clock_hz;
    h->depth = t->depth;
    copy_name(h->monitor, cfg->name);
    copy_name(h->trace, t->name);
    copy_name(h->clock, t->clock);
    if (t->num_lanes <= JOINTER_MAX_LANES && t->num_spans <= JOINTER_MAX_SPANS
        && (t->num_lanes == 0u || t->lane_names != NULL) && (t->num_spans == 0u || t->spans != NULL)) {
        unsigned k;
        h->num_lanes = t->num_lanes;
        h->sync = t->sync != 0u && t->num_lanes != 0u;
        h->num_spans = t->num_spans;
        for (k = 0; k < t->num_lanes; k++)
            copy_text(h->lane_names[k], t->lane_names[k], JOINTER_TFILE_NAME);
        for (k = 0; k < t->num_spans; k++) {
            copy_text(h->spans[k].name, t->spans[k].name, JOINTER_TFILE_NAME);
            h->spans[k].begin = t->spans[k].begin;
            h->spans[k].end = t->spans[k].end;
            h->spans[k].flags = t->spans[k].flags;
        }
    }
    h->data_offset = JOINTER_TFILE_HEADER_BYTES + ext_bytes(h->num_lanes, h->num_spans);
    return 0;
}

int jointer_tfile_add_sync(jointer_tfile_header *h, uint64_t before_ns, uint64_t after_ns)
{
    if (h == NULL || after_ns < before_ns)
        return -EINVAL;
    if (h->num_syncs >= JOINTER_TFILE_MAX_SYNCS)
        return -ENOSPC;
    h->syncs[h->num_syncs].before_ns = before_ns;
    h->syncs[h->num_syncs].after_ns = after_ns;
    h->num_syncs++;
    return 0;
}

int jointer_tfile_write_header(FILE *f, const jointer_tfile_header *h)
{
    unsigned char b[JOINTER_TFILE_HEADER_BYTES + EXT_MAX];
    size_t n = JOINTER_TFILE_HEADER_BYTES;

    if (f == NULL || h == NULL || h->num_lanes > JOINTER_MAX_LANES || h->num_spans > JOINTER_MAX_SPANS
        || h->num_syncs > JOINTER_TFILE_MAX_SYNCS)
        return -EINVAL;
    memset(b, 0, JOINTER_TFILE_HEADER_BYTES);
    memcpy(b, JOINTER_TFILE_MAGIC, 8);
    put16(b + 8, h->version);
    put16(b + 10, h->encoding);
    put32(b + 12, h->config_hash);
    put32(b + 16, h->clock_hz);
    put32(b + 20, h->depth);
    put32(b + 24, h->flags);
    put32(b + 28, h->lost);
    put32(b + 32, (uint32_t)(h->records & 0xFFFFFFFFu));
    put32(b + 36, (uint32_t)(h->records >> 32));
    memcpy(b + 40, h->monitor, 31);
    memcpy(b + 72, h->trace, 31);
    if (h->version >= 2u)
        n += ext_encode(b + n, h);
    if (fseek(f, 0L, SEEK_SET) != 0 || fwrite(b, 1, n, f) != n
        || fseek(f, 0L, SEEK_END) != 0 || fflush(f) != 0)
        return -EIO;
    return 0;
}

int jointer_tfile_append(FILE *f, jointer_tfile_header *h, const jointer_trace_record *rec, uint32_t n)
{
    unsigned char b[64 * JOINTER_TFILE_RECORD_BYTES];
    uint32_t i = 0;

    if (f == NULL || h == NULL || (rec == NULL && n != 0))
        return -EINVAL;
    while (i < n) {
        uint32_t k = 0;
        for (; k < 64u && i < n; k++, i++) {
            put32(b + 8u * k, rec[i].timestamp);
            put32(b + 8u * k + 4u, rec[i].data);
        }
        if (fwrite(b, JOINTER_TFILE_RECORD_BYTES, k, f) != k)
            return -EIO;
        h->records += k;
    }
    return 0;
}

int jointer_tfile_append_units(FILE *f, jointer_tfile_header *h, const uint64_t *units, uint32_t n)
{
    unsigned char b[64 * 8];
    uint32_t i = 0;

    if (f == NULL || h == NULL || (units == NULL && n != 0) || h->encoding != JOINTER_TFILE_ENC_COMPACT)
        return -EINVAL;
    while (i < n) {
        uint32_t k = 0;
        for (; k < 64u && i < n; k++, i++) {
            put32(b + 8u * k, (uint32_t)(units[i] & 0xFFFFFFFFu));
            put32(b + 8u * k + 4u, (uint32_t)(units[i] >> 32));
        }
        if (fwrite(b, 8, k, f) != k)
            return -EIO;
        h->records += k;
    }
    return 0;
}

int jointer_tfile_finish(FILE *f, jointer_tfile_header *h, uint32_t lost)
{
    if (f == NULL || h == NULL)
        return -EINVAL;
    h->lost = lost;
    h->flags |= JOINTER_TFILE_COMPLETE;
    return jointer_tfile_write_header(f, h);
}

int jointer_tfile_read_header(FILE *f, jointer_tfile_header *h)
{
    unsigned char b[JOINTER_TFILE_HEADER_BYTES];

    if (f == NULL || h == NULL)
        return -EINVAL;
    memset(b, 0, sizeof b);
    if (fread(b, 1, sizeof b, f) != sizeof b)
        return memcmp(b, JOINTER_TFILE_MAGIC, 8) == 0 ? -EIO : -EPROTO;
    if (memcmp(b, JOINTER_TFILE_MAGIC, 8) != 0)
        return -EPROTO;
    memset(h, 0, sizeof *h);
    h->version = (uint16_t)get16(b + 8);
    h->encoding = (uint16_t)get16(b + 10);
    if (h->version < 1u || h->version > JOINTER_TFILE_VERSION
        || (h->encoding != JOINTER_TFILE_ENC_RAW && h->encoding != JOINTER_TFILE_ENC_COMPACT))
        return -EPROTO;
    h->config_hash = get32(b + 12);
    h->clock_hz = get32(b + 16);
    h->depth = get32(b + 20);
    h->flags = get32(b + 24);
    h->lost = get32(b + 28);
    h->records = (uint64_t)get32(b + 32) | (uint64_t)get32(b + 36) << 32;
    memcpy(h->monitor, b + 40, 31);
    memcpy(h->trace, b + 72, 31);
    h->data_offset = JOINTER_TFILE_HEADER_BYTES;
    if (h->version >= 2u) {
        int e = ext_decode(f, h);
        if (e < 0)
            return e;
    }
    if (!(h->flags & JOINTER_TFILE_COMPLETE)) { /* cut short: count what is there */
        long end;
        if (fseek(f, 0L, SEEK_END) != 0 || (end = ftell(f)) < 0
            || fseek(f, (long)h->data_offset, SEEK_SET) != 0)
            return -EIO;
        h->records = (uint64_t)end > h->data_offset
                     ? ((uint64_t)end - h->data_offset) / JOINTER_TFILE_RECORD_BYTES : 0u;
    }
    return 0;
}

int jointer_tfile_read(FILE *f, jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    unsigned char b[64 * JOINTER_TFILE_RECORD_BYTES]; /* 64 records a fread */

    if (f == NULL || n == NULL || (rec == NULL && max != 0))
        return -EINVAL;
    *n = 0;
    while (*n < max) {
        uint32_t want = max - *n < 64u ? max - *n : 64u, k;
        size_t got = fread(b, 1, want * JOINTER_TFILE_RECORD_BYTES, f);
        for (k = 0; k < got / JOINTER_TFILE_RECORD_BYTES; k++, ++*n) {
            rec[*n].timestamp = get32(b + 8u * k);
            rec[*n].data = get32(b + 8u * k + 4u);
        }
        if (got % JOINTER_TFILE_RECORD_BYTES != 0)
            return -EPROTO;
        if (got < want * JOINTER_TFILE_RECORD_BYTES)
            break;
    }
    return ferror(f) ? -EIO : 0;
}

void jointer_tfile_reader_init(jointer_tfile_reader *r)
{
    if (r == NULL)
        return;
    jointer_compact_reset(&r->st);
    r->items = 0;
    r->skipped = 0;
}

int jointer_tfile_read_records(FILE *f, const jointer_tfile_header *h, jointer_tfile_reader *r,
                               jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    unsigned char b[8];

    if (f == NULL || h == NULL || r == NULL || n == NULL || (rec == NULL && max != 0))
        return -EINVAL;
    if (h->encoding == JOINTER_TFILE_ENC_RAW) {
        int e = jointer_tfile_read(f, rec, max, n);
        r->items += *n;
        return e;
    }
    *n = 0;
    if (h->encoding != JOINTER_TFILE_ENC_COMPACT || max < 3u)
        return -EINVAL;
    while (max - *n >= 3u) { /* room for any unit */
        uint64_t u;
        uint32_t got, skipped = 0;
        int e;
        size_t k = fread(b, 1, sizeof b, f);
        if (k == 0)
            break;
        if (k != sizeof b)
            return -EPROTO;
        u = (uint64_t)get32(b) | (uint64_t)get32(b + 4) << 32;
        r->items++;
        e = jointer_compact_decode(&r->st, &u, 1, rec + *n, max - *n, &got, &skipped);
        if (e < 0)
            return e;
        r->skipped += skipped;
        *n += got;
    }
    return ferror(f) ? -EIO : 0;
}
