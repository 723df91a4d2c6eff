/*
 * test_sink.c - the driver's side of a sink trace (jointer_sink.c): start,
 * drain raw and compact rings across the wrap, LOST, errors, the relay step.
 * The device is relay_mon with its relay trace turned into a sink; a small
 * model below stands for the sink's registers and writes units into a ring
 * the way the hardware does (keeping one unit free); every other register is
 * the mock's.
 */
#include <stdlib.h>

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
    CHECK_EQ(jointer_trace_drain(&DEV, ST, rec, 4, &n), -ENODEV);
    CHECK_EQ(n, 0);
    CHECK_EQ(jointer_trace_status(&DEV, ST, &fill, &status), -ENODEV);
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
    CHECK_EQ(jointer_trace_drain(&DEV, ST, buf, 4, &(uint32_t){0}), -ENODEV);
}

TEST(watermark_of_a_sink_is_in_bytes)
{
    setup();
    CHECK_OK(jointer_trace_set_watermark(&DEV, ST, 100));
    CHECK_EQ(S.watermark, 800);
    CHECK_EQ(jointer_trace_set_watermark(&DEV, ST, 0x20000000u), -ERANGE);
}

static const jt_case cases[] = {
    JT_CASE(start_programs_the_ring_then_enables),
    JT_CASE(start_refuses_bad_rings_and_other_traces),
    JT_CASE(start_refuses_a_ring_beyond_the_hardware_maximum),
    JT_CASE(drain_before_start_is_enodev_and_read_is_enotsup),
    JT_CASE(raw_drain_is_exact_across_the_wrap),
    JT_CASE(a_full_ring_drops_and_lost_is_exact),
    JT_CASE(compact_units_decode_and_a_unit_waits_for_room),
    JT_CASE(a_wptr_outside_the_ring_is_eio_and_releases_nothing),
    JT_CASE(relay_step_drains_a_sink_and_stop_waits_for_bursts),
    JT_CASE(watermark_of_a_sink_is_in_bytes),
};

int main(int argc, char **argv)
{
    return jt_run("test_sink", cases, sizeof cases / sizeof cases[0], argc, argv);
}
