// SPDX-License-Identifier: MIT
/*
 * test_sink.c - the driver's side of a sink trace (jointer_sink.c): start,
 * drain raw and compact rings across the wrap, LOST, errors, the relay step.
 * The device is relay_mon with its relay trace turned into a sink; a small
 * model below stands for the sink's registers and writes units into a ring
 * the way the hardware does (keeping one unit free); every other register is
 * the mock's. The follow cases write trace files (jointer_trace_file.c) the
 * way `jointer trace --follow` does and read them back.
 */
#include <stdlib.h>

#include "compact_vectors.h"
#include "jointer_trace_file.h"
#include "jt_test.h"
#include "mock/jointer_mock.h"
#include "relay_mon.h"

int jt_failed;

#define ST 1u           /* the sink trace */
#define RING 8192u      /* bytes: 1024 units */
#define BUS 0x30000000u /* the ring's address for the sink */

typedef struct sink_model {
    mock_hw mock;
    uint32_t reg_offset;
    uint32_t wptr, rptr, status, watermark, base, size, control, lost;
    uint32_t controls[8], ncontrols; /* CONTROL writes, in order */
    uint32_t busy_reads;             /* STATUS reads that still see BUSY */
    uint32_t refuse;                 /* 1: BASE/SIZE refused (CONFIG_ERROR) */
    uint64_t *ring;                  /* RING bytes, as the CPU sees them */
} sink_model;

static sink_model S;
static jointer_cfg CFG;
static jointer_trace_desc TRACES[2];
static jointer_dev DEV;
static uint64_t MEM[RING / 8];

static int model_read(void *ctx, uint32_t off, uint32_t *v)
{
    sink_model *s = ctx;

    if (off < s->reg_offset || off >= s->reg_offset + 32u)
        return mock_read(&s->mock, off, v);
    switch (off - s->reg_offset) {
    case JOINTER_SINK_WPTR: *v = s->wptr; break;
    case JOINTER_SINK_RPTR: *v = s->rptr; break;
    case JOINTER_SINK_STATUS:
        *v = s->status | (s->busy_reads != 0 ? JOINTER_SINK_STATUS_BUSY : 0u);
        if (s->busy_reads != 0 && s->busy_reads != UINT32_MAX)
            s->busy_reads--;
        break;
    case JOINTER_SINK_WATERMARK: *v = s->watermark; break;
    case JOINTER_SINK_BASE: *v = s->base; break;
    case JOINTER_SINK_SIZE: *v = s->size; break;
    case JOINTER_SINK_CONTROL: *v = s->control & JOINTER_SINK_CONTROL_ENABLE; break;
    default: *v = s->lost; break;
    }
    return 0;
}

static int model_write(void *ctx, uint32_t off, uint32_t v)
{
    sink_model *s = ctx;

    if (off < s->reg_offset || off >= s->reg_offset + 32u)
        return mock_write(&s->mock, off, v);
    switch (off - s->reg_offset) {
    case JOINTER_SINK_RPTR: s->rptr = v & ~7u; break;
    case JOINTER_SINK_WATERMARK: s->watermark = v; break;
    case JOINTER_SINK_BASE: s->base = v; break;
    case JOINTER_SINK_SIZE: s->size = v; break;
    case JOINTER_SINK_CONTROL:
        if (s->ncontrols < 8u)
            s->controls[s->ncontrols++] = v;
        s->control = v & JOINTER_SINK_CONTROL_ENABLE;
        if (v & JOINTER_SINK_CONTROL_CLEAR)
            s->wptr = s->lost = s->status = 0;
        if (s->refuse)
            s->status |= JOINTER_SINK_STATUS_CONFIG_ERROR;
        break;
    default: break; /* WPTR, LOST, STATUS: read-only */
    }
    return 0;
}

static int model_wait(void *ctx, int timeout_ms)
{
    (void)ctx;
    (void)timeout_ms;
    return 0;
}

static const jointer_io_ops model_ops = {model_read, model_write, model_wait};

