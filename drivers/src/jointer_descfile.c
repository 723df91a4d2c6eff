// SPDX-License-Identifier: MIT
/*
 * jointer_descfile.c - parse a descriptor file (doc/descriptor-file.md) into
 * a jointer_cfg, portable C99 without malloc (bare metal too).
 *
 * The input is untrusted (a file, a ROM): every size, offset, count and
 * index is checked against the buffer and the tables before it is used, so
 * that libjointer never indexes outside its tables; the register-map checks
 * (offsets inside the span) stay jointer_init's, as for compiled-in tables.
 */
#include <stddef.h>
#include <string.h>

#include "jointer_descfile.h"

#define LMIC_REC2   12u     /* formats 1 and 2 */
#define LMIC_REC    20u     /* format 3: its clock */
#define SNIFFER_REC 12u
#define METRIC_REC1 32u     /* format 1: 32-bit filter bounds */
#define METRIC_REC  40u     /* format 2: 64-bit filter bounds */
#define TRACE_REC2  40u     /* formats 1 and 2 */
#define TRACE_REC   48u     /* format 3: lanes, spans, clock name */
#define LANE_REC    4u
#define SPAN_REC    8u
#define NO_STRING   0xFFFFFFFFu
#define NO_BOUNDS   0xFFFFu
#define CRC_FROM    16u

/* ---- little-endian fields ----------------------------------------------------- */

static uint16_t le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* zlib's CRC-32 (reflected 0xEDB88320, init and final xor all ones) */
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
    return c ^ 0xFFFFFFFFu;
}

/* ---- header ------------------------------------------------------------------- */

typedef struct layout {
    const unsigned char *b;
    unsigned format;                 /* JOINTER_DESCFILE_FORMAT_MIN..JOINTER_DESCFILE_FORMAT */
    size_t lmic_rec;                 /* LMIC record bytes of that format */
    size_t metric_rec;               /* metric record bytes of that format */
    size_t trace_rec;                /* trace record bytes of that format */
    size_t length;                   /* file length (header) */
    unsigned lmics, sniffers, metrics, traces, bounds;
    unsigned lanes, spans;           /* format 3: the sums of the traces' num_lanes, num_spans */
    size_t lmic_at, sniffer_at, metric_at, trace_at, bounds_at, lanes_at, spans_at, strings_at;
} layout;

/* the magic, or a prefix of it when the buffer is shorter (then truncated) */
static int check_magic(const unsigned char *b, size_t len)
{
    size_t n = len < 4u ? len : 4u;
    if (memcmp(b, JOINTER_DESCFILE_MAGIC, n) != 0)
        return -EILSEQ;
    return len < 4u ? -EINVAL : 0;
}

/* format 3: the lanes and spans listed after the bounds (the traces' counts;
 * the trace table is inside the file) */
static void count_lanes_spans(layout *l)
{
    unsigned i;

    l->lanes = l->spans = 0;
    for (i = 0; l->format >= 3u && i < l->traces; i++) {
        const unsigned char *p = l->b + l->trace_at + TRACE_REC * i;
        l->lanes += p[39];
        l->spans += p[41];
    }
}

