// SPDX-License-Identifier: MIT
/*
 * test_descfile.c - the descriptor file parser (jointer_descfile.c) and
 * loader (jointer_descfile_load.c) against the compiled-in descriptors.
 *
 * usage: test_descfile FILE.jdesc... : each file is parsed and its jointer_cfg
 * compared field by field with the compiled-in <name>_cfg of the same name
 * (the test monitors of drivers/tests/fixtures, or -DGEN_CFG=<name>_cfg for
 * one generated config: gen_check.sh); then every error on that file:
 * truncation at every length, a flipped byte at every position, wrong magic,
 * another format version, bad indices with the CRC recomputed (so the
 * validation, not the CRC, refuses them), a short arena; and the hosted
 * load, find and free.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jointer.h"
#include "jointer_descfile.h"
#include "jt_test.h"

int jt_failed;

#ifdef GEN_CFG
extern const jointer_cfg GEN_CFG;
static const jointer_cfg *const known[] = {&GEN_CFG};
#else
extern const jointer_cfg accel_mon_cfg, trace_mon_cfg, two_lmic_cfg, relay_mon_cfg, sink_mon_cfg,
    wide_mon_cfg, lanes_mon_cfg;
static const jointer_cfg *const known[] = {&accel_mon_cfg, &trace_mon_cfg, &two_lmic_cfg, &relay_mon_cfg,
                                           &sink_mon_cfg, &wide_mon_cfg, &lanes_mon_cfg};
#endif

/* the file under test */
static unsigned char *file;
static size_t file_len;
static const char *file_path;
static const jointer_cfg *ref;
static size_t checked;

static unsigned char arena[1u << 16];
static unsigned char copy[1u << 16];

/* ---- helpers ---------------------------------------------------------------- */

