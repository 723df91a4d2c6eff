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

static void copy_name(char *dst, const char *src)
{
    size_t n = src != NULL ? strlen(src) : 0;
    if (n > 31)
        n = 31;
    memset(dst, 0, 32);
    if (n != 0)
        memcpy(dst, src, n);
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
    return 0;
}

int jointer_tfile_write_header(FILE *f, const jointer_tfile_header *h)
{
    unsigned char b[JOINTER_TFILE_HEADER_BYTES];

    if (f == NULL || h == NULL)
        return -EINVAL;
    memset(b, 0, sizeof b);
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
    if (fseek(f, 0L, SEEK_SET) != 0 || fwrite(b, 1, sizeof b, f) != sizeof b
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
    if (h->version != JOINTER_TFILE_VERSION
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
    if (!(h->flags & JOINTER_TFILE_COMPLETE)) { /* cut short: count what is there */
        long end;
        if (fseek(f, 0L, SEEK_END) != 0 || (end = ftell(f)) < 0
            || fseek(f, (long)JOINTER_TFILE_HEADER_BYTES, SEEK_SET) != 0)
            return -EIO;
        h->records = ((uint64_t)end - JOINTER_TFILE_HEADER_BYTES) / JOINTER_TFILE_RECORD_BYTES;
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