/* the sink takes a unit of n records: written at WPTR when a unit is free */
static void push(uint64_t unit, uint32_t n)
{
    uint32_t next = S.wptr + 8u == S.size ? 0u : S.wptr + 8u;

    if (!(S.control & JOINTER_SINK_CONTROL_ENABLE))
        return;
    if (next == S.rptr) {
        S.lost += n;
        return;
    }
    S.ring[S.wptr / 8u] = unit;
    S.wptr = next;
}

static uint64_t raw(uint32_t ts, uint32_t data)
{
    return (uint64_t)data << 32 | ts;
}

static void setup(void)
{
    jointer_io io;

    memset(&S, 0, sizeof S);
    memset(MEM, 0xA5, sizeof MEM);
    mock_init(&S.mock, &relay_mon_cfg);
    CFG = relay_mon_cfg;
    memcpy(TRACES, relay_mon_cfg.traces, sizeof TRACES);
    TRACES[ST].sink_bytes = 8;
    TRACES[ST].relay = 0;
    TRACES[ST].depth = 0;
    TRACES[ST].ram_offset = 0;
    CFG.traces = TRACES;
    S.reg_offset = TRACES[ST].reg_offset;
    S.ring = MEM;
    io.base = NULL;
    io.ops = &model_ops;
    io.ctx = &S;
    if (jointer_init(&DEV, &CFG, &io) != 0)
        abort();
}

static jointer_sink_ring R;

TEST(start_programs_the_ring_then_enables)
{
    setup();
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 256u));
    CHECK_EQ(S.base, BUS);
    CHECK_EQ(S.size, RING);
    CHECK_EQ(S.rptr, 0);
    CHECK_EQ(S.watermark, 256u);
    CHECK_EQ(S.ncontrols, 3);
    CHECK_EQ(S.controls[0], 0);
    CHECK_EQ(S.controls[1], JOINTER_SINK_CONTROL_CLEAR);
    CHECK_EQ(S.controls[2], JOINTER_SINK_CONTROL_ENABLE);
}

static uint64_t fake_ns(void *ctx)
{
    uint64_t *t = ctx;
    return *t += 100u;
}

/* SYNC: CONTROL read, the clock, one CONTROL write with ENABLE kept and SYNC, the clock again */
TEST(sync_writes_control_between_two_clock_reads)
{
    uint64_t clock = 1000, before = 0, after = 0;
    setup();
    CHECK_EQ(jointer_sink_sync(&DEV, ST, fake_ns, &clock, &before, &after), -ENOTSUP); /* no sync */
    TRACES[ST].num_lanes = 2;
    TRACES[ST].sync = 1;
    CHECK_EQ(jointer_sink_sync(&DEV, 0, fake_ns, &clock, &before, &after), -ENOTSUP);  /* not a sink */
    CHECK_EQ(jointer_sink_sync(&DEV, ST, NULL, &clock, &before, &after), -EINVAL);
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    CHECK_OK(jointer_sink_sync(&DEV, ST, fake_ns, &clock, &before, &after));
    CHECK(before == 1100u && after == 1200u);
    CHECK_EQ(S.ncontrols, 4);
    CHECK_EQ(S.controls[3], JOINTER_SINK_CONTROL_ENABLE | JOINTER_SINK_CONTROL_SYNC);
    CHECK_EQ(S.control, JOINTER_SINK_CONTROL_ENABLE);
    CHECK_OK(jointer_sink_stop(&DEV, ST));
    CHECK_OK(jointer_sink_sync(&DEV, ST, fake_ns, &clock, &before, &after));
    CHECK_EQ(S.controls[5], JOINTER_SINK_CONTROL_SYNC);   /* a stopped sink stays disabled */
}

TEST(start_refuses_bad_rings_and_other_traces)
{
    setup();
    CHECK_EQ(jointer_sink_start(&DEV, 0, &R, MEM, BUS, RING, 0), -ENOTSUP);
    CHECK_EQ(jointer_sink_start(&DEV, 2, &R, MEM, BUS, RING, 0), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS + 8u, RING, 0), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING + 8u, 0), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, 0, 0), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, 0xFFFFF000u, RING, 0), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, RING), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, NULL, MEM, BUS, RING, 0), -EINVAL);
    CHECK_EQ(S.ncontrols, 0); /* nothing written */
    S.refuse = 1;
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0), -EIO);
    CHECK_EQ(S.control, 0); /* not enabled */
    S.refuse = 0;
    S.busy_reads = UINT32_MAX;
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0), -ETIMEDOUT);
    S.busy_reads = 5;
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    CHECK_EQ(S.busy_reads, 0);
}

