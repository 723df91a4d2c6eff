// SPDX-License-Identifier: MIT
/*
 * fuzz_descfile.c - libFuzzer harness of the descriptor file parser
 * (jointer_descfile_arena_size, jointer_descfile_parse): any byte string as a
 * .jdesc. The parser must return an error or a jointer_cfg, never read out of
 * bounds (ASan, UBSan); the CRC is patched in half of the inputs so the
 * checks behind it are reached. What it returns must be usable without
 * leaving its tables: every string NUL-terminated inside the input, every
 * index (LMIC sniffer ranges, metric/trace sniffer and lmic, histogram
 * bounds) inside its table; jointer_init then checks the register map as for
 * a compiled-in descriptor.
 * make fuzz-smoke runs it for FUZZ_SMOKE_TIME seconds (seeds: generated .jdesc
 * files in drivers/tests/fuzz_seeds_descfile).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jointer_descfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char buf[1u << 16];
static unsigned char arena[1u << 20];

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    size_t i;
    unsigned k;
    for (i = 0; i < n; i++) {
        c ^= p[i];
        for (k = 0; k < 8u; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

/* the first byte chooses: patch the CRC over the file length the header gives */
static void patch_crc(unsigned char *b, size_t size)
{
    uint32_t len, c;
    if (size < 16u)
        return;
    len = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    if (len < 16u || len > size)
        return;
    c = crc32_of(b + 16, len - 16u);
    b[12] = (unsigned char)c;
    b[13] = (unsigned char)(c >> 8);
    b[14] = (unsigned char)(c >> 16);
    b[15] = (unsigned char)(c >> 24);
}

static int inside(const char *s, size_t size)
{
    const unsigned char *p = (const unsigned char *)s;
    return p >= buf && p < buf + size && memchr(p, 0, size - (size_t)(p - buf)) != NULL;
}

static void check(const jointer_cfg *c, size_t size)
{
    unsigned i, k;
    if (!inside(c->name, size) || c->num_lmics == 0)
        abort();
    for (i = 0; i < c->num_lmics; i++)
        if (!inside(c->lmics[i].name, size)
            || (unsigned)c->lmics[i].first_sniffer + c->lmics[i].num_sniffers > c->num_sniffers)
            abort();
    for (i = 0; i < c->num_sniffers; i++)
        if (!inside(c->sniffers[i].name, size) || c->sniffers[i].lmic >= c->num_lmics)
            abort();
    for (i = 0; i < c->num_metrics; i++) {
        const jointer_metric_desc *m = &c->metrics[i];
        if (!inside(m->name, size) || m->sniffer >= c->num_sniffers || m->lmic >= c->num_lmics
            || m->dcapf >= c->sniffers[m->sniffer].num_dcapfs)
            abort();
        for (k = 0; m->bounds != NULL && k + 1u < m->buckets; k++)
            (void)*(volatile const uint32_t *)&m->bounds[k];   /* ASan: inside the arena's pool */
    }
    for (i = 0; i < c->num_traces; i++) {
        const jointer_trace_desc *t = &c->traces[i];
        if (!inside(t->name, size) || t->sniffer >= c->num_sniffers || t->lmic >= c->num_lmics
            || t->dcapf >= c->sniffers[t->sniffer].num_dcapfs)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jointer_cfg c;
    size_t need = 0;
    int r;

    if (size < 1u || size - 1u > sizeof buf)
        return 0;
    memcpy(buf, data + 1, size - 1u);
    size--;
    if (data[0] & 1u)
        patch_crc(buf, size);
    r = jointer_descfile_arena_size(buf, size, &need);
    if (r < 0) {
        if (jointer_descfile_parse(buf, size, arena, sizeof arena, &c) != r)
            abort();
        return 0;
    }
    if (need > sizeof arena)
        return 0;
    if (jointer_descfile_parse(buf, size, arena, need - 1u, &c) != -ENOSPC)
        abort();
    if (jointer_descfile_parse(buf, size, arena, need, &c) == 0)
        check(&c, size);
    return 0;
}