static int read_header(const void *buf, size_t len, layout *l)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t need;
    int r;

    if (buf == NULL)
        return -EINVAL;
    r = check_magic(b, len);
    if (r < 0)
        return r;
    if (len < 6u)
        return -EINVAL;
    l->format = le16(b + 4);
    if (l->format < JOINTER_DESCFILE_FORMAT_MIN || l->format > JOINTER_DESCFILE_FORMAT)
        return -EPROTONOSUPPORT;
    l->lmic_rec = l->format >= 3u ? LMIC_REC : LMIC_REC2;
    l->metric_rec = l->format >= 2u ? METRIC_REC : METRIC_REC1;
    l->trace_rec = l->format >= 3u ? TRACE_REC : TRACE_REC2;
    if (len < JOINTER_DESCFILE_HEADER || le16(b + 6) != JOINTER_DESCFILE_HEADER)
        return -EINVAL;
    l->b = b;
    l->length = le32(b + 8);
    if (l->length < JOINTER_DESCFILE_HEADER || l->length > len)
        return -EINVAL;
    if (crc32_of(b + CRC_FROM, l->length - CRC_FROM) != le32(b + 12))
        return -EBADMSG;
    if ((le32(b + 20) >> 16) != (JOINTER_VERSION_VALUE >> 16))
        return -EPROTONOSUPPORT;     /* for another major version of the monitors */
    l->lmics = b[52];
    l->sniffers = le16(b + 54);
    l->metrics = le16(b + 56);
    l->traces = le16(b + 58);
    l->bounds = le16(b + 62);
    l->lmic_at = JOINTER_DESCFILE_HEADER;
    l->sniffer_at = l->lmic_at + l->lmic_rec * l->lmics;
    l->metric_at = l->sniffer_at + SNIFFER_REC * l->sniffers;
    l->trace_at = l->metric_at + l->metric_rec * l->metrics;
    l->bounds_at = l->trace_at + l->trace_rec * l->traces;
    l->lanes_at = l->bounds_at + 4u * l->bounds;
    if (l->lanes_at > l->length)     /* at most ~3.6 MB so far: no overflow */
        return -EINVAL;
    count_lanes_spans(l);
    l->spans_at = l->lanes_at + LANE_REC * l->lanes;
    l->strings_at = l->spans_at + SPAN_REC * l->spans;
    need = l->strings_at + 1u;       /* lanes and spans: at most 255 x 2 per trace */
    if (need > l->length || b[l->length - 1u] != 0)
        return -EINVAL;
    return 0;
}

/* ---- arena -------------------------------------------------------------------- */

typedef union align_of {
    uint64_t u;
    const void *p;
    long double d;
} align_of;

struct align_probe {
    char c;
    align_of a;
};

#define ALIGN (offsetof(struct align_probe, a))

static size_t round_up(size_t n)
{
    return (n + ALIGN - 1u) / ALIGN * ALIGN;
}

static size_t arena_bytes(const layout *l)
{
    return ALIGN - 1u + round_up(l->lmics * sizeof(jointer_lmic_desc))
           + round_up(l->sniffers * sizeof(jointer_sniffer_desc))
           + round_up(l->metrics * sizeof(jointer_metric_desc))
           + round_up(l->traces * sizeof(jointer_trace_desc)) + round_up(l->bounds * sizeof(uint32_t))
           + round_up(l->lanes * sizeof(const char *)) + round_up(l->spans * sizeof(jointer_span_desc));
}

int jointer_descfile_arena_size(const void *buf, size_t len, size_t *need)
{
    layout l;
    int r;

    if (need == NULL)
        return -EINVAL;
    r = read_header(buf, len, &l);
    if (r == 0)
        *need = arena_bytes(&l);
    return r;
}

/* ---- records ------------------------------------------------------------------ */

/* a string of the table: its offset must be inside (the table ends with NUL) */
static int string_at(const layout *l, uint32_t off, const char **s)
{
    if (off >= l->length - l->strings_at)
        return -EINVAL;
    *s = (const char *)(l->b + l->strings_at + off);
    return 0;
}

static int read_lmics(const layout *l, jointer_lmic_desc *t)
{
    unsigned i, next = 0;

    for (i = 0; i < l->lmics; i++) {
        const unsigned char *p = l->b + l->lmic_at + l->lmic_rec * i;
        if (string_at(l, le32(p), &t[i].name) < 0)
            return -EINVAL;
        t[i].base = le32(p + 4);
        t[i].first_sniffer = le16(p + 8);
        t[i].num_sniffers = p[10];
        t[i].num_irq = p[11];
        t[i].clock_hz = l->format >= 3u ? le32(p + 12) : 0u;
        t[i].clock = NULL;
        if (l->format >= 3u && string_at(l, le32(p + 16), &t[i].clock) < 0)
            return -EINVAL;
        /* the ranges follow one another and cover every sniffer */
        if (t[i].first_sniffer != next || t[i].num_sniffers > JOINTER_MAX_SNIFFERS_PER_LMIC
            || t[i].num_irq > 32u)
            return -EINVAL;
        next += t[i].num_sniffers;
    }
    return next == l->sniffers ? 0 : -EINVAL;
}