TEST(start_refuses_a_ring_beyond_the_hardware_maximum)
{
    setup();
    TRACES[ST].sink_ring_log2 = 13; /* the sink addresses at most 8 KB */
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, 3u * 4096u, 0), -EINVAL);
    CHECK_EQ(jointer_sink_start(&DEV, ST, &R, MEM, BUS, 16384u, 0), -EINVAL);
    CHECK_EQ(S.ncontrols, 0); /* nothing written */
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, 8192u, 0)); /* exactly the maximum */
    CHECK_EQ(S.size, 8192u);
    TRACES[ST].sink_ring_log2 = 32; /* any 32-bit size */
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, 3u * 4096u, 0));
    TRACES[ST].sink_ring_log2 = 0; /* unknown: no limit */
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, 3u * 4096u, 0));
}

TEST(drain_before_start_is_enodev_and_read_is_enotsup)
{
    jointer_trace_record rec[4];
    uint32_t n = 7, fill, status;

    setup();
    CHECK_EQ(jointer_trace_drain(&DEV, ST, rec, 4, &n), -ENOTCONN);
    CHECK_EQ(n, 0);
    CHECK_EQ(jointer_trace_status(&DEV, ST, &fill, &status), -ENOTCONN);
    CHECK_EQ(jointer_trace_read(&DEV, ST, rec, 4, &n), -ENOTSUP);
}

TEST(raw_drain_is_exact_across_the_wrap)
{
    static jointer_trace_record rec[300];
    uint32_t n, i, next = 0, fill, status;

    setup();
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    /* 5 rounds of 300 records through a 1024-unit ring: it wraps */
    for (int round = 0; round < 5; round++) {
        for (i = 0; i < 300u; i++)
            push(raw(1000u + next + i, 0xD0000000u ^ (next + i)), 1);
        CHECK_OK(jointer_trace_status(&DEV, ST, &fill, &status));
        CHECK_EQ(fill, 300);
        CHECK_EQ(status, 0);
        CHECK_OK(jointer_trace_drain(&DEV, ST, rec, 200, &n)); /* a partial drain */
        CHECK_EQ(n, 200);
        CHECK_OK(jointer_trace_drain(&DEV, ST, rec + 200, 100, &n));
        CHECK_EQ(n, 100);
        for (i = 0; i < 300u; i++) {
            CHECK_EQ(rec[i].timestamp, 1000u + next + i);
            CHECK_EQ(rec[i].data, 0xD0000000u ^ (next + i));
        }
        next += 300u;
        CHECK_EQ(S.rptr, (8u * next) % RING); /* the space is given back */
        CHECK_OK(jointer_trace_drain(&DEV, ST, rec, 300, &n));
        CHECK_EQ(n, 0);
    }
}

TEST(a_full_ring_drops_and_lost_is_exact)
{
    static jointer_trace_record rec[1100];
    uint32_t n, lost, i, status, wptr;

    setup();
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    for (i = 0; i < 1100u; i++)
        push(raw(i, i), 1);
    CHECK_OK(jointer_trace_lost(&DEV, ST, &lost));
    CHECK_EQ(lost, 1100u - 1023u); /* the ring holds size/8 - 1 units */
    CHECK_OK(jointer_sink_status(&DEV, ST, &status, &wptr, &lost));
    CHECK_EQ(wptr, 8u * 1023u);
    CHECK_OK(jointer_trace_drain(&DEV, ST, rec, 1100, &n));
    CHECK_EQ(n, 1023);
    for (i = 0; i < n; i++)
        CHECK_EQ(rec[i].data, i); /* the first ones, in order */
}