static unsigned get16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* CRC-32 with a table (a different way from the library's bitwise loop) */
static uint32_t crc32_table(const unsigned char *p, size_t n)
{
    static uint32_t t[256];
    uint32_t c;
    size_t i;
    unsigned k;

    for (i = 0; i < 256u; i++) {
        c = (uint32_t)i;
        for (k = 0; k < 8u; k++)
            c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    c = 0xFFFFFFFFu;
    for (i = 0; i < n; i++)
        c = t[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void reseal(unsigned char *b, size_t len)
{
    put32(b + 12, crc32_table(b + 16, len - 16u));
}

static int parse(const unsigned char *b, size_t len, jointer_cfg *c)
{
    return jointer_descfile_parse(b, len, arena, sizeof arena, c);
}

static int same_str(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* ---- field by field --------------------------------------------------------- */

static int same_lmic(const jointer_lmic_desc *a, const jointer_lmic_desc *b)
{
    return same_str(a->name, b->name) && a->base == b->base && a->first_sniffer == b->first_sniffer
           && a->num_sniffers == b->num_sniffers && a->num_irq == b->num_irq && a->clock_hz == b->clock_hz
           && same_str(a->clock, b->clock);
}

static int same_sniffer(const jointer_sniffer_desc *a, const jointer_sniffer_desc *b)
{
    return same_str(a->name, b->name) && a->lmic == b->lmic && a->index == b->index
           && a->num_dcapfs == b->num_dcapfs && a->pm_addresses == b->pm_addresses
           && a->pm_pc_width == b->pm_pc_width;
}

static int same_bounds(const jointer_metric_desc *a, const jointer_metric_desc *b)
{
    unsigned k;
    if ((a->bounds == NULL) != (b->bounds == NULL))
        return 0;
    for (k = 0; a->bounds != NULL && k + 1u < a->buckets; k++)
        if (a->bounds[k] != b->bounds[k])
            return 0;
    return 1;
}

static int same_metric(const jointer_metric_desc *a, const jointer_metric_desc *b)
{
    return same_str(a->name, b->name) && a->result_offset == b->result_offset
           && a->threshold_offset == b->threshold_offset && a->low_reset == b->low_reset
           && a->high_reset == b->high_reset && a->sniffer == b->sniffer && a->lmic == b->lmic
           && a->dcapf == b->dcapf && a->width == b->width && a->extractor == b->extractor
           && a->aggregator == b->aggregator && a->flags == b->flags && a->irq_bit == b->irq_bit
           && a->buckets == b->buckets && same_bounds(a, b);
}

/* lanes, sync and spans (format 3) */
static int same_lanes(const jointer_trace_desc *a, const jointer_trace_desc *b)
{
    unsigned k;
    if (a->num_lanes != b->num_lanes || a->sync != b->sync || a->num_spans != b->num_spans
        || (a->lane_names == NULL) != (b->lane_names == NULL) || (a->spans == NULL) != (b->spans == NULL))
        return 0;
    for (k = 0; k < a->num_lanes; k++)
        if (!same_str(a->lane_names[k], b->lane_names[k]))
            return 0;
    for (k = 0; k < a->num_spans; k++)
        if (!same_str(a->spans[k].name, b->spans[k].name) || a->spans[k].begin != b->spans[k].begin
            || a->spans[k].end != b->spans[k].end || a->spans[k].flags != b->spans[k].flags)
            return 0;
    return 1;
}

static int same_trace(const jointer_trace_desc *a, const jointer_trace_desc *b)
{
    return same_str(a->name, b->name) && a->reg_offset == b->reg_offset && a->ram_offset == b->ram_offset
           && a->depth == b->depth && a->low_reset == b->low_reset && a->high_reset == b->high_reset
           && a->sniffer == b->sniffer && a->lmic == b->lmic && a->dcapf == b->dcapf && a->ring == b->ring
           && a->irq_bit == b->irq_bit && a->filter == b->filter && a->relay == b->relay
           && a->clock_hz == b->clock_hz && a->sink_bytes == b->sink_bytes && a->encoding == b->encoding
           && a->sink_ring_log2 == b->sink_ring_log2 && same_str(a->clock, b->clock) && same_lanes(a, b);
}

static int same_header(const jointer_cfg *a, const jointer_cfg *b)
{
    return same_str(a->name, b->name) && a->config_hash == b->config_hash && a->version == b->version
           && a->info == b->info && a->span == b->span && a->window == b->window
           && a->base_address == b->base_address && a->bus_clock_hz == b->bus_clock_hz
           && a->num_lmics == b->num_lmics && a->num_sniffers == b->num_sniffers
           && a->num_metrics == b->num_metrics && a->num_traces == b->num_traces
           && a->num_dcapfs == b->num_dcapfs && (a->metrics == NULL) == (b->metrics == NULL)
           && (a->traces == NULL) == (b->traces == NULL);
}

/* every field of a equals b's; prints the first difference */
static int same_cfg(const jointer_cfg *a, const jointer_cfg *b)
{
    unsigned i;
    if (!same_header(a, b)) {
        printf("  %s: header fields differ\n", file_path);
        return 0;
    }
    for (i = 0; i < a->num_lmics; i++)
        if (!same_lmic(&a->lmics[i], &b->lmics[i]))
            return printf("  %s: lmic %u differs\n", file_path, i), 0;
    for (i = 0; i < a->num_sniffers; i++)
        if (!same_sniffer(&a->sniffers[i], &b->sniffers[i]))
            return printf("  %s: sniffer %u differs\n", file_path, i), 0;
    for (i = 0; i < a->num_metrics; i++)
        if (!same_metric(&a->metrics[i], &b->metrics[i]))
            return printf("  %s: metric %u (%s) differs\n", file_path, i, b->metrics[i].name), 0;
    for (i = 0; i < a->num_traces; i++)
        if (!same_trace(&a->traces[i], &b->traces[i]))
            return printf("  %s: trace %u (%s) differs\n", file_path, i, b->traces[i].name), 0;
    return 1;
}

/* ---- cases ------------------------------------------------------------------ */

TEST(parses_as_compiled_in)
{
    jointer_cfg c;
    size_t need = 0;
    CHECK_OK(jointer_descfile_arena_size(file, file_len, &need));
    CHECK(need > 0 && need <= sizeof arena);
    CHECK_OK(parse(file, file_len, &c));
    CHECK(same_cfg(&c, ref));
    /* an unaligned arena of exactly the size asked for */
    CHECK_OK(jointer_descfile_parse(file, file_len, arena + 1, need, &c));
    CHECK(same_cfg(&c, ref));
    CHECK_EQ(jointer_descfile_parse(file, file_len, arena, need - 1u, &c), -ENOSPC);
    CHECK_EQ(jointer_descfile_parse(file, file_len, NULL, need, &c), -ENOSPC);
    /* more bytes than the file (a padded ROM): the rest is ignored */
    memcpy(copy, file, file_len);
    memset(copy + file_len, 0xEE, 64);
    CHECK_OK(parse(copy, file_len + 64u, &c));
    CHECK(same_cfg(&c, ref));
}

TEST(truncated_at_every_length)
{
    jointer_cfg c;
    size_t n;
    for (n = 0; n < file_len; n++)
        CHECK_EQ(parse(file, n, &c), -EINVAL);
}

TEST(every_flipped_byte_is_refused)
{
    jointer_cfg c;
    size_t i;
    for (i = 0; i < file_len; i++) {
        int r;
        memcpy(copy, file, file_len);
        copy[i] ^= 0x5Au;
        r = parse(copy, file_len, &c);
        if (i < 4u)
            CHECK_EQ(r, -EILSEQ);
        else if (i < 6u)
            CHECK_EQ(r, -EPROTONOSUPPORT);
        else if (i < 12u)
            CHECK(r == -EINVAL || r == -EBADMSG); /* header size, file length */
        else
            CHECK_EQ(r, -EBADMSG);
    }
}

TEST(magic_and_version)
{
    jointer_cfg c;
    memcpy(copy, file, file_len);
    CHECK_EQ(crc32_table(file + 16, file_len - 16u), get32(file + 12));
    copy[3] = 'X';
    CHECK_EQ(parse(copy, file_len, &c), -EILSEQ);
    CHECK_EQ(parse((const unsigned char *)"JD", 2, &c), -EINVAL);   /* a truncated magic */
    CHECK_EQ(parse((const unsigned char *)"XD", 2, &c), -EILSEQ);
    memcpy(copy, file, file_len);
    copy[4] = 4;                       /* format 4, CRC still right */
    reseal(copy, file_len);
    CHECK_EQ(parse(copy, file_len, &c), -EPROTONOSUPPORT);
    copy[4] = 0;
    reseal(copy, file_len);
    CHECK_EQ(parse(copy, file_len, &c), -EPROTONOSUPPORT);
    memcpy(copy, file, file_len);
    copy[22] ^= 1u;                    /* descriptor of another major version (the hardware's) */
    reseal(copy, file_len);
    CHECK_EQ(parse(copy, file_len, &c), -EPROTONOSUPPORT);
    CHECK_EQ(parse(NULL, file_len, &c), -EINVAL);
    CHECK_EQ(jointer_descfile_parse(file, file_len, arena, sizeof arena, NULL), -EINVAL);
}

/* offsets of the records (doc/descriptor-file.md) */
static size_t sniffer_at(void) { return 64u + 20u * file[52]; }
static size_t metric_at(void) { return sniffer_at() + 12u * (file[54] | file[55] << 8); }
static size_t trace_at(void) { return metric_at() + 40u * (file[56] | file[57] << 8); }
static size_t lanes_at(void) { return trace_at() + 48u * (file[58] | file[59] << 8) + 4u * (file[62] | file[63] << 8); }

/* one byte (or LE u16/u32 of size n) set to v at off, CRC recomputed: -EINVAL */
static int tampered(size_t off, unsigned n, uint32_t v)
{
    jointer_cfg c;
    unsigned k;
    memcpy(copy, file, file_len);
    for (k = 0; k < n; k++)
        copy[off + k] = (unsigned char)(v >> (8u * k));
    reseal(copy, file_len);
    return parse(copy, file_len, &c);
}

static unsigned lanes_total(void)
{
    unsigned i, n = 0;
    for (i = 0; i < ref->num_traces; i++)
        n += ref->traces[i].num_lanes;
    return n;
}

/* format 3: lanes and spans of the first trace with lanes (every count and
 * index checked: a count that moves the tables is refused too) */
static void lanes_tampered(size_t t)
{
    unsigned i, lanes = 0, spans = 0;
    for (i = 0; i < ref->num_traces && ref->traces[i].num_lanes == 0; i++, t += 48u) {
        lanes += ref->traces[i].num_lanes;
        spans += ref->traces[i].num_spans;
    }
    if (i == ref->num_traces)
        return;
    CHECK_EQ(tampered(t + 39, 1, 17), -EINVAL);                        /* more than 16 lanes */
    CHECK_EQ(tampered(t + 40, 1, 2), -EINVAL);                         /* sync neither 0 nor 1 */
    CHECK_EQ(tampered(t + 41, 1, 17), -EINVAL);                        /* more than 16 spans */
    CHECK_EQ(tampered(lanes_at() + 4u * lanes, 4, 0xFFFFFFF0u), -EINVAL); /* a lane's name */
    if (ref->traces[i].num_spans > 0) {
        size_t sp = lanes_at() + 4u * (lanes_total()) + 8u * spans;
        CHECK_EQ(tampered(sp + 4, 1, ref->traces[i].num_lanes), -EINVAL); /* begin beyond the lanes */
        CHECK_EQ(tampered(sp + 5, 1, JOINTER_SPAN_LEVEL), -EINVAL);    /* level on one side only */
        CHECK_EQ(tampered(sp + 6, 1, 4), -EINVAL);                     /* unknown flag */
        checked++;
    }
}

TEST(bad_indices_with_a_valid_crc)
{
    unsigned ns = ref->num_sniffers;
    CHECK_EQ(tampered(0, 0, 0), 0);                                    /* reseal alone: still fine */
    CHECK_EQ(tampered(48, 4, (uint32_t)file_len), -EINVAL);            /* name beyond the strings */
    CHECK_EQ(tampered(52, 1, 0), -EINVAL);                             /* no LMIC */
    CHECK_EQ(tampered(60, 2, ref->num_dcapfs + 1u), -EINVAL);          /* num_dcapfs */
    CHECK_EQ(tampered(64 + 8, 2, 1), -EINVAL);                         /* LMIC 0 first_sniffer */
    CHECK_EQ(tampered(64 + 10, 1, ref->lmics[0].num_sniffers + 1u), -EINVAL);
    CHECK_EQ(tampered(sniffer_at() + 4, 1, ref->num_lmics), -EINVAL); /* sniffer 0 lmic */
    CHECK_EQ(tampered(sniffer_at() + 5, 1, 1), -EINVAL);              /* sniffer 0 index (PROG field) */
    CHECK_EQ(tampered(sniffer_at(), 4, 0xFFFFFFFFu), -EINVAL);         /* sniffer 0 name */
    CHECK_EQ(tampered(sniffer_at() + 9, 1, 65), -EINVAL);             /* sniffer 0 data width */
    CHECK_EQ(tampered(file_len - 1u, 1, 'x'), -EINVAL);               /* strings not NUL-terminated */
    if (ref->num_metrics > 0) {
        size_t m = metric_at();
        CHECK_EQ(tampered(m + 28, 2, ns), -EINVAL);                    /* sniffer out of the table */
        CHECK_EQ(tampered(m + 30, 1, ref->num_lmics), -EINVAL);        /* lmic out of the table */
        CHECK_EQ(tampered(m + 31, 1, ref->sniffers[ref->metrics[0].sniffer].num_dcapfs), -EINVAL);
        CHECK_EQ(tampered(m + 32, 1, 65), -EINVAL);                    /* width */
        CHECK_EQ(tampered(m + 34, 1, 6), -EINVAL);                     /* aggregator */
        CHECK_EQ(tampered(m + 36, 1, 32), -EINVAL);                    /* irq bit */
        if (ref->metrics[0].bounds == NULL)
            CHECK_EQ(tampered(m + 38, 2, 0), -EINVAL);                 /* bounds of a non-histogram */
    }
    if (ref->num_traces > 0) {
        size_t t = trace_at();
        CHECK_EQ(tampered(t + 28, 2, ns), -EINVAL);
        CHECK_EQ(tampered(t + 31, 1, ref->sniffers[ref->traces[0].sniffer].num_dcapfs), -EINVAL);
        CHECK_EQ(tampered(t + 33, 1, 31), -EINVAL);                    /* full bit would be 32 */
        CHECK_EQ(tampered(t + 44, 4, (uint32_t)file_len), -EINVAL);   /* clock name beyond the strings */
        lanes_tampered(t);
    }
}

TEST(histogram_bounds_index)
{
    unsigned i;
    size_t m = metric_at();
    for (i = 0; i < ref->num_metrics; i++, m += 40u) {
        if (ref->metrics[i].bounds == NULL)
            continue;
        /* the last boundary one past the pool */
        CHECK_EQ(tampered(m + 38, 2, (file[62] | file[63] << 8) - ref->metrics[i].buckets + 2u), -EINVAL);
        CHECK_EQ(tampered(m + 37, 1, 1), -EINVAL);                     /* bounds for one bucket */
        checked++;
    }
}

/* a descriptor of format 1 (32-bit bounds, written before format 2) still reads:
 * the Y9 monitor's, as the fuzz corpus keeps it (one selector byte first) */
TEST(reads_format_1)
{
    static unsigned char old[4096];
    jointer_cfg c;
    size_t n;
    unsigned i, found = 0;
    FILE *f = fopen("drivers/tests/fuzz_seeds_descfile/selective_accumulations", "rb");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    n = fread(old, 1, sizeof old, f);
    fclose(f);
    CHECK_EQ(get16(old + 1 + 4), 1u);                  /* it is format 1 */
    CHECK_OK(parse(old + 1, n - 1u, &c));
    CHECK_EQ(c.config_hash, 0x11EB551Eu);
    for (i = 0; i < c.num_sniffers; i++)
        CHECK_EQ(c.sniffers[i].data_width, 0u);         /* 32 bits or fewer: one INIT word */
    for (i = 0; i < c.num_metrics; i++)
        if (strcmp(c.metrics[i].name, "bytes_written") == 0) {
            CHECK_EQ(c.metrics[i].low_reset, 0u);
            CHECK_EQ(c.metrics[i].high_reset, 0xFFFFu);
            found++;
        }
    CHECK_EQ(found, 1u);
}

TEST(load_find_free)
{
    jointer_cfg *c = NULL;
    char path[4096], dirs[4200];
    const char *slash = strrchr(file_path, '/');
    CHECK_OK(jointer_descfile_load(file_path, &c));
    CHECK(same_cfg(c, ref));
    jointer_descfile_free(c);
    CHECK_EQ(jointer_descfile_load("/nonexistent/x.jdesc", &c), -ENOENT);
    if (slash == NULL)
        return;
    snprintf(dirs, sizeof dirs, "/nonexistent:%.*s", (int)(slash - file_path), file_path);
    c = NULL;
    CHECK_OK(jointer_descfile_find(dirs, ref->config_hash, &c, path, sizeof path));
    CHECK(same_cfg(c, ref));
    jointer_descfile_free(c);
    CHECK_EQ(jointer_descfile_find(dirs, ref->config_hash ^ 1u, &c, path, sizeof path), -ENOENT);
}

static const jt_case cases[] = {
    JT_CASE(parses_as_compiled_in), JT_CASE(truncated_at_every_length), JT_CASE(reads_format_1),
    JT_CASE(every_flipped_byte_is_refused), JT_CASE(magic_and_version),
    JT_CASE(bad_indices_with_a_valid_crc), JT_CASE(histogram_bounds_index), JT_CASE(load_find_free),
};

static int read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    file = (unsigned char *)malloc(sizeof copy);
    file_len = file != NULL ? fread(file, 1, sizeof copy - 64u, f) : 0u;
    fclose(f);
    return file_len > 64u && file_len < sizeof copy - 64u ? 0 : -1;
}

static const jointer_cfg *known_named(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i]->name, name) == 0)
            return known[i];
    return NULL;
}

int main(int argc, char **argv)
{
    int i, bad = 0;
    for (i = 1; i < argc; i++) {
        const char *s = strrchr(argv[i], '/');
        char name[256];
        snprintf(name, sizeof name, "%s", s != NULL ? s + 1 : argv[i]);
        if (strstr(name, ".jdesc") != NULL)
            *strstr(name, ".jdesc") = '\0';
        file_path = argv[i];
        ref = known_named(name);
        if (ref == NULL || read_file(argv[i]) < 0) {
            printf("test_descfile: %s: no compiled-in %s_cfg, or not a readable descriptor file\n", argv[i], name);
            return 1;
        }
        bad |= jt_run(name, cases, sizeof cases / sizeof cases[0], 1, argv);
        free(file);
    }
    printf("test_descfile: %d files, %zu histograms with explicit bounds\n", argc - 1, checked);
    return argc < 2 || bad;
}