static int read_sniffers(const layout *l, const jointer_lmic_desc *lm, jointer_sniffer_desc *t,
                         unsigned *dcapfs)
{
    unsigned i;

    *dcapfs = 0;
    for (i = 0; i < l->sniffers; i++) {
        const unsigned char *p = l->b + l->sniffer_at + SNIFFER_REC * i;
        if (string_at(l, le32(p), &t[i].name) < 0)
            return -EINVAL;
        t[i].lmic = p[4];
        t[i].index = p[5];
        t[i].num_dcapfs = p[6];
        t[i].pm_addresses = p[7];
        t[i].pm_pc_width = p[8];
        t[i].data_width = l->format >= 2u ? p[9] : 0u; /* format 1: 32 bits or fewer */
        if (t[i].lmic >= l->lmics || i < lm[t[i].lmic].first_sniffer
            || i >= (unsigned)lm[t[i].lmic].first_sniffer + lm[t[i].lmic].num_sniffers
            || t[i].index != i - lm[t[i].lmic].first_sniffer || t[i].pm_pc_width > 32u
            || t[i].data_width > 64u)
            return -EINVAL;
        *dcapfs += t[i].num_dcapfs;
    }
    return 0;
}

/* sniffer, lmic and dcapf of a metric or trace: inside the tables, consistent */
static int place_ok(const layout *l, const jointer_sniffer_desc *sn, unsigned sniffer, unsigned lmic,
                    unsigned dcapf)
{
    return sniffer < l->sniffers && lmic == sn[sniffer].lmic && dcapf < sn[sniffer].num_dcapfs;
}

static int read_metric(const layout *l, const unsigned char *p, const jointer_sniffer_desc *sn,
                       const uint32_t *pool, jointer_metric_desc *m)
{
    unsigned bounds = le16(p + l->metric_rec - 2u);

    if (string_at(l, le32(p), &m->name) < 0)
        return -EINVAL;
    m->result_offset = le32(p + 4);
    m->threshold_offset = le32(p + 8);
    if (l->format >= 2u) {           /* 64-bit bounds: the fields after them move by 8 */
        m->low_reset = le64(p + 12);
        m->high_reset = le64(p + 20);
        p += 8;
    } else {
        m->low_reset = le32(p + 12);
        m->high_reset = le32(p + 16);
    }
    m->sniffer = le16(p + 20);
    m->lmic = p[22];
    m->dcapf = p[23];
    m->width = p[24];
    m->extractor = p[25];
    m->aggregator = p[26];
    m->flags = p[27];
    m->irq_bit = (int8_t)(p[28] < 128u ? (int)p[28] : (int)p[28] - 256);
    m->buckets = p[29];
    m->bounds = NULL;
    if (!place_ok(l, sn, m->sniffer, m->lmic, m->dcapf) || m->width < 1u || m->width > 64u
        || m->extractor > JOINTER_EXTRACTOR_TRACE || m->aggregator > JOINTER_AGGREGATOR_MEAN
        || m->irq_bit < -1 || m->irq_bit > 31 || m->buckets > 64u)
        return -EINVAL;
    if (bounds != NO_BOUNDS) {
        if (m->buckets < 2u || m->aggregator != JOINTER_AGGREGATOR_HISTOGRAM
            || bounds + (unsigned)m->buckets - 1u > l->bounds)
            return -EINVAL;
        m->bounds = pool + bounds;
    }
    return 0;
}