TEST(compact_units_decode_and_a_unit_waits_for_room)
{
    jointer_trace_record rec[8];
    uint32_t n;

    setup();
    TRACES[ST].encoding = JOINTER_ENCODING_COMPACT;
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    push(3ull << 62 | 5ull << 50 | 0x3FFull << 40, 3);              /* before any SYNC: skipped */
    push((uint64_t)100u << 32 | 0xABCD0001u, 1);                     /* SYNC t=100 */
    push(1ull << 62 | (uint64_t)7u << 32 | 0x12345678u, 1);          /* LONG +7 */
    push(2ull << 62 | (uint64_t)(3u << 16 | 0x1111u) << 31 | (4u << 16 | 0x2222u), 2); /* PAIR */
    push(3ull << 62 | (uint64_t)(1u << 10 | 1u) << 40 | (uint64_t)(2u << 10 | 2u) << 20
         | (3u << 10 | 3u), 3);                                      /* TRIPLE */
    CHECK_OK(jointer_trace_drain(&DEV, ST, rec, 5, &n)); /* the TRIPLE does not fit */
    CHECK_EQ(n, 4);
    CHECK_EQ(rec[0].timestamp, 100); CHECK_EQ(rec[0].data, 0xABCD0001u);
    CHECK_EQ(rec[1].timestamp, 107); CHECK_EQ(rec[1].data, 0x12345678u);
    CHECK_EQ(rec[2].timestamp, 110); CHECK_EQ(rec[2].data, 0x12341111u);
    CHECK_EQ(rec[3].timestamp, 114); CHECK_EQ(rec[3].data, 0x12342222u);
    CHECK_EQ(S.rptr, 32u);
    CHECK_OK(jointer_trace_drain(&DEV, ST, rec, 8, &n));
    CHECK_EQ(n, 3);
    CHECK_EQ(rec[0].timestamp, 115); CHECK_EQ(rec[0].data, 0x12342001u);
    CHECK_EQ(rec[1].timestamp, 117); CHECK_EQ(rec[1].data, 0x12342002u);
    CHECK_EQ(rec[2].timestamp, 120); CHECK_EQ(rec[2].data, 0x12342003u);
    CHECK_EQ(S.rptr, 40u);
}

TEST(a_wptr_outside_the_ring_is_eio_and_releases_nothing)
{
    jointer_trace_record rec[4];
    uint32_t n;

    setup();
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    push(raw(1, 1), 1);
    S.wptr = RING;
    CHECK_EQ(jointer_trace_drain(&DEV, ST, rec, 4, &n), -EIO);
    S.wptr = 12;
    CHECK_EQ(jointer_trace_drain(&DEV, ST, rec, 4, &n), -EIO);
    CHECK_EQ(S.rptr, 0);
}

typedef struct collect {
    uint32_t n, bad;
} collect;

static int collect_sink(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    collect *c = ctx;

    for (uint32_t i = 0; i < n; i++, c->n++)
        c->bad += rec[i].timestamp != c->n;
    return 0;
}

TEST(relay_step_drains_a_sink_and_stop_waits_for_bursts)
{
    jointer_trace_record buf[64];
    collect c = {0, 0};
    uint64_t drained = 0;

    setup();
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    for (uint32_t i = 0; i < 1000u; i++)
        push(raw(i, 0), 1);
    CHECK_OK(jointer_trace_relay(&DEV, ST, buf, 64, 0, collect_sink, &c, &drained));
    CHECK_EQ(drained, 1000);
    CHECK_EQ(c.n, 1000);
    CHECK_EQ(c.bad, 0);
    S.busy_reads = 3;
    CHECK_OK(jointer_sink_stop(&DEV, ST));
    CHECK_EQ(S.control, 0);
    CHECK_EQ(S.busy_reads, 0);
    CHECK_OK(jointer_sink_detach(&DEV, ST));
    CHECK_EQ(jointer_trace_drain(&DEV, ST, buf, 4, &(uint32_t){0}), -ENOTCONN);
}

TEST(watermark_of_a_sink_is_in_bytes)
{
    setup();
    CHECK_OK(jointer_trace_set_watermark(&DEV, ST, 100));
    CHECK_EQ(S.watermark, 800);
    CHECK_EQ(jointer_trace_set_watermark(&DEV, ST, 0x20000000u), -ERANGE);
}

/* the units themselves (jointer_sink_drain_units / _relay_units): every
 * unit of [RPTR, WPTR), bit-exact, in order, across the wrap, RPTR moved */