/* format 3: the trace's lanes, spans and clock; *lane and *span: the next
 * entries of those tables (trace order) */
static int read_trace_lanes(const layout *l, const unsigned char *p, jointer_trace_desc *t,
                            const char **names, jointer_span_desc *spans, unsigned *lane, unsigned *span)
{
    unsigned k, clock = le32(p + 44);

    t->num_lanes = p[39];
    t->sync = p[40];
    t->num_spans = p[41];
    t->clock = NULL;
    if (clock != NO_STRING && string_at(l, clock, &t->clock) < 0)
        return -EINVAL;
    if (t->num_lanes > JOINTER_MAX_LANES || t->num_spans > JOINTER_MAX_SPANS || t->sync > 1u
        || (t->sync && t->num_lanes == 0u))
        return -EINVAL;
    t->lane_names = t->num_lanes != 0u ? names + *lane : NULL;
    for (k = 0; k < t->num_lanes; k++, (*lane)++)
        if (string_at(l, le32(l->b + l->lanes_at + LANE_REC * *lane), &names[*lane]) < 0)
            return -EINVAL;
    t->spans = t->num_spans != 0u ? spans + *span : NULL;
    for (k = 0; k < t->num_spans; k++, (*span)++) {
        const unsigned char *q = l->b + l->spans_at + SPAN_REC * *span;
        jointer_span_desc *sp = &spans[*span];
        if (string_at(l, le32(q), &sp->name) < 0)
            return -EINVAL;
        sp->begin = q[4];
        sp->end = q[5];
        sp->flags = q[6];
        if ((sp->begin == JOINTER_SPAN_LEVEL) != (sp->end == JOINTER_SPAN_LEVEL)
            || (sp->begin != JOINTER_SPAN_LEVEL && (sp->begin >= t->num_lanes || sp->end >= t->num_lanes))
            || sp->flags > (JOINTER_SPAN_BY_ID | JOINTER_SPAN_TRACK_VALUE))
            return -EINVAL;
    }
    return 0;
}

static int read_trace(const layout *l, const unsigned char *p, const jointer_sniffer_desc *sn,
                      jointer_trace_desc *t)
{
    if (string_at(l, le32(p), &t->name) < 0)
        return -EINVAL;
    t->reg_offset = le32(p + 4);
    t->ram_offset = le32(p + 8);
    t->depth = le32(p + 12);
    t->low_reset = le32(p + 16);
    t->high_reset = le32(p + 20);
    t->clock_hz = le32(p + 24);
    t->sniffer = le16(p + 28);
    t->lmic = p[30];
    t->dcapf = p[31];
    t->ring = p[32];
    t->irq_bit = (int8_t)(p[33] < 128u ? (int)p[33] : (int)p[33] - 256);
    t->filter = p[34];
    t->relay = p[35];
    t->sink_bytes = p[36];
    t->encoding = p[37];
    t->sink_ring_log2 = p[38];
    t->num_lanes = t->sync = t->num_spans = 0;    /* format 3: read_trace_lanes */
    t->lane_names = NULL;
    t->spans = NULL;
    t->clock = NULL;
    if (!place_ok(l, sn, t->sniffer, t->lmic, t->dcapf) || t->irq_bit < -1 || t->irq_bit > 30
        || t->encoding > JOINTER_ENCODING_COMPACT || t->sink_ring_log2 > 32u)
        return -EINVAL;
    return 0;
}

/* ---- parse -------------------------------------------------------------------- */

typedef struct tables {
    jointer_lmic_desc *lmics;
    jointer_sniffer_desc *sniffers;
    jointer_metric_desc *metrics;
    jointer_trace_desc *traces;
    uint32_t *bounds;
    const char **lane_names;
    jointer_span_desc *spans;
} tables;

static void carve(const layout *l, void *arena, tables *t)
{
    uintptr_t a = (uintptr_t)arena;
    unsigned char *p = (unsigned char *)arena + (ALIGN - a % ALIGN) % ALIGN;

    t->lmics = (jointer_lmic_desc *)(void *)p;
    p += round_up(l->lmics * sizeof(jointer_lmic_desc));
    t->sniffers = (jointer_sniffer_desc *)(void *)p;
    p += round_up(l->sniffers * sizeof(jointer_sniffer_desc));
    t->metrics = (jointer_metric_desc *)(void *)p;
    p += round_up(l->metrics * sizeof(jointer_metric_desc));
    t->traces = (jointer_trace_desc *)(void *)p;
    p += round_up(l->traces * sizeof(jointer_trace_desc));
    t->bounds = (uint32_t *)(void *)p;
    p += round_up(l->bounds * sizeof(uint32_t));
    t->lane_names = (const char **)(void *)p;
    p += round_up(l->lanes * sizeof(const char *));
    t->spans = (jointer_span_desc *)(void *)p;
}

static int read_tables(const layout *l, const tables *t)
{
    unsigned i, dcapfs, lane = 0, span = 0;

    if (read_lmics(l, t->lmics) < 0 || read_sniffers(l, t->lmics, t->sniffers, &dcapfs) < 0)
        return -EINVAL;
    if (dcapfs != le16(l->b + 60) || dcapfs != l->metrics + l->traces)
        return -EINVAL;
    for (i = 0; i < l->bounds; i++)
        t->bounds[i] = le32(l->b + l->bounds_at + 4u * i);
    for (i = 0; i < l->metrics; i++)
        if (read_metric(l, l->b + l->metric_at + l->metric_rec * i, t->sniffers, t->bounds, &t->metrics[i]) < 0)
            return -EINVAL;
    for (i = 0; i < l->traces; i++) {
        const unsigned char *p = l->b + l->trace_at + l->trace_rec * i;
        if (read_trace(l, p, t->sniffers, &t->traces[i]) < 0)
            return -EINVAL;
        if (l->format >= 3u
            && read_trace_lanes(l, p, &t->traces[i], t->lane_names, t->spans, &lane, &span) < 0)
            return -EINVAL;
    }
    return 0;
}

int jointer_descfile_parse(const void *buf, size_t len, void *arena, size_t arena_len, jointer_cfg *cfg)
{
    layout l;
    tables t;
    jointer_cfg c;
    int r;

    if (cfg == NULL)
        return -EINVAL;
    r = read_header(buf, len, &l);
    if (r < 0)
        return r;
    if (arena == NULL || arena_len < arena_bytes(&l))
        return -ENOSPC;
    if (l.lmics == 0 || l.lmics > JOINTER_MAX_LMICS || (l.b[24] & JOINTER_INFO_LMICS_MASK) != l.lmics)
        return -EINVAL;
    memset(&c, 0, sizeof c);
    if (string_at(&l, le32(l.b + 48), &c.name) < 0)
        return -EINVAL;
    carve(&l, arena, &t);
    r = read_tables(&l, &t);
    if (r < 0)
        return r;
    c.config_hash = le32(l.b + 16);
    c.version = le32(l.b + 20);
    c.info = le32(l.b + 24);
    c.span = le32(l.b + 28);
    c.window = le32(l.b + 32);
    c.bus_clock_hz = le32(l.b + 36);
    c.base_address = le64(l.b + 40);
    c.lmics = t.lmics;
    c.sniffers = t.sniffers;
    c.metrics = l.metrics != 0 ? t.metrics : NULL;
    c.traces = l.traces != 0 ? t.traces : NULL;
    c.num_lmics = (uint8_t)l.lmics;
    c.num_sniffers = (uint16_t)l.sniffers;
    c.num_metrics = (uint16_t)l.metrics;
    c.num_traces = (uint16_t)l.traces;
    c.num_dcapfs = le16(l.b + 60);
    *cfg = c;
    return 0;
}