TEST(drain_units_copies_the_ring_words_across_the_wrap)
{
    static uint64_t u[700];
    uint32_t n, i, next = 0;

    setup();
    TRACES[ST].encoding = JOINTER_ENCODING_COMPACT;
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    for (int round = 0; round < 4; round++) { /* 4 x 700 units through 1024: it wraps */
        for (i = 0; i < 700u; i++)
            push(0x9E3779B97F4A7C15ull * (next + i + 1u), 1);
        CHECK_OK(jointer_sink_drain_units(&DEV, ST, u, 500, &n)); /* a partial drain */
        CHECK_EQ(n, 500);
        CHECK_EQ(S.rptr, (8u * (next + 500u)) % RING);
        CHECK_OK(jointer_sink_drain_units(&DEV, ST, u + 500, 700, &n));
        CHECK_EQ(n, 200);
        for (i = 0; i < 700u; i++)
            CHECK(u[i] == 0x9E3779B97F4A7C15ull * (next + i + 1u));
        next += 700u;
        CHECK_EQ(S.rptr, (8u * next) % RING);
        CHECK_OK(jointer_sink_drain_units(&DEV, ST, u, 700, &n));
        CHECK_EQ(n, 0);
    }
    CHECK_OK(jointer_sink_drain_units(&DEV, ST, NULL, 0, &n)); /* max 0: nothing moves */
    push(1, 1);
    CHECK_OK(jointer_sink_drain_units(&DEV, ST, NULL, 0, &n));
    CHECK_EQ(n, 0);
    CHECK_EQ(S.rptr, (8u * next) % RING);
}

TEST(drain_units_errors_release_nothing)
{
    uint64_t u[4];
    uint32_t n = 9;

    setup();
    CHECK_EQ(jointer_sink_drain_units(&DEV, ST, u, 4, &n), -ENOTCONN); /* not started */
    CHECK_EQ(n, 0);
    CHECK_EQ(jointer_sink_drain_units(&DEV, 0, u, 4, &n), -ENOTSUP); /* not a sink */
    CHECK_EQ(jointer_sink_drain_units(&DEV, 2, u, 4, &n), -EINVAL);
    CHECK_EQ(jointer_sink_drain_units(&DEV, ST, u, 4, NULL), -EINVAL);
    CHECK_EQ(jointer_sink_drain_units(&DEV, ST, NULL, 4, &n), -EINVAL);
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    push(raw(1, 1), 1);
    S.wptr = 12; /* not on a unit */
    CHECK_EQ(jointer_sink_drain_units(&DEV, ST, u, 4, &n), -EIO);
    CHECK_EQ(S.rptr, 0);
}

/* a raw sink's units are its records: timestamp = bits 31..0 */
TEST(drain_units_of_a_raw_sink_are_its_records)
{
    uint64_t u[4];
    uint32_t n;

    setup();
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    push(raw(7, 0xCAFEF00Du), 1);
    CHECK_OK(jointer_sink_drain_units(&DEV, ST, u, 4, &n));
    CHECK_EQ(n, 1);
    CHECK(u[0] == 0xCAFEF00D00000007ull);
}

typedef struct unit_collect {
    uint64_t got[2048];
    uint32_t n, calls, stop_at;
} unit_collect;

static int unit_collect_sink(void *ctx, const uint64_t *u, uint32_t n)
{
    unit_collect *c = ctx;

    for (uint32_t i = 0; i < n && c->n < 2048u; i++)
        c->got[c->n++] = u[i];
    return ++c->calls == c->stop_at ? 42 : 0;
}

TEST(relay_units_drains_until_empty_and_a_sink_error_stops_it)
{
    static unit_collect c;
    uint64_t buf[64], units = 0;
    uint32_t n;

    setup();
    TRACES[ST].encoding = JOINTER_ENCODING_COMPACT;
    memset(&c, 0, sizeof c);
    CHECK_EQ(jointer_sink_relay_units(&DEV, ST, buf, 64, 0, unit_collect_sink, &c, &units), -ENOTCONN);
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    CHECK_EQ(jointer_sink_relay_units(&DEV, ST, buf, 0, 0, unit_collect_sink, &c, &units), -EINVAL);
    CHECK_EQ(jointer_sink_relay_units(&DEV, 0, buf, 64, 0, unit_collect_sink, &c, &units), -ENOTSUP);
    for (uint32_t i = 0; i < 1000u; i++)
        push(1000u + i, 1);
    CHECK_OK(jointer_sink_relay_units(&DEV, ST, buf, 64, 0, unit_collect_sink, &c, &units));
    CHECK_EQ(units, 1000);
    CHECK_EQ(c.n, 1000);
    CHECK_EQ(c.calls, 16); /* 15 x 64 + 40 */
    for (uint32_t i = 0; i < 1000u; i++)
        CHECK(c.got[i] == 1000u + i);
    for (uint32_t i = 0; i < 200u; i++)
        push(5000u + i, 1);
    c.stop_at = c.calls + 2u; /* the sink's non-zero return comes back, the rest stays */
    CHECK_EQ(jointer_sink_relay_units(&DEV, ST, buf, 64, 0, unit_collect_sink, &c, &units), 42);
    CHECK_EQ(units, 1128);
    CHECK_OK(jointer_sink_drain_units(&DEV, ST, buf, 64, &n));
    CHECK_EQ(n, 64);
    CHECK(buf[0] == 5128u);
}

/* ---- a follow into a trace file, as `jointer trace --follow` does -------- */

typedef struct tfile_out {
    FILE *f;
    jointer_tfile_header h;
} tfile_out;

static int tfile_units(void *ctx, const uint64_t *u, uint32_t n)
{
    tfile_out *o = ctx;
    return jointer_tfile_append_units(o->f, &o->h, u, n);
}

static int tfile_records(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    tfile_out *o = ctx;
    return jointer_tfile_append(o->f, &o->h, rec, n);
}

/* the file read back through the converter's reader: header, then every record */
static int read_back(FILE *f, jointer_tfile_header *h, jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    jointer_tfile_reader rd;
    uint32_t got;
    int r;

    rewind(f);
    r = jointer_tfile_read_header(f, h);
    jointer_tfile_reader_init(&rd);
    *n = 0;
    do {
        if (r == 0)
            r = jointer_tfile_read_records(f, h, &rd, rec + *n, max - *n, &got);
        if (r == 0)
            *n += got;
    } while (r == 0 && got != 0);
    return r;
}

/* every vector of the Python model (compact_vectors.h): its units through a
 * compact ring (in chunks, across the wrap) into a file of encoding 1; the
 * file holds those units, and reading it gives the model's records */
TEST(compact_follow_writes_the_units_and_converts_to_the_models_records)
{
    static jointer_trace_record rec[1024];
    static uint64_t buf[64];
    static tfile_out o;
    jointer_tfile_header h;
    uint32_t n, k, v;

    for (v = 0; v < sizeof cv_vectors / sizeof cv_vectors[0]; v++) {
        const cv_vector *cv = &cv_vectors[v];
        uint64_t units = 0;

        setup();
        TRACES[ST].encoding = JOINTER_ENCODING_COMPACT;
        CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
        for (k = 0; k < 900u; k++) { /* before the file: the vector then wraps after 124 units */
            push(0, 1);
            if (k % 64u == 63u || k == 899u)
                CHECK_OK(jointer_sink_drain_units(&DEV, ST, buf, 64, &n));
        }
        CHECK_EQ(S.rptr, 8u * 900u);
        o.f = tmpfile();
        CHECK(o.f != NULL);
        CHECK_OK(jointer_tfile_header_init(&o.h, &CFG, ST));
        o.h.encoding = JOINTER_TFILE_ENC_COMPACT;
        CHECK_OK(jointer_tfile_write_header(o.f, &o.h));
        for (k = 0; k < cv->n_units; k++) {
            push(cv->units[k], jointer_compact_unit_records(cv->units[k]));
            if (k % 100u == 99u) /* the relay runs while the sink writes */
                CHECK_OK(jointer_sink_relay_units(&DEV, ST, buf, 64, 0, tfile_units, &o, &units));
        }
        S.lost = 5;
        CHECK_OK(jointer_sink_relay_units(&DEV, ST, buf, 64, 0, tfile_units, &o, &units));
        CHECK_EQ(units, cv->n_units);
        CHECK_OK(jointer_trace_lost(&DEV, ST, &n));
        CHECK_OK(jointer_tfile_finish(o.f, &o.h, n));
        CHECK_OK(read_back(o.f, &h, rec, 1024, &n));
        CHECK_EQ(h.encoding, JOINTER_TFILE_ENC_COMPACT);
        CHECK_EQ(h.records, cv->n_units); /* the header counts units */
        CHECK_EQ(h.lost, 5);
        CHECK_EQ(h.flags, JOINTER_TFILE_COMPLETE);
        CHECK_EQ(n, cv->n_recs);
        for (k = 0; k < n; k++) {
            CHECK_EQ(rec[k].timestamp, cv->recs[2u * k]);
            CHECK_EQ(rec[k].data, cv->recs[2u * k + 1u]);
        }
        fseek(o.f, (long)h.data_offset, SEEK_SET); /* the bytes: the units, little-endian */
        for (k = 0; k < cv->n_units; k++) {
            unsigned char b[8];
            uint64_t u = 0;
            CHECK_EQ(fread(b, 1, 8, o.f), 8);
            for (int j = 7; j >= 0; j--)
                u = u << 8 | b[j];
            CHECK(u == cv->units[k]);
        }
        CHECK_EQ(fread(buf, 1, 1, o.f), 0);
        fclose(o.f);
    }
}

/* a raw sink follows as before: its records, encoding 0 */
TEST(raw_follow_stays_encoding_0)
{
    static jointer_trace_record rec[600], buf[64];
    static tfile_out o;
    jointer_tfile_header h;
    uint64_t drained = 0;
    uint32_t n, i;

    setup();
    o.f = tmpfile();
    CHECK(o.f != NULL);
    CHECK_OK(jointer_tfile_header_init(&o.h, &CFG, ST));
    CHECK_OK(jointer_tfile_write_header(o.f, &o.h));
    CHECK_OK(jointer_sink_start(&DEV, ST, &R, MEM, BUS, RING, 0));
    for (i = 0; i < 500u; i++)
        push(raw(7u * i, ~i), 1);
    CHECK_OK(jointer_trace_relay(&DEV, ST, buf, 64, 0, tfile_records, &o, &drained));
    CHECK_OK(jointer_tfile_finish(o.f, &o.h, 0));
    CHECK_OK(read_back(o.f, &h, rec, 600, &n));
    CHECK_EQ(h.encoding, JOINTER_TFILE_ENC_RAW);
    CHECK_EQ(h.records, 500);
    CHECK_EQ(n, 500);
    for (i = 0; i < n; i++) {
        CHECK_EQ(rec[i].timestamp, 7u * i);
        CHECK_EQ(rec[i].data, ~i);
    }
    fclose(o.f);
}

static const jt_case cases[] = {
    JT_CASE(start_programs_the_ring_then_enables),
    JT_CASE(sync_writes_control_between_two_clock_reads),
    JT_CASE(start_refuses_bad_rings_and_other_traces),
    JT_CASE(start_refuses_a_ring_beyond_the_hardware_maximum),
    JT_CASE(drain_before_start_is_enodev_and_read_is_enotsup),
    JT_CASE(raw_drain_is_exact_across_the_wrap),
    JT_CASE(a_full_ring_drops_and_lost_is_exact),
    JT_CASE(compact_units_decode_and_a_unit_waits_for_room),
    JT_CASE(a_wptr_outside_the_ring_is_eio_and_releases_nothing),
    JT_CASE(relay_step_drains_a_sink_and_stop_waits_for_bursts),
    JT_CASE(watermark_of_a_sink_is_in_bytes),
    JT_CASE(drain_units_copies_the_ring_words_across_the_wrap),
    JT_CASE(drain_units_errors_release_nothing),
    JT_CASE(drain_units_of_a_raw_sink_are_its_records),
    JT_CASE(relay_units_drains_until_empty_and_a_sink_error_stops_it),
    JT_CASE(compact_follow_writes_the_units_and_converts_to_the_models_records),
    JT_CASE(raw_follow_stays_encoding_0),
};

int main(int argc, char **argv)
{
    return jt_run("test_sink", cases, sizeof cases / sizeof cases[0], argc, argv);
}
