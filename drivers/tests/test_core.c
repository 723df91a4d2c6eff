// SPDX-License-Identifier: MIT
/*
 * test_core.c - unit tests of libjointer against the emulated monitor
 * (mock/jointer_mock.c), the access recorder and plain arrays: every API
 * function and every error path. Native, cross (qemu-user), ASan+UBSan.
 */
#include <stdlib.h>

#include "jointer.h"
#include "jointer_hosted.h"
#include "jointer_recorder.h"
#include "jt_test.h"
#include "mock/jointer_mock.h"

#include "accel_mon.h"
#include "trace_mon.h"
#include "relay_mon.h"
#include "two_lmic.h"
#include "wide_mon.h"

int jt_failed;

static mock_hw M;
static jointer_recorder REC;
static jointer_access ACC[4096];
static accel_mon_dev Y;
static trace_mon_dev T;
static two_lmic_dev W;
static relay_mon_dev RM;
static wide_mon_dev WD;

/* the Y9 monitor over the mock, through the recorder */
static int y9(void)
{
    jointer_io inner, io;
    mock_init(&M, &accel_mon_cfg);
    inner = mock_io(&M);
    if (jointer_recorder_init(&REC, &inner, ACC, 4096, &io) != 0)
        return -1;
    return accel_mon_init(&Y, &io);
}

static int tm(void)
{
    jointer_io inner, io;
    mock_init(&M, &trace_mon_cfg);
    inner = mock_io(&M);
    if (jointer_recorder_init(&REC, &inner, ACC, 4096, &io) != 0)
        return -1;
    return trace_mon_init(&T, &io);
}

static int tl(void)
{
    jointer_io inner, io;
    mock_init(&M, &two_lmic_cfg);
    inner = mock_io(&M);
    if (jointer_recorder_init(&REC, &inner, ACC, 4096, &io) != 0)
        return -1;
    return two_lmic_init(&W, &io);
}

#define PROG(s, mode) ((uint32_t)(mode) << JOINTER_PROG_SHIFT(s))

/* ---- init ------------------------------------------------------------- */

TEST(init_rejects_bad_arguments)
{
    jointer_dev d;
    jointer_io io = mock_io(&M);
    jointer_io none = jointer_io_from_ops(NULL, NULL);
    jointer_io_ops half = {mock_read, NULL, NULL};
    jointer_io halfio = jointer_io_from_ops(&half, &M);
    mock_init(&M, &accel_mon_cfg);
    CHECK_EQ(jointer_init(NULL, &accel_mon_cfg, &io), -EINVAL);
    CHECK_EQ(jointer_init(&d, NULL, &io), -EINVAL);
    CHECK_EQ(jointer_init(&d, &accel_mon_cfg, NULL), -EINVAL);
    CHECK_EQ(jointer_init(&d, &accel_mon_cfg, &none), -EINVAL);
    CHECK_EQ(jointer_init(&d, &accel_mon_cfg, &halfio), -EINVAL);
    CHECK_EQ(M.reads + M.writes, 0);
    { /* a failed init leaves the device unusable */
        uint64_t v;
        CHECK_EQ(jointer_read(&d, 0, &v), -EINVAL);
        CHECK_EQ(jointer_run(&d, 0), -EINVAL);
    }
}

/* every inconsistency the driver relies on is refused */
TEST(init_rejects_bad_descriptors)
{
    jointer_dev d;
    jointer_io io;
    jointer_cfg c;
    jointer_lmic_desc l[2];
    jointer_sniffer_desc s[4];
    jointer_metric_desc m[4];
    jointer_trace_desc t[2];
    int k;

    mock_init(&M, &trace_mon_cfg);
    io = mock_io(&M);
    for (k = 0; k < 22; k++) {
        c = trace_mon_cfg;
        memcpy(l, c.lmics, sizeof l[0] * c.num_lmics);
        memcpy(s, c.sniffers, sizeof s[0] * c.num_sniffers);
        memcpy(m, c.metrics, sizeof m[0] * c.num_metrics);
        memcpy(t, c.traces, sizeof t[0] * c.num_traces);
        c.lmics = l;
        c.sniffers = s;
        c.metrics = m;
        c.traces = t;
        switch (k) {
        case 0: break; /* the copy itself is fine */
        case 1: c.num_lmics = 0; break;
        case 2: c.num_lmics = 17; break;
        case 3: c.lmics = NULL; break;
        case 4: c.sniffers = NULL; break;
        case 5: c.metrics = NULL; break;
        case 6: c.traces = NULL; break;
        case 7: c.span = 16; break;
        case 8: l[0].base = c.span; break;
        case 9: l[0].num_sniffers = 16; break;
        case 10: l[0].first_sniffer = 1; break;
        case 11: m[1].result_offset += 2; break;
        case 12: m[1].result_offset = c.span - 4; break; /* 64-bit result past the end */
        case 13: m[0].sniffer = 7; break;
        case 14: m[0].dcapf = 2; break;
        case 15: m[1].threshold_offset = c.span; break;
        case 16: t[0].depth = 0; break;
        case 17: t[0].ram_offset = c.span - 8; break;
        case 18: t[1].reg_offset = c.span - 4; break;
        case 19: t[0].sniffer = 9; break;
        case 20: t[0].dcapf = 5; break;
        case 21: t[0].depth = 1u << 27; break;
        }
        if (k == 0)
            CHECK_OK(jointer_init(&d, &c, &io));
        else if (jointer_init(&d, &c, &io) != -EINVAL) {
            printf("  descriptor mutation %d accepted\n", k);
            CHECK(0);
        }
    }
}

TEST(init_syncs_shadow_from_control)
{
    jointer_mode mode;
    mock_init(&M, &accel_mon_cfg);
    M.control[0] = JOINTER_CONTROL_RUN | PROG(0, JOINTER_FILTERING) | PROG(2, JOINTER_NO_FILTERING);
    M.irq_enable = 1;
    {
        jointer_io io = mock_io(&M);
        CHECK_OK(accel_mon_init(&Y, &io));
    }
    CHECK_EQ(M.writes, 0);         /* a running monitor is left running */
    CHECK_EQ(M.reads, 1 + 1);      /* CONTROL of the LMIC, global IRQ_ENABLE */
    CHECK_OK(jointer_get_mode(&Y.dev, 0, 0, &mode));
    CHECK_EQ(mode, JOINTER_FILTERING);
    CHECK_OK(jointer_get_mode(&Y.dev, 0, 1, &mode));
    CHECK_EQ(mode, JOINTER_IDLE);
    CHECK_OK(jointer_get_mode(&Y.dev, 0, 2, &mode));
    CHECK_EQ(mode, JOINTER_NO_FILTERING);
    CHECK_OK(jointer_stop(&Y.dev, 0));
    CHECK_EQ(M.control[0], PROG(0, JOINTER_FILTERING) | PROG(2, JOINTER_NO_FILTERING));
}

TEST(init_propagates_bus_errors)
{
    for (int k = 0; k < 2; k++) {
        jointer_io io;
        uint64_t v;
        mock_init(&M, &accel_mon_cfg);
        M.fail_after = k;
        io = mock_io(&M);
        CHECK_EQ(accel_mon_init(&Y, &io), -EIO);
        CHECK_EQ(jointer_read(&Y.dev, 0, &v), -EINVAL);
    }
}

TEST(attach_bounds_checks_and_loads_reset_values)
{
    jointer_dev d;
    uint32_t b[8];
    jointer_io io;
    memset(&d, 0, sizeof d);
    CHECK_EQ(jointer_attach_bounds(&d, b, 8), -EINVAL); /* not initialised */
    CHECK_EQ(jointer_attach_bounds(NULL, b, 8), -EINVAL);
    mock_init(&M, &accel_mon_cfg);
    io = mock_io(&M);
    CHECK_OK(jointer_init(&d, &accel_mon_cfg, &io));
    CHECK_EQ(jointer_attach_bounds(&d, NULL, 8), -EINVAL);
    CHECK_EQ(jointer_attach_bounds(&d, b, 7), -ENOBUFS);
    CHECK_EQ(jointer_initialize(&d, 0, 0, 0, 1, 2), -ENOBUFS); /* no cache yet */
    CHECK_OK(jointer_attach_bounds(&d, b, 8));
    CHECK_EQ(b[0], 0);
    CHECK_EQ(b[1], 0xFFFF); /* bytes_written: filter 0..0xFFFF */
    CHECK_EQ(b[2], 0);
    CHECK_EQ(b[3], 0xFFFFFFFFu);
    CHECK_EQ(b[7], 0xFFFFFFFFu);
}

/* ---- control ------------------------------------------------------------ */

TEST(initialize_bus_sequence_and_pending_filtering)
{
    jointer_mode mode;
    CHECK_OK(y9());
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_initialize(&Y.dev, 0, ACCEL_MON_SNIFFER_OPERATION, 1, 5, 9));
    CHECK_EQ(REC.count, 5);
    CHECK_EQ(REC.reads, 0);
    CHECK_EQ(ACC[0].offset, ACCEL_MON_ACCEL_CONTROL);
    CHECK_EQ(ACC[0].value, PROG(2, JOINTER_INIT));
    for (int i = 1; i < 5; i++)
        CHECK_EQ(ACC[i].offset, ACCEL_MON_OPERATION_INIT);
    CHECK_EQ(ACC[1].value, 0);           /* forward_fires: reset bounds from the cache */
    CHECK_EQ(ACC[2].value, 0xFFFFFFFFu);
    CHECK_EQ(ACC[3].value, 5);
    CHECK_EQ(ACC[4].value, 9);
    CHECK_EQ(M.low[3], 5);
    CHECK_EQ(M.high[3], 9);
    CHECK_EQ(mock_mode(&M, 2), JOINTER_INIT);       /* left in INIT on the bus ... */
    CHECK_OK(jointer_get_mode(&Y.dev, 0, 2, &mode));
    CHECK_EQ(mode, JOINTER_FILTERING);              /* ... FILTERING pending */
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_run(&Y.dev, 0));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(ACC[0].value, JOINTER_CONTROL_RUN | PROG(2, JOINTER_FILTERING));
    CHECK_EQ(mock_mode(&M, 2), JOINTER_FILTERING);
}

TEST(initialize_rewrites_earlier_dcapfs_from_the_cache)
{
    CHECK_OK(y9());
    CHECK_OK(accel_mon_initialize_forward_fires(&Y, 1, 2));
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_initialize_mac_fires(&Y, 3, 4));
    CHECK_EQ(REC.count, 5);
    CHECK_EQ(ACC[1].value, 1);
    CHECK_EQ(ACC[2].value, 2);
    CHECK_EQ(ACC[3].value, 3);
    CHECK_EQ(ACC[4].value, 4);
    CHECK_EQ(M.low[2], 1);
    CHECK_EQ(M.high[2], 2);
    CHECK_EQ(M.low[3], 3);
    CHECK_EQ(M.high[3], 4);
    CHECK_EQ(M.init_writes_ignored, 0);
}

TEST(initialize_checks_arguments)
{
    jointer_dev z;
    memset(&z, 0, sizeof z);
    CHECK_OK(y9());
    CHECK_EQ(jointer_initialize(&Y.dev, 1, 0, 0, 0, 1), -EINVAL);
    CHECK_EQ(jointer_initialize(&Y.dev, 0, 3, 0, 0, 1), -EINVAL);
    CHECK_EQ(jointer_initialize(&Y.dev, 0, 0, 1, 0, 1), -EINVAL);
    CHECK_EQ(jointer_initialize(&Y.dev, 0, 2, 2, 0, 1), -EINVAL);
    CHECK_EQ(jointer_initialize(&Y.dev, 0, 0, 0, 2, 1), -ERANGE);
    CHECK_EQ(jointer_initialize(NULL, 0, 0, 0, 0, 1), -EINVAL);
    CHECK_EQ(jointer_initialize(&z, 0, 0, 0, 0, 1), -EINVAL);
    CHECK_EQ(M.writes, 0);
    CHECK_OK(jointer_initialize(&Y.dev, 0, 0, 0, 7, 7)); /* low == high: one value */
}

TEST(initialize_reports_bus_errors_and_keeps_the_cache)
{
    for (int k = 0; k < 5; k++) {
        CHECK_OK(y9());
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK_EQ(jointer_initialize(&Y.dev, 0, 2, 1, 5, 9), -EIO);
        CHECK_EQ(Y.bounds[6], 0);
        CHECK_EQ(Y.bounds[7], 0xFFFFFFFFu);
    }
}

/*
 * filter: none (trace_mon: beats and busy of sniffer bus, mark_trace of
 * sniffer host): jointer_initialize refuses them before any bus access,
 * whatever the bounds, and leaves the cache and the shadow alone.
 */
TEST(initialize_without_a_filter_is_not_supported)
{
    jointer_mode mode;
    uint32_t before[10];
    CHECK_OK(tm());
    memcpy(before, T.bounds, sizeof before);
    jointer_recorder_clear(&REC);
    CHECK_EQ(jointer_initialize(&T.dev, 0, TRACE_MON_SNIFFER_XBAR, TRACE_MON_BEATS_DCAPF, 1, 2), -ENOTSUP);
    CHECK_EQ(jointer_initialize(&T.dev, 0, TRACE_MON_SNIFFER_XBAR, TRACE_MON_BUSY_DCAPF, 1, 1), -ENOTSUP);
    CHECK_EQ(jointer_initialize(&T.dev, 0, TRACE_MON_SNIFFER_HOST, TRACE_MON_MARK_TRACE_DCAPF, 0, 9), -ENOTSUP);
    CHECK_EQ(jointer_initialize(&T.dev, 0, TRACE_MON_SNIFFER_XBAR, TRACE_MON_BUSY_DCAPF, 2, 1), -ENOTSUP);
    CHECK_EQ(jointer_initialize(&T.dev, 0, TRACE_MON_SNIFFER_XBAR, 3, 1, 2), -EINVAL); /* no DCAPF 3 */
    CHECK_EQ(REC.count, 0);
    CHECK_EQ(memcmp(before, T.bounds, sizeof before), 0);
    CHECK_OK(jointer_get_mode(&T.dev, 0, TRACE_MON_SNIFFER_XBAR, &mode));
    CHECK_EQ(mode, JOINTER_IDLE);
    CHECK_EQ((int)(trace_mon_cfg.metrics[TRACE_MON_METRIC_MARKS].flags & JOINTER_METRIC_FILTER),
             (int)JOINTER_METRIC_FILTER);
    CHECK_OK(jointer_initialize(&T.dev, 0, TRACE_MON_SNIFFER_HOST, TRACE_MON_MARKS_DCAPF, 5, 6));
    CHECK_EQ(REC.count, 3);
}

/*
 * Loading DCAPF k still rewrites DCAPFs 0..k-1, a DCAPF without a filter
 * included (its 2 cache words; the hardware drops them). In FILTERING the
 * DCAPFs without a filter count every event (a time one: every cycle with
 * data != 0), the filtered trace only the events in its range.
 */
TEST(initialize_after_a_dcapf_without_a_filter)
{
    jointer_trace_record r[8];
    uint32_t n;
    uint64_t v;
    CHECK_OK(tm());
    jointer_recorder_clear(&REC);
    CHECK_OK(trace_mon_initialize_bus_trace(&T, 0x1000, 0x10FF));
    CHECK_EQ(REC.count, 5);
    CHECK_EQ(ACC[0].value, PROG(TRACE_MON_SNIFFER_XBAR, JOINTER_INIT));
    CHECK_EQ(ACC[1].offset, TRACE_MON_XBAR_INIT);
    CHECK_EQ(ACC[1].value, 0);            /* beats: no filter, cache words 0..0xFFFFFFFF */
    CHECK_EQ(ACC[2].value, 0xFFFFFFFFu);
    CHECK_EQ(ACC[3].value, 0x1000);
    CHECK_EQ(ACC[4].value, 0x10FF);
    CHECK_EQ(M.init_words_dropped, 2);
    CHECK_EQ(M.init_writes_ignored, 0);
    CHECK_EQ(M.low[3], 0x1000);           /* bus_trace: DCAPF 2 + 1 of the monitor */
    CHECK_EQ(M.high[3], 0x10FF);
    CHECK_OK(jointer_run(&T.dev, 0));
    CHECK_EQ(mock_mode(&M, 1), JOINTER_FILTERING);
    mock_event(&M, TRACE_MON_METRIC_BEATS, 0x1000, 3);
    mock_event(&M, TRACE_MON_METRIC_BEATS, 0x43C00000u, 4);
    mock_time(&M, TRACE_MON_METRIC_BUSY, 1, 7);
    mock_time(&M, TRACE_MON_METRIC_BUSY, 0, 9);     /* idle: not counted */
    mock_time(&M, TRACE_MON_METRIC_BUSY, 0x5000, 5);
    mock_trace_event(&M, TRACE_MON_TRACE_BUS_TRACE, 0x10FF);
    mock_trace_event(&M, TRACE_MON_TRACE_BUS_TRACE, 0x1100); /* filtered out */
    CHECK_OK(trace_mon_read_beats(&T, &v));
    CHECK_EQ(v, 7);
    CHECK_OK(trace_mon_read_busy(&T, &v));
    CHECK_EQ(v, 7);
    CHECK_OK(trace_mon_trace_read_bus_trace(&T, r, 8, &n));
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0].data, 0x10FF);
}

/* a trace without a filter records every MARK in FILTERING */
TEST(filtering_without_a_filter_counts_as_no_filtering)
{
    jointer_trace_record r[4];
    uint32_t n;
    uint64_t v;
    CHECK_OK(tm());
    M.mark_sniffer = 0; /* host */
    CHECK_OK(trace_mon_initialize_marks(&T, 0x10, 0x20));
    CHECK_OK(jointer_run(&T.dev, 0));
    CHECK_EQ(mock_mode(&M, 0), JOINTER_FILTERING);
    CHECK_OK(jointer_mark(&T.dev, 0x15));
    CHECK_OK(jointer_mark(&T.dev, 0x30));
    CHECK_OK(jointer_mark(&T.dev, 0));
    CHECK_OK(trace_mon_read_marks(&T, &v));
    CHECK_EQ(v, 1);                       /* marks: filter 0x10..0x20 */
    CHECK_OK(trace_mon_trace_read_mark_trace(&T, r, 4, &n));
    CHECK_EQ(n, 3);                       /* mark_trace: no filter */
    CHECK_EQ(r[1].data, 0x30);
    CHECK_EQ(r[2].data, 0);
}

/*
 * The original jointer API ORed the run bits into the INIT bits and so
 * switched filtered sniffers to NO-FILTERING. Here: initialize, run, and
 * only the in-range events count.
 */
TEST(initialize_then_run_counts_only_in_range_events)
{
    uint64_t v;
    CHECK_OK(y9());
    CHECK_OK(accel_mon_initialize_bytes_written(&Y, 0x1000, 0x1FFF));
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 0x1800, 100); /* INIT: not counted */
    CHECK_OK(accel_mon_run_accel(&Y));
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 0x1000, 4);   /* in range */
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 0x0FFF, 8);   /* below */
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 0x1FFF, 2);   /* in range */
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 0x2000, 16);  /* above */
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 0x43C00000u, 32);
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 6);
    CHECK_EQ(mock_mode(&M, 0), JOINTER_FILTERING);
    /* the same traffic unfiltered counts everything */
    CHECK_OK(accel_mon_set_mode_transaction(&Y, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_reset_accel(&Y));
    mock_event(&M, 0, 0x1000, 4);
    mock_event(&M, 0, 0x0FFF, 8);
    mock_event(&M, 0, 0x1FFF, 2);
    mock_event(&M, 0, 0x2000, 16);
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 30);
}

/* ---- addresses above 4 GB: a 40-bit tap's bounds are two INIT words ---- */

static int wm(void)
{
    jointer_io inner, io;
    mock_init(&M, &wide_mon_cfg);
    inner = mock_io(&M);
    if (jointer_recorder_init(&REC, &inner, ACC, 4096, &io) != 0)
        return -1;
    return wide_mon_init(&WD, &io);
}

TEST(wide_bounds_are_two_words_each)
{
    uint32_t init = WIDE_MON_DMA_INIT;
    unsigned i;
    CHECK_EQ(WIDE_MON_BOUNDS_WORDS, 2u * 1u + 2u * 2u * 3u);   /* lite: 1 DCAPF x 2; dma: 3 x 4 */
    CHECK_OK(wm());
    CHECK_EQ(M.high[1 + WIDE_MON_HIGH_WIN_DCAPF], 0x81FFFFFFFull);  /* the reset values */
    REC.count = 0;
    CHECK_OK(wide_mon_initialize_high_win(&WD, 0x812345678ull, 0xFF00000001ull));
    /* CONTROL (INIT), then DCAPFs 0 and 1 from the cache, then low and high: 4 words each */
    CHECK_EQ(REC.count, 1u + 4u * 3u);
    for (i = 1; i < REC.count; i++)
        CHECK_EQ(REC.log[i].offset, init);
    CHECK_EQ(REC.log[1].value, 0x10000000u);     /* low_win: low bits 31..0, 63..32 */
    CHECK_EQ(REC.log[2].value, 0u);
    CHECK_EQ(REC.log[3].value, 0x1FFFFFFFu);     /* ... high */
    CHECK_EQ(REC.log[4].value, 0u);
    CHECK_EQ(REC.log[9].value, 0x12345678u);     /* high_win low */
    CHECK_EQ(REC.log[10].value, 0x8u);
    CHECK_EQ(REC.log[11].value, 0x00000001u);    /* high_win high */
    CHECK_EQ(REC.log[12].value, 0xFFu);
    CHECK_EQ(M.low[1 + WIDE_MON_HIGH_WIN_DCAPF], 0x812345678ull);
    CHECK_EQ(M.high[1 + WIDE_MON_HIGH_WIN_DCAPF], 0xFF00000001ull);
    CHECK_EQ(M.low[1 + WIDE_MON_LOW_WIN_DCAPF], 0x10000000ull);   /* rewritten unchanged */
}

TEST(wide_windows_count_above_and_below_4g_apart)
{
    uint64_t lo, hi, any;
    CHECK_OK(wm());
    CHECK_OK(wide_mon_initialize_low_win(&WD, 0x10000000ull, 0x1FFFFFFFull));
    CHECK_OK(wide_mon_initialize_high_win(&WD, 0x810000000ull, 0x81FFFFFFFull));
    CHECK_OK(wide_mon_run_mem(&WD));
    mock_event(&M, WIDE_MON_METRIC_LOW_WIN, 0x810000000ull, 128);   /* above 4 GB */
    mock_event(&M, WIDE_MON_METRIC_HIGH_WIN, 0x810000000ull, 128);
    mock_event(&M, WIDE_MON_METRIC_ANY_ADDR, 0x810000000ull, 128);
    mock_event(&M, WIDE_MON_METRIC_LOW_WIN, 0x10000000ull, 256);    /* its alias below 4 GB */
    mock_event(&M, WIDE_MON_METRIC_HIGH_WIN, 0x10000000ull, 256);
    mock_event(&M, WIDE_MON_METRIC_ANY_ADDR, 0x10000000ull, 256);
    CHECK_OK(wide_mon_read_low_win(&WD, &lo));
    CHECK_OK(wide_mon_read_high_win(&WD, &hi));
    CHECK_OK(wide_mon_read_any_addr(&WD, &any));
    CHECK_EQ(lo, 256u);
    CHECK_EQ(hi, 128u);
    CHECK_EQ(any, 384u);
}

TEST(wide_initialize_refuses_bounds_the_hardware_would_cut)
{
    CHECK_OK(wm());
    CHECK_EQ(wide_mon_initialize_high_win(&WD, 0, 1ull << 40), -ERANGE);  /* 41 bits: the tap has 40 */
    CHECK_OK(wide_mon_initialize_high_win(&WD, 0, (1ull << 40) - 1u));
    CHECK_EQ(wide_mon_initialize_lite_bytes(&WD, 0, 0x100000000ull), -ERANGE); /* a 32-bit tap */
    CHECK_OK(wide_mon_initialize_lite_bytes(&WD, 0, 0xFFFFFFFFull));
}

/* one monitoring action on Y9: initialize the transaction filter, run,
 * stop, read every result: counted bus transactions */
TEST(y9_monitoring_action_bus_transactions)
{
    uint64_t v[ACCEL_MON_NUM_METRICS];
    unsigned init, run, stop, rdall;
    CHECK_OK(y9());
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_initialize_bytes_written(&Y, 0, 0xFFFF));
    init = REC.count;
    CHECK_OK(accel_mon_run_accel(&Y));
    run = REC.count - init;
    mock_event(&M, 0, 0x10, 64);
    mock_time(&M, 1, 1, 1000);
    CHECK_OK(accel_mon_stop_accel(&Y));
    stop = REC.count - init - run;
    CHECK_OK(accel_mon_read_all(&Y, v));
    rdall = REC.count - init - run - stop;
    printf("  Y9 action: initialize %u + run %u + stop %u + read_all %u = %u bus transactions\n",
           init, run, stop, rdall, REC.count);
    CHECK_EQ(init, 3);   /* CONTROL(INIT) + low + high */
    CHECK_EQ(run, 1);
    CHECK_EQ(stop, 1);
    CHECK_EQ(rdall, 5);  /* 23 + 53 (2 words) + 10 + 10 bits */
    CHECK(REC.count <= 10);
    CHECK_EQ(v[0], 64);
    CHECK_EQ(v[1], 0);   /* task sniffer IDLE */
}

TEST(set_mode_and_get_mode)
{
    jointer_mode mode;
    CHECK_OK(y9());
    for (int m = 0; m < 4; m++) {
        jointer_recorder_clear(&REC);
        CHECK_OK(accel_mon_set_mode_task(&Y, (jointer_mode)m));
        CHECK_EQ(REC.count, 1);
        CHECK_EQ(ACC[0].value, PROG(1, m));
        CHECK_EQ(mock_mode(&M, 1), m);
        CHECK_OK(jointer_get_mode(&Y.dev, 0, 1, &mode));
        CHECK_EQ(mode, m);
    }
    CHECK_EQ(jointer_set_mode(&Y.dev, 0, 1, (jointer_mode)4), -EINVAL);
    CHECK_EQ(jointer_set_mode(&Y.dev, 0, 3, JOINTER_IDLE), -EINVAL);
    CHECK_EQ(jointer_set_mode(&Y.dev, 1, 0, JOINTER_IDLE), -EINVAL);
    CHECK_EQ(jointer_get_mode(&Y.dev, 0, 3, &mode), -EINVAL);
    CHECK_EQ(jointer_get_mode(&Y.dev, 0, 0, NULL), -EINVAL);
    CHECK_EQ(jointer_get_mode(NULL, 0, 0, &mode), -EINVAL);
    /* INIT over INIT restarts the pointer */
    CHECK_OK(jointer_set_mode(&Y.dev, 0, 2, JOINTER_INIT));
    CHECK_OK(mock_write(&M, ACCEL_MON_OPERATION_INIT, 1));
    CHECK_EQ(M.init_ptr[2], 1);
    CHECK_OK(jointer_set_mode(&Y.dev, 0, 2, JOINTER_INIT));
    CHECK_EQ(M.init_ptr[2], 0);
    M.fail_after = 0;
    CHECK_EQ(jointer_set_mode(&Y.dev, 0, 2, JOINTER_IDLE), -EIO);
    CHECK_OK(jointer_get_mode(&Y.dev, 0, 2, &mode));
    CHECK_EQ(mode, JOINTER_INIT); /* shadow unchanged on a failed write */
}

TEST(run_stop_reset_one_write_each)
{
    uint64_t v;
    CHECK_OK(y9());
    CHECK_OK(accel_mon_set_mode_transaction(&Y, JOINTER_NO_FILTERING));
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(M.control[0], JOINTER_CONTROL_RUN | PROG(0, JOINTER_NO_FILTERING));
    mock_event(&M, 0, 1, 3);
    mock_time(&M, 1, 1, 50); /* task sniffer IDLE: nothing */
    M.result[1] = 77;        /* held by the IDLE sniffer */
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_reset_accel(&Y));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(ACC[0].value, JOINTER_CONTROL_RUN | JOINTER_CONTROL_SOFT_RESET | PROG(0, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 0);
    CHECK_OK(accel_mon_read_compute_cycles(&Y, &v));
    CHECK_EQ(v, 77);
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_stop_accel(&Y));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(ACC[0].value, PROG(0, JOINTER_NO_FILTERING)); /* no SOFT_RESET left over */
    mock_event(&M, 0, 1, 3);
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 0);
    CHECK_EQ(jointer_run(&Y.dev, 1), -EINVAL);
    CHECK_EQ(jointer_stop(&Y.dev, 1), -EINVAL);
    CHECK_EQ(jointer_reset(&Y.dev, 1), -EINVAL);
    CHECK_EQ(jointer_run(NULL, 0), -EINVAL);
    M.fail_after = 0;
    CHECK_EQ(jointer_run(&Y.dev, 0), -EIO);
    CHECK_EQ(Y.dev.control[0] & JOINTER_CONTROL_RUN, 0);
}

TEST(initialize_while_running_keeps_the_others_counting)
{
    uint64_t v;
    CHECK_OK(y9());
    CHECK_OK(accel_mon_set_mode_operation(&Y, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_set_mode_transaction(&Y, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_OK(accel_mon_initialize_bytes_written(&Y, 0, 10));
    CHECK(M.control[0] & JOINTER_CONTROL_RUN);
    mock_event(&M, ACCEL_MON_METRIC_MAC_FIRES, 0, 1);
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 5, 1); /* in INIT: ignored */
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 1);
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 0);
    CHECK_OK(accel_mon_run_accel(&Y)); /* carries FILTERING */
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 5, 1);
    mock_event(&M, ACCEL_MON_METRIC_BYTES_WRITTEN, 11, 1);
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 1);
}

TEST(status_register)
{
    uint32_t st;
    CHECK_OK(y9());
    CHECK_OK(accel_mon_set_mode_operation(&Y, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_run_accel(&Y));
    for (int i = 0; i < 1030; i++)
        mock_event(&M, ACCEL_MON_METRIC_FORWARD_FIRES, 0, 1); /* 10 bits: saturates */
    CHECK_OK(jointer_status(&Y.dev, 0, &st));
    CHECK_EQ(st, JOINTER_STATUS_VALID(2) | JOINTER_STATUS_OVERFLOW(2));
    CHECK_EQ(jointer_status(&Y.dev, 1, &st), -EINVAL);
    CHECK_EQ(jointer_status(&Y.dev, 0, NULL), -EINVAL);
}

TEST(two_lmics_have_separate_controls)
{
    CHECK_OK(tl());
    jointer_recorder_clear(&REC);
    CHECK_OK(two_lmic_run_accel(&W));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(ACC[0].offset, TWO_LMIC_ACCEL_CONTROL);
    CHECK_EQ(M.control[0], 0);
    CHECK_EQ(M.control[1], JOINTER_CONTROL_RUN);
    CHECK_OK(two_lmic_set_mode_ops(&W, JOINTER_FILTERING));
    CHECK_EQ(M.control[1], JOINTER_CONTROL_RUN | PROG(1, JOINTER_FILTERING));
    CHECK_OK(two_lmic_initialize_read_max(&W, 1, 2));
    CHECK_EQ(ACC[REC.count - 5].offset, TWO_LMIC_CPU_CONTROL);
    CHECK_EQ(M.low[1], 1);
    CHECK_EQ(M.high[1], 2);
    CHECK_EQ(M.control[1], JOINTER_CONTROL_RUN | PROG(1, JOINTER_FILTERING));
}

/* ---- results ------------------------------------------------------------- */

TEST(read_direct_path)
{
    static uint32_t regs[ACCEL_MON_SPAN / 4];
    jointer_io io = jointer_io_direct(regs);
    uint64_t v;
    memset(regs, 0, sizeof regs);
    CHECK_OK(accel_mon_init(&Y, &io));
    CHECK_EQ(Y.dev.fast_metrics, ACCEL_MON_NUM_METRICS);
    regs[ACCEL_MON_BYTES_WRITTEN_RESULT / 4] = 0x7FFFFF;
    regs[ACCEL_MON_COMPUTE_CYCLES_RESULT / 4] = 0x89ABCDEFu;
    regs[ACCEL_MON_COMPUTE_CYCLES_RESULT / 4 + 1] = 0x1F4567;
    regs[ACCEL_MON_MAC_FIRES_RESULT / 4] = 1000;
    CHECK_OK(accel_mon_read_bytes_written(&Y, &v));
    CHECK_EQ(v, 0x7FFFFF);
    CHECK_OK(accel_mon_read_compute_cycles(&Y, &v));
    CHECK_EQ(v, 0x1F456789ABCDEFull);
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 1000);
    CHECK_EQ(jointer_read(&Y.dev, 4, &v), -EINVAL);
    CHECK_EQ(jointer_read(&Y.dev, 0, NULL), -EINVAL);
    CHECK_EQ(jointer_read(NULL, 0, &v), -EINVAL);
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_EQ(regs[ACCEL_MON_ACCEL_CONTROL / 4], JOINTER_CONTROL_RUN);
    /* Y9 has no mark sniffer, so no MARK register: refused, nothing written */
    CHECK_EQ(jointer_mark(&Y.dev, 0x1234), -ENOTSUP);
    CHECK_EQ(regs[JOINTER_REG_MARK / 4], 0);
}

TEST(read_ops_path_lsw_first)
{
    uint64_t v;
    CHECK_OK(y9());
    CHECK_EQ(Y.dev.fast_metrics, 0);
    M.result[1] = 0x1FFFFFFFFFFFFFull;
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_read_compute_cycles(&Y, &v));
    CHECK_EQ(v, 0x1FFFFFFFFFFFFFull);
    CHECK_EQ(REC.count, 2);
    CHECK_EQ(ACC[0].offset, ACCEL_MON_COMPUTE_CYCLES_RESULT);
    CHECK_EQ(ACC[1].offset, ACCEL_MON_COMPUTE_CYCLES_RESULT + 4);
    M.result[3] = 5;
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 5);
    CHECK_EQ(REC.count, 1);
}

static void count_up(mock_hw *m, void *ctx)
{
    (void)ctx;
    m->result[ACCEL_MON_METRIC_COMPUTE_CYCLES]++;
}

TEST(read_is_torn_free)
{
    uint64_t v;
    CHECK_OK(y9());
    M.result[1] = 0xFFFFFFFEull; /* the bus access before the LSW read makes it 0xFFFFFFFF */
    M.tick = count_up;
    CHECK_OK(accel_mon_read_compute_cycles(&Y, &v));
    CHECK_EQ(v, 0xFFFFFFFFull); /* not 0x1FFFFFFFF: the upper word is the snapshot */
    CHECK_EQ(M.result[1], 0x100000000ull);
}

TEST(read_errors)
{
    uint64_t v;
    jointer_dev z;
    memset(&z, 0, sizeof z);
    CHECK_OK(y9());
    CHECK_EQ(jointer_read(&Y.dev, ACCEL_MON_NUM_METRICS, &v), -EINVAL);
    CHECK_EQ(jointer_read(&Y.dev, 0, NULL), -EINVAL);
    CHECK_EQ(jointer_read(&z, 0, &v), -EINVAL);
    CHECK_EQ(jointer_dev_size(), sizeof(jointer_dev));
    CHECK(jointer_dev_cfg(&Y.dev) == &accel_mon_cfg);
    CHECK(jointer_dev_cfg(NULL) == NULL);
    for (int k = 0; k < 2; k++) {
        CHECK_OK(y9());
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK_EQ(jointer_read(&Y.dev, 1, &v), -EIO);
    }
}

TEST(read_all_fewest_reads)
{
    uint64_t v[8];
    CHECK_OK(y9());
    M.result[0] = 1;
    M.result[1] = 0x100000002ull;
    M.result[2] = 3;
    M.result[3] = 4;
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_read_all(&Y.dev, v, 8));
    CHECK_EQ(REC.count, 5);
    CHECK_EQ(REC.writes, 0);
    CHECK_EQ(v[0], 1);
    CHECK_EQ(v[1], 0x100000002ull);
    CHECK_EQ(v[2], 3);
    CHECK_EQ(v[3], 4);
    CHECK_EQ(jointer_read_all(&Y.dev, v, 3), -EINVAL);
    CHECK_EQ(jointer_read_all(&Y.dev, NULL, 4), -EINVAL);
    CHECK_EQ(jointer_read_all(NULL, v, 4), -EINVAL);
    for (int k = 0; k < 5; k++) {
        CHECK_OK(y9());
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK_EQ(jointer_read_all(&Y.dev, v, 4), -EIO);
    }
}

TEST(threshold_32_bit)
{
    uint64_t v;
    uint32_t st;
    CHECK_OK(y9());
    jointer_recorder_clear(&REC);
    CHECK_OK(accel_mon_set_threshold_mac_fires(&Y, 3));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(ACC[0].offset, ACCEL_MON_MAC_FIRES_THRESHOLD);
    CHECK_EQ(ACC[0].value, 3);
    CHECK_OK(accel_mon_read_threshold_mac_fires(&Y, &v));
    CHECK_EQ(v, 3);
    CHECK_EQ(accel_mon_set_threshold_mac_fires(&Y, 1024), -ERANGE);
    CHECK_OK(accel_mon_set_threshold_mac_fires(&Y, 1023));
    CHECK_OK(accel_mon_set_threshold_mac_fires(&Y, 3));
    CHECK_EQ(jointer_set_threshold(&Y.dev, ACCEL_MON_METRIC_FORWARD_FIRES, 1), -ENOTSUP);
    CHECK_EQ(jointer_read_threshold(&Y.dev, ACCEL_MON_METRIC_FORWARD_FIRES, &v), -ENOTSUP);
    CHECK_EQ(jointer_set_threshold(&Y.dev, 4, 1), -EINVAL);
    CHECK_EQ(jointer_read_threshold(&Y.dev, 4, &v), -EINVAL);
    CHECK_EQ(jointer_read_threshold(&Y.dev, ACCEL_MON_METRIC_MAC_FIRES, NULL), -EINVAL);
    CHECK_EQ(jointer_set_threshold(NULL, 3, 1), -EINVAL);
    /* crossing raises the IRQ source */
    CHECK_OK(accel_mon_set_mode_operation(&Y, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_run_accel(&Y));
    mock_event(&M, ACCEL_MON_METRIC_MAC_FIRES, 0, 2);
    CHECK_OK(jointer_irq_status(&Y.dev, 0, &st));
    CHECK_EQ(st, 0);
    mock_event(&M, ACCEL_MON_METRIC_MAC_FIRES, 0, 1);
    CHECK_OK(jointer_irq_status(&Y.dev, 0, &st));
    CHECK_EQ(st, ACCEL_MON_MAC_FIRES_IRQ_MASK);
    M.fail_after = (int)(M.reads + M.writes);
    CHECK_EQ(accel_mon_set_threshold_mac_fires(&Y, 3), -EIO);
}

TEST(threshold_64_bit_lower_word_first)
{
    uint64_t v;
    CHECK_OK(tm());
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_set_threshold(&T.dev, TRACE_MON_METRIC_BEATS, 0x123456789ull));
    CHECK_EQ(REC.count, 2);
    CHECK_EQ(ACC[0].offset, TRACE_MON_BEATS_THRESHOLD);
    CHECK_EQ(ACC[0].value, 0x23456789u);
    CHECK_EQ(ACC[1].offset, TRACE_MON_BEATS_THRESHOLD + 4);
    CHECK_EQ(ACC[1].value, 1);
    CHECK_EQ(M.threshold[TRACE_MON_METRIC_BEATS], 0x123456789ull);
    CHECK_OK(jointer_read_threshold(&T.dev, TRACE_MON_METRIC_BEATS, &v));
    CHECK_EQ(v, 0x123456789ull);
    CHECK_OK(jointer_set_threshold(&T.dev, TRACE_MON_METRIC_BEATS, ~0ull)); /* 64 bits: any value */
    CHECK_EQ(M.threshold[TRACE_MON_METRIC_BEATS], ~0ull);
    for (int k = 0; k < 2; k++) {
        CHECK_OK(tm());
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK_EQ(jointer_set_threshold(&T.dev, TRACE_MON_METRIC_BEATS, 5), -EIO);
    }
}

TEST(timestamp_is_torn_free)
{
    uint64_t ts;
    CHECK_OK(y9());
    M.timestamp = 0xFFFFFFFEull; /* LO read sees 0xFFFFFFFF, the HI read happens at 0x1_00000000 */
    CHECK_OK(jointer_timestamp(&Y.dev, &ts));
    CHECK_EQ(ts, 0xFFFFFFFFull);
    CHECK_OK(jointer_timestamp(&Y.dev, &ts));
    CHECK_EQ(ts, 0x100000001ull);
    CHECK_EQ(jointer_timestamp(&Y.dev, NULL), -EINVAL);
    CHECK_EQ(jointer_timestamp(NULL, &ts), -EINVAL);
    M.fail_after = (int)(M.reads + M.writes) + 1;
    CHECK_EQ(jointer_timestamp(&Y.dev, &ts), -EIO);
}

TEST(mark_is_exactly_one_write)
{
    uint64_t v;
    jointer_trace_record r[4];
    uint32_t n;
    CHECK_OK(tm());
    M.mark_sniffer = 0; /* host */
    CHECK_OK(jointer_set_mode(&T.dev, 0, TRACE_MON_SNIFFER_HOST, JOINTER_NO_FILTERING));
    CHECK_OK(jointer_run(&T.dev, 0));
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_mark(&T.dev, 0xCAFE));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(REC.writes, 1);
    CHECK_EQ(ACC[0].offset, JOINTER_REG_MARK);
    CHECK_EQ(ACC[0].value, 0xCAFE);
    CHECK_EQ(M.marks, 1);
    CHECK_OK(jointer_read(&T.dev, TRACE_MON_METRIC_MARKS, &v));
    CHECK_EQ(v, 1);
    CHECK_OK(trace_mon_trace_read_mark_trace(&T, r, 4, &n));
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0].data, 0xCAFE);
    CHECK_EQ(jointer_mark(NULL, 1), -EINVAL);
    M.fail_after = (int)(M.reads + M.writes);
    CHECK_EQ(jointer_mark(&T.dev, 1), -EIO);
}

/* ---- traces --------------------------------------------------------------- */

TEST(trace_stop_mode_filtered)
{
    jointer_trace_record r[16];
    uint32_t n, fill, st;
    CHECK_OK(tm());
    CHECK_OK(trace_mon_initialize_bus_trace(&T, 0x1000, 0x10FF));
    CHECK_OK(jointer_run(&T.dev, 0));
    for (uint32_t i = 0; i < 12; i++) {
        mock_trace_event(&M, TRACE_MON_TRACE_BUS_TRACE, 0x1000 + i);
        mock_trace_event(&M, TRACE_MON_TRACE_BUS_TRACE, 0x2000 + i); /* filtered out */
    }
    CHECK_OK(jointer_trace_status(&T.dev, TRACE_MON_TRACE_BUS_TRACE, &fill, &st));
    CHECK_EQ(fill, 8);
    CHECK_EQ(st, JOINTER_TRACE_STATUS_FULL | JOINTER_TRACE_STATUS_OVERFLOW);
    jointer_recorder_clear(&REC);
    CHECK_OK(trace_mon_trace_read_bus_trace(&T, r, 16, &n));
    CHECK_EQ(n, 8);
    CHECK_EQ(REC.count, 1 + 2 * 8); /* stop mode: FILL, then the records */
    for (uint32_t i = 0; i < 8; i++)
        CHECK_EQ(r[i].data, 0x1000 + i);
    CHECK(r[7].timestamp > r[0].timestamp);
    CHECK_OK(trace_mon_trace_read_bus_trace(&T, r, 3, &n));
    CHECK_EQ(n, 3);
    CHECK_EQ(r[2].data, 0x1002);
    CHECK_OK(trace_mon_trace_read_bus_trace(&T, NULL, 0, &n));
    CHECK_EQ(n, 0);
}

TEST(trace_ring_mode_oldest_first)
{
    jointer_trace_record r[16];
    uint32_t n;
    CHECK_OK(tm());
    M.mark_sniffer = 0;
    CHECK_OK(jointer_set_mode(&T.dev, 0, TRACE_MON_SNIFFER_HOST, JOINTER_NO_FILTERING));
    CHECK_OK(jointer_run(&T.dev, 0));
    for (uint32_t i = 0; i < 5; i++)
        CHECK_OK(jointer_mark(&T.dev, i));
    CHECK_OK(trace_mon_trace_read_mark_trace(&T, r, 16, &n));
    CHECK_EQ(n, 5);
    CHECK_EQ(r[4].data, 4);
    for (uint32_t i = 5; i < 21; i++)
        CHECK_OK(jointer_mark(&T.dev, i));
    CHECK_OK(trace_mon_trace_read_mark_trace(&T, r, 16, &n));
    CHECK_EQ(n, 16);
    for (uint32_t i = 0; i < 16; i++)
        CHECK_EQ(r[i].data, 5 + i);
}

TEST(trace_errors)
{
    jointer_trace_record r[4];
    uint32_t n, fill, st;
    CHECK_OK(tm());
    CHECK_EQ(jointer_trace_read(&T.dev, 2, r, 4, &n), -EINVAL);
    CHECK_EQ(jointer_trace_read(&T.dev, 0, r, 4, NULL), -EINVAL);
    CHECK_EQ(jointer_trace_read(&T.dev, 0, NULL, 4, &n), -EINVAL);
    CHECK_EQ(jointer_trace_read(NULL, 0, r, 4, &n), -EINVAL);
    CHECK_EQ(jointer_trace_status(&T.dev, 2, &fill, &st), -EINVAL);
    CHECK_EQ(jointer_trace_status(&T.dev, 0, NULL, &st), -EINVAL);
    CHECK_EQ(jointer_trace_status(&T.dev, 0, &fill, NULL), -EINVAL);
    CHECK_EQ(jointer_trace_set_watermark(&T.dev, 2, 1), -EINVAL);
    CHECK_EQ(jointer_trace_set_watermark(&T.dev, 1, 9), -ERANGE);
    M.tr_fill[1] = 9; /* beyond DEPTH 8: inconsistent hardware */
    CHECK_EQ(jointer_trace_read(&T.dev, 1, r, 4, &n), -EIO);
    M.tr_fill[0] = 16;
    M.tr_wptr[0] = 16; /* ring full, WPTR out of range */
    CHECK_EQ(jointer_trace_read(&T.dev, 0, r, 4, &n), -EIO);
    M.tr_wptr[0] = 3;
    CHECK_OK(jointer_trace_read(&T.dev, 0, r, 4, &n));
    CHECK_EQ(n, 4);
    { /* a bus error at every access of a full ring read of 2 records */
        for (int k = 0; k < 6; k++) {
            unsigned base = M.reads + M.writes;
            M.fail_after = (int)base + k;
            CHECK_EQ(jointer_trace_read(&T.dev, 0, r, 2, &n), -EIO);
            M.fail_after = -1;
        }
        M.fail_after = (int)(M.reads + M.writes) + 1;
        CHECK_EQ(jointer_trace_status(&T.dev, 0, &fill, &st), -EIO);
    }
}

TEST(trace_watermark_irq)
{
    uint32_t st;
    CHECK_OK(tm());
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_trace_set_watermark(&T.dev, TRACE_MON_TRACE_BUS_TRACE, 3));
    CHECK_EQ(REC.count, 1);
    CHECK_EQ(ACC[0].offset, TRACE_MON_BUS_TRACE_REGS + JOINTER_TRACE_WATERMARK);
    CHECK_OK(jointer_set_mode(&T.dev, 0, TRACE_MON_SNIFFER_XBAR, JOINTER_NO_FILTERING));
    CHECK_OK(jointer_run(&T.dev, 0));
    for (int i = 0; i < 3; i++)
        mock_trace_event(&M, TRACE_MON_TRACE_BUS_TRACE, 1);
    CHECK_OK(jointer_irq_status(&T.dev, 0, &st));
    CHECK_EQ(st, TRACE_MON_BUS_TRACE_IRQ_MASK & (TRACE_MON_BUS_TRACE_IRQ_MASK >> 1)); /* watermark */
    for (int i = 0; i < 5; i++)
        mock_trace_event(&M, TRACE_MON_TRACE_BUS_TRACE, 1);
    CHECK_OK(jointer_irq_status(&T.dev, 0, &st));
    CHECK_EQ(st, TRACE_MON_BUS_TRACE_IRQ_MASK); /* and full */
    CHECK_OK(jointer_irq_ack(&T.dev, 0, TRACE_MON_BUS_TRACE_IRQ_MASK));
    CHECK_OK(jointer_irq_status(&T.dev, 0, &st));
    CHECK_EQ(st, 0);
}

/* ---- interrupts ------------------------------------------------------------- */

TEST(irq_enable_writes_lmic_and_global)
{
    CHECK_OK(tl());
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_irq_enable(&W.dev, 1, TWO_LMIC_COMPUTE_CYCLES_IRQ_MASK));
    CHECK_EQ(REC.count, 2);
    CHECK_EQ(ACC[0].offset, TWO_LMIC_ACCEL_IRQ_ENABLE);
    CHECK_EQ(ACC[1].offset, JOINTER_REG_IRQ_ENABLE);
    CHECK_EQ(M.irq_enable, 2);
    CHECK_OK(jointer_irq_enable(&W.dev, 0, 1));
    CHECK_EQ(M.irq_enable, 3);
    CHECK_OK(jointer_irq_enable(&W.dev, 1, 0));
    CHECK_EQ(M.irq_enable, 1);
    CHECK_EQ(M.lirq_enable[1], 0);
    CHECK_EQ(jointer_irq_enable(&W.dev, 0, 2), -EINVAL); /* one source only */
    CHECK_EQ(jointer_irq_enable(&W.dev, 2, 1), -EINVAL);
    CHECK_EQ(jointer_irq_ack(&W.dev, 0, 2), -EINVAL);
    CHECK_EQ(jointer_irq_ack(&W.dev, 2, 1), -EINVAL);
    CHECK_EQ(jointer_irq_status(&W.dev, 2, NULL), -EINVAL);
    CHECK_EQ(jointer_irq_enable(NULL, 0, 1), -EINVAL);
    for (int k = 0; k < 2; k++) {
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK_EQ(jointer_irq_enable(&W.dev, 1, 1), -EIO);
        M.fail_after = -1;
        CHECK_EQ(W.dev.irq_enable, 1); /* shadow follows only a complete enable */
    }
}

static void raise_mac(mock_hw *m, void *ctx)
{
    (void)ctx;
    mock_event(m, ACCEL_MON_METRIC_MAC_FIRES, 0, 1);
}

TEST(irq_wait_through_ops)
{
    uint32_t l = 99;
    CHECK_OK(y9());
    CHECK_OK(accel_mon_set_threshold_mac_fires(&Y, 2));
    CHECK_OK(jointer_irq_enable(&Y.dev, 0, ACCEL_MON_MAC_FIRES_IRQ_MASK));
    CHECK_OK(accel_mon_set_mode_operation(&Y, JOINTER_NO_FILTERING));
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_EQ(jointer_irq_wait(&Y.dev, 10, &l), -ETIMEDOUT);
    M.on_wait = raise_mac; /* one event per wait */
    CHECK_EQ(jointer_irq_wait(&Y.dev, 10, &l), -ETIMEDOUT);
    CHECK_OK(jointer_irq_wait(&Y.dev, 10, &l));
    CHECK_EQ(l, 1);
    CHECK_EQ(M.waits, 3);
    CHECK_OK(jointer_irq_ack(&Y.dev, 0, ACCEL_MON_MAC_FIRES_IRQ_MASK));
    CHECK_EQ(mock_irq(&M), 0);
    CHECK_OK(jointer_irq_wait(&Y.dev, -1, NULL) == -ETIMEDOUT ? 0 : 1);
    CHECK_EQ(jointer_irq_wait(NULL, 0, &l), -EINVAL);
}

static uint32_t fake_ms;
static uint32_t fake_clock(void *ctx)
{
    (void)ctx;
    return fake_ms++;
}

static unsigned polls_left;
static void raise_after_polls(mock_hw *m, void *ctx)
{
    (void)ctx;
    if (polls_left != 0 && --polls_left == 0)
        m->lirq_status[0] |= 1;
}

TEST(irq_wait_polled)
{
    jointer_io io;
    uint32_t l = 0;
    mock_init(&M, &accel_mon_cfg);
    io = mock_io_polled(&M);
    CHECK_OK(accel_mon_init(&Y, &io));
    CHECK_OK(jointer_irq_enable(&Y.dev, 0, 1));
    /* counted polls: 1 ms = JOINTER_POLLS_PER_MS reads */
    M.reads = 0;
    CHECK_EQ(jointer_irq_wait(&Y.dev, 2, &l), -ETIMEDOUT);
    CHECK_EQ(M.reads, 2 * JOINTER_POLLS_PER_MS);
    M.reads = 0;
    CHECK_EQ(jointer_irq_wait(&Y.dev, 0, &l), -ETIMEDOUT); /* checks once */
    CHECK_EQ(M.reads, 1);
    /* clock hook */
    jointer_set_clock(&Y.dev, fake_clock, NULL);
    fake_ms = 1000;
    M.reads = 0;
    CHECK_EQ(jointer_irq_wait(&Y.dev, 5, &l), -ETIMEDOUT);
    CHECK_EQ(M.reads, 5);
    /* an event after 3 polls */
    polls_left = 3;
    M.tick = raise_after_polls;
    CHECK_OK(jointer_irq_wait(&Y.dev, -1, &l));
    CHECK_EQ(l, 1);
    /* pending but masked globally: not an interrupt */
    CHECK_OK(jointer_irq_enable(&Y.dev, 0, 0));
    CHECK_EQ(jointer_irq_wait(&Y.dev, 3, &l), -ETIMEDOUT);
    M.fail_after = (int)(M.reads + M.writes);
    CHECK_EQ(jointer_irq_wait(&Y.dev, 3, &l), -EIO);
}

/* ---- identity ----------------------------------------------------------------- */

static int log_calls, log_last_err;
static void log_hook(void *ctx, int level, int err, const char *msg)
{
    (void)ctx;
    (void)level;
    CHECK(msg != NULL && msg[0] != '\0');
    log_calls++;
    log_last_err = err;
}

TEST(selftest_ok_and_scratch_restored)
{
    jointer_ident id;
    CHECK_OK(y9());
    M.scratch = 0x600D;
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_selftest(&Y.dev, 0, &id));
    CHECK_EQ(id.id, JOINTER_ID_VALUE);
    CHECK_EQ(id.version, JOINTER_VERSION_VALUE);
    CHECK_EQ(id.config_hash, ACCEL_MON_CONFIG_HASH);
    CHECK_EQ(id.info, 0xA0601); /* 1 LMIC, 64-byte windows, TIMESTAMP, SCRATCH (its YAML's global) */
    CHECK_EQ(id.info, ACCEL_MON_INFO);
    CHECK_EQ(M.scratch, 0x600D);
    CHECK_EQ(REC.writes, 3);
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_selftest(&Y.dev, JOINTER_SELFTEST_NO_WRITE, NULL));
    CHECK_EQ(REC.writes, 0);
    CHECK_EQ(REC.count, 4);
    CHECK_OK(accel_mon_selftest(&Y, 0));
    CHECK_OK(jointer_identify(&Y.dev, &id));
    CHECK_EQ(jointer_identify(&Y.dev, NULL), -EINVAL);
    CHECK_EQ(jointer_selftest(NULL, 0, NULL), -EINVAL);
}

TEST(selftest_mismatches)
{
    jointer_ident id;
    CHECK_OK(y9());
    jointer_set_log(&Y.dev, log_hook, NULL);
    log_calls = 0;
    M.config_hash ^= 1;
    CHECK_EQ(jointer_selftest(&Y.dev, 0, &id), -ESTALE);
    CHECK_EQ(id.config_hash, ACCEL_MON_CONFIG_HASH ^ 1);
    CHECK_EQ(log_calls, 1);
    CHECK_EQ(log_last_err, -ESTALE);
    CHECK_OK(jointer_selftest(&Y.dev, JOINTER_FORCE, NULL));
    CHECK_EQ(log_calls, 2); /* still logged, as a warning */
    M.config_hash ^= 1;
    M.info = 0xA0701; /* 128-byte windows */
    CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -ESTALE);
    M.info = 0xA0602; /* 2 LMICs */
    CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -ESTALE);
    M.info = 0x20601; /* no SCRATCH: another configuration */
    CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -ESTALE);
    M.info = 0xE0601; /* a MARK it does not have: another configuration */
    CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -ESTALE);
    M.info = 0xB0601; /* strict decoding is not part of the identity */
    CHECK_OK(jointer_selftest(&Y.dev, 0, NULL));
    M.info = 0xA0601;
    M.version = 0x00030000;
    CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -EPROTONOSUPPORT);
    CHECK_OK(jointer_selftest(&Y.dev, JOINTER_FORCE, NULL));
    M.version = 0x00020203; /* minor/patch differences are fine */
    CHECK_OK(jointer_selftest(&Y.dev, 0, NULL));
    M.id = 0;
    CHECK_EQ(jointer_selftest(&Y.dev, JOINTER_FORCE, NULL), -ENODEV);
    M.id = JOINTER_ID_VALUE;
    M.scratch_stuck = 1;
    CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -EIO);
    CHECK_OK(jointer_selftest(&Y.dev, JOINTER_SELFTEST_NO_WRITE, NULL));
}

/* a monitor without the optional global registers */
TEST(absent_global_registers_are_not_supported)
{
    jointer_cfg lean = accel_mon_cfg;
    jointer_io inner, io;
    uint64_t ts = 7;
    lean.info = 0; /* no TIMESTAMP, MARK or SCRATCH */
    mock_init(&M, &lean);
    inner = mock_io(&M);
    CHECK_OK(jointer_recorder_init(&REC, &inner, ACC, 4096, &io));
    CHECK_OK(jointer_init(&Y.dev, &lean, &io));
    jointer_recorder_clear(&REC);
    CHECK_EQ(jointer_timestamp(&Y.dev, &ts), -ENOTSUP);
    CHECK_EQ(ts, 7u);
    CHECK_EQ(jointer_mark(&Y.dev, 1), -ENOTSUP);
    CHECK_OK(jointer_selftest(&Y.dev, 0, NULL));   /* identity only: no SCRATCH to test */
    CHECK_EQ(REC.writes, 0);
    CHECK_EQ(REC.count, 4);
}

TEST(selftest_bus_errors)
{
    /* 4 identity reads, SCRATCH read, 2 x (write, read), restore */
    for (int k = 0; k < 9; k++) {
        CHECK_OK(y9());
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK_EQ(jointer_selftest(&Y.dev, 0, NULL), -EIO);
    }
}

/* ---- misc ---------------------------------------------------------------------- */

TEST(strerror_covers_every_code)
{
    const int codes[] = {EINVAL, ERANGE, ENOBUFS, ENOTSUP, EIO, ETIMEDOUT, ENODEV,
                         EPROTONOSUPPORT, ESTALE, ENOENT, EACCES, EBADF, ENOTCONN};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *a = jointer_strerror(-codes[i]);
        CHECK(a != NULL && strcmp(a, "unknown error") != 0);
        CHECK(a == jointer_strerror(codes[i]));
    }
    CHECK(strcmp(jointer_strerror(0), "success") == 0);
    CHECK(strcmp(jointer_strerror(-12345), "unknown error") == 0);
    CHECK(strstr(jointer_strerror(-ESTALE), "hash") != NULL);
}

static int closed;
static int fake_close(jointer_port *p)
{
    (void)p;
    closed++;
    return 0;
}

TEST(close_releases_the_port)
{
    uint64_t v;
    CHECK_OK(y9());
    Y.dev.port.close = fake_close;
    closed = 0;
    CHECK_OK(accel_mon_close(&Y));
    CHECK_EQ(closed, 1);
    CHECK_EQ(jointer_read(&Y.dev, 0, &v), -EINVAL);
    CHECK_EQ(jointer_run(&Y.dev, 0), -EINVAL);
    CHECK_OK(jointer_close(&Y.dev)); /* twice is harmless */
    CHECK_EQ(closed, 1);
    CHECK_EQ(jointer_close(NULL), -EINVAL);
    jointer_set_log(NULL, log_hook, NULL);
    jointer_set_clock(NULL, fake_clock, NULL);
}

TEST(recorder_capacity_and_errors)
{
    static uint32_t regs[ACCEL_MON_SPAN / 4];
    jointer_recorder rec;
    jointer_access a[2];
    jointer_io inner = jointer_io_direct(regs), io, bad = jointer_io_from_ops(NULL, NULL);
    uint64_t v;
    CHECK_EQ(jointer_recorder_init(&rec, &bad, a, 2, &io), -EINVAL);
    CHECK_EQ(jointer_recorder_init(NULL, &inner, a, 2, &io), -EINVAL);
    CHECK_OK(jointer_recorder_init(&rec, &inner, a, 2, &io));
    CHECK(io.ops->wait_irq == NULL); /* the direct seam cannot wait: polled */
    CHECK_OK(accel_mon_init(&Y, &io));
    CHECK_EQ(rec.count, 2);
    regs[ACCEL_MON_MAC_FIRES_RESULT / 4] = 9;
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 9);
    CHECK_EQ(rec.count, 3); /* beyond capacity: counted, not logged */
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_EQ(rec.writes, 1);
    CHECK_EQ(regs[ACCEL_MON_ACCEL_CONTROL / 4], 1);
    CHECK_OK(jointer_recorder_init(&rec, &inner, NULL, 2, &io)); /* count only */
    CHECK_OK(accel_mon_init(&Y, &io));
    CHECK_EQ(rec.count, 2);
    jointer_recorder_clear(NULL);
}

TEST(names)
{
    CHECK_EQ(jointer_find_lmic(&two_lmic_cfg, "accel"), 1);
    CHECK_EQ(jointer_find_lmic(&two_lmic_cfg, "acc"), -ENOENT);
    CHECK_EQ(jointer_find_sniffer(&two_lmic_cfg, "ops"), 2);
    CHECK_EQ(jointer_find_sniffer(&two_lmic_cfg, "accel.task"), 1);
    CHECK_EQ(jointer_find_sniffer(&two_lmic_cfg, "cpu.task"), -ENOENT);
    CHECK_EQ(jointer_find_sniffer(&two_lmic_cfg, "accel."), -ENOENT);
    CHECK_EQ(jointer_find_metric(&two_lmic_cfg, "read_max"), 1);
    CHECK_EQ(jointer_find_metric(&two_lmic_cfg, "read_maxi"), -ENOENT);
    CHECK_EQ(jointer_find_trace(&trace_mon_cfg, "bus_trace"), 1);
    CHECK_EQ(jointer_find_trace(&two_lmic_cfg, "bus_trace"), -ENOENT);
    CHECK_EQ(jointer_find_metric(NULL, "x"), -EINVAL);
    CHECK_EQ(jointer_find_trace(&trace_mon_cfg, NULL), -EINVAL);
    CHECK_EQ(jointer_find_lmic(NULL, NULL), -EINVAL);
    CHECK_EQ(jointer_find_sniffer(NULL, NULL), -EINVAL);
}

TEST(baremetal_port)
{
    static uint32_t regs[TWO_LMIC_SPAN / 4];
    uint64_t v;
    memset(regs, 0, sizeof regs);
    regs[TWO_LMIC_OPS_RESULT / 4] = 5;
    regs[TWO_LMIC_OPS_RESULT / 4 + 1] = 1;
    CHECK_OK(two_lmic_init_baremetal(&W, (uintptr_t)regs));
    CHECK_OK(two_lmic_read_ops(&W, &v));
    CHECK_EQ(v, 0x100000005ull);
    CHECK_EQ(jointer_init_baremetal(&W.dev, &two_lmic_cfg, (uintptr_t)regs + 2), -EINVAL);
    CHECK_EQ(jointer_init_baremetal(&W.dev, NULL, (uintptr_t)regs), -EINVAL);
}

TEST(print_reg)
{
    FILE *f;
    char buf[4096];
    size_t n;
    CHECK_OK(tl());
    M.result[0] = 4242;
    CHECK_OK(two_lmic_set_mode_task(&W, JOINTER_NO_FILTERING));
    f = tmpfile();
    CHECK(f != NULL);
    CHECK_OK(jointer_print_reg(&W.dev, JOINTER_ALL_LMICS, f));
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    CHECK(strstr(buf, "lmic cpu") != NULL);
    CHECK(strstr(buf, "lmic accel") != NULL);
    CHECK(strstr(buf, "read_bytes") != NULL && strstr(buf, "4242") != NULL);
    CHECK(strstr(buf, "NO_FILTERING") != NULL);
    CHECK_EQ(jointer_print_reg(&W.dev, 2, f), -EINVAL);
    CHECK_EQ(jointer_print_reg(&W.dev, 0, NULL), -EINVAL);
    M.fail_after = (int)(M.reads + M.writes);
    CHECK_EQ(jointer_print_reg(&W.dev, 1, f), -EIO);
    fclose(f);
}

/* ---- relay traces ---------------------------------------------------------- */

#define RT RELAY_MON_TRACE_RELAY_T

static int rm(void)
{
    jointer_io inner, io;
    mock_init(&M, &relay_mon_cfg);
    inner = mock_io(&M);
    if (jointer_recorder_init(&REC, &inner, ACC, 4096, &io) != 0)
        return -1;
    if (relay_mon_init(&RM, &io) != 0)
        return -1;
    if (jointer_set_mode(&RM.dev, 0, RELAY_MON_SNIFFER_EV, JOINTER_NO_FILTERING) != 0)
        return -1;
    return jointer_run(&RM.dev, 0);
}

TEST(trace_relay_drain_releases_exactly_what_it_read)
{
    jointer_trace_record r[16];
    uint32_t n, lost, i;
    CHECK_OK(rm());
    for (i = 0; i < 5; i++)
        mock_trace_event(&M, RT, 100 + i);
    CHECK_OK(jointer_trace_drain(&RM.dev, RT, r, 3, &n)); /* a partial drain */
    CHECK_EQ(n, 3);
    for (i = 0; i < 3; i++)
        CHECK_EQ(r[i].data, 100 + i);
    CHECK_EQ(M.tr_fill[RT], 2);
    CHECK_EQ(M.tr_rptr[RT], 3);
    CHECK_EQ(M.tr_acks, 1);
    for (i = 5; i < 12; i++)  /* 2 + 7 > depth 8: one dropped */
        mock_trace_event(&M, RT, 100 + i);
    CHECK_OK(jointer_trace_lost(&RM.dev, RT, &lost));
    CHECK_EQ(lost, 1);
    CHECK_OK(jointer_trace_read(&RM.dev, RT, r, 16, &n)); /* from RPTR, nothing released */
    CHECK_EQ(n, 8);
    CHECK_EQ(r[0].data, 103);
    CHECK_EQ(M.tr_fill[RT], 8);
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_trace_drain(&RM.dev, RT, r, 16, &n)); /* wraps around the RAM */
    CHECK_EQ(n, 8);
    CHECK_EQ(REC.count, 2 + 2 * 8 + 1);                   /* FILL, RPTR, records, ACK */
    CHECK_EQ(ACC[REC.count - 1].write, 1);
    CHECK_EQ(ACC[REC.count - 1].offset, RELAY_MON_RELAY_T_REGS + JOINTER_TRACE_ACK);
    CHECK_EQ(ACC[REC.count - 1].value, 8);
    for (i = 0; i < 8; i++)
        CHECK_EQ(r[i].data, 103 + i);                     /* 111 was dropped */
    CHECK_EQ(M.tr_rptr[RT], 3);                           /* 3 + 8 mod 8 */
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_trace_drain(&RM.dev, RT, r, 16, &n)); /* empty: FILL only */
    CHECK_EQ(n, 0);
    CHECK_EQ(REC.count, 1);
    CHECK_OK(jointer_reset(&RM.dev, 0));                  /* SOFT_RESET clears LOST and RPTR */
    CHECK_OK(jointer_trace_lost(&RM.dev, RT, &lost));
    CHECK_EQ(lost, 0);
    CHECK_EQ(M.tr_rptr[RT], 0);
}

TEST(trace_relay_errors)
{
    jointer_trace_record r[4];
    uint32_t n, lost;
    uint64_t drained = 0;
    CHECK_OK(rm());
    CHECK_EQ(jointer_trace_drain(&RM.dev, RELAY_MON_TRACE_EV_TRACE, r, 4, &n), -ENOTSUP);
    CHECK_EQ(jointer_trace_lost(&RM.dev, RELAY_MON_TRACE_EV_TRACE, &lost), -ENOTSUP);
    CHECK_EQ(jointer_trace_drain(&RM.dev, 2, r, 4, &n), -EINVAL);
    CHECK_EQ(jointer_trace_drain(&RM.dev, RT, NULL, 4, &n), -EINVAL);
    CHECK_EQ(jointer_trace_drain(&RM.dev, RT, r, 4, NULL), -EINVAL);
    CHECK_EQ(jointer_trace_drain(NULL, RT, r, 4, &n), -EINVAL);
    CHECK_EQ(jointer_trace_lost(&RM.dev, RT, NULL), -EINVAL);
    CHECK_EQ(jointer_trace_relay(&RM.dev, RT, r, 0, 0, NULL, NULL, &drained), -EINVAL);
    CHECK_EQ(jointer_trace_relay(&RM.dev, RELAY_MON_TRACE_EV_TRACE, r, 4, 0,
                                 (jointer_trace_sink)NULL, NULL, &drained), -EINVAL);
    M.tr_fill[RT] = 9;                                    /* beyond DEPTH */
    CHECK_EQ(jointer_trace_drain(&RM.dev, RT, r, 4, &n), -EIO);
    M.tr_fill[RT] = 0;
    M.tr_rptr[RT] = 8;
    mock_trace_event(&M, RT, 1);
    CHECK_EQ(jointer_trace_drain(&RM.dev, RT, r, 4, &n), -EIO); /* RPTR beyond DEPTH */
    M.tr_rptr[RT] = 0;
    M.tr_fill[RT] = 0;
    M.tr_wptr[RT] = 0;
    mock_trace_event(&M, RT, 7);
    mock_trace_event(&M, RT, 8);
    for (int k = 0; k < 7; k++) { /* a bus error anywhere (FILL, RPTR, 4 words, ACK): nothing released */
        unsigned acks = M.tr_acks;
        M.fail_after = (int)(M.reads + M.writes) + k;
        CHECK(jointer_trace_drain(&RM.dev, RT, r, 4, &n) == -EIO && n == 0);
        M.fail_after = -1;
        CHECK_EQ(M.tr_acks, acks);
        CHECK_EQ(M.tr_fill[RT], 2);
    }
    CHECK_OK(jointer_trace_drain(&RM.dev, RT, r, 4, &n));
    CHECK_EQ(n, 2);
    CHECK(r[0].data == 7 && r[1].data == 8);
}

/* a producer: one event every `every` bus accesses, numbered from 0 */
typedef struct relay_producer {
    unsigned every, left, next, ticks;
} relay_producer;

static void relay_produce(mock_hw *m, void *ctx)
{
    relay_producer *p = ctx;
    if (p->left != 0 && ++p->ticks % p->every == 0) {
        mock_trace_event(m, RT, p->next++);
        p->left--;
    }
}

typedef struct relay_sink_state {
    uint32_t data[4096];
    uint32_t n, chunks;
} relay_sink_state;

static int relay_sink_fail(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    (void)ctx;
    (void)rec;
    (void)n;
    return -ECANCELED;
}

static int relay_sink(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    relay_sink_state *s = ctx;
    for (uint32_t i = 0; i < n && s->n < 4096; i++)
        s->data[s->n++] = rec[i].data;
    s->chunks++;
    return 0;
}

TEST(trace_relay_step_with_a_producer_faster_than_one_drain)
{
    static relay_sink_state st;
    relay_producer prod = {3, 200, 0, 0}; /* an event per 3 accesses; a record costs 2 + overhead */
    jointer_trace_record buf[4];
    uint64_t drained = 0;
    uint32_t lost, i, mask = 3u << relay_mon_cfg.traces[RT].irq_bit;
    int steps = 0;
    CHECK_OK(rm());
    memset(&st, 0, sizeof st);
    CHECK_OK(jointer_trace_set_watermark(&RM.dev, RT, 4));
    CHECK_OK(jointer_irq_enable(&RM.dev, 0, mask));
    M.tick = relay_produce;
    M.tick_ctx = &prod;
    while (prod.left != 0 || M.tr_fill[RT] != 0) {
        CHECK_OK(jointer_trace_relay(&RM.dev, RT, buf, 4, 10, relay_sink, &st, &drained));
        CHECK(++steps < 1000);
    }
    M.tick = NULL;
    CHECK_EQ(drained, 200);
    CHECK_EQ(st.n, 200);
    for (i = 0; i < 200; i++)
        CHECK_EQ(st.data[i], i);                          /* every event, in order */
    CHECK_OK(jointer_trace_lost(&RM.dev, RT, &lost));
    CHECK_EQ(lost, 0);
    CHECK(st.chunks > (uint32_t)steps);                   /* records arrived during drains */
    /* a sink error stops the step and is returned */
    mock_trace_event(&M, RT, 1);
    CHECK_EQ(jointer_trace_relay(&RM.dev, RT, buf, 4, 0, relay_sink_fail, NULL, &drained), -ECANCELED);
}

static const jt_case cases[] = {
    JT_CASE(init_rejects_bad_arguments),
    JT_CASE(init_rejects_bad_descriptors),
    JT_CASE(init_syncs_shadow_from_control),
    JT_CASE(init_propagates_bus_errors),
    JT_CASE(attach_bounds_checks_and_loads_reset_values),
    JT_CASE(initialize_bus_sequence_and_pending_filtering),
    JT_CASE(initialize_rewrites_earlier_dcapfs_from_the_cache),
    JT_CASE(initialize_checks_arguments),
    JT_CASE(initialize_reports_bus_errors_and_keeps_the_cache),
    JT_CASE(initialize_without_a_filter_is_not_supported),
    JT_CASE(initialize_after_a_dcapf_without_a_filter),
    JT_CASE(filtering_without_a_filter_counts_as_no_filtering),
    JT_CASE(initialize_then_run_counts_only_in_range_events), JT_CASE(wide_bounds_are_two_words_each),
    JT_CASE(wide_windows_count_above_and_below_4g_apart), JT_CASE(wide_initialize_refuses_bounds_the_hardware_would_cut),
    JT_CASE(y9_monitoring_action_bus_transactions),
    JT_CASE(set_mode_and_get_mode),
    JT_CASE(run_stop_reset_one_write_each),
    JT_CASE(initialize_while_running_keeps_the_others_counting),
    JT_CASE(status_register),
    JT_CASE(two_lmics_have_separate_controls),
    JT_CASE(read_direct_path),
    JT_CASE(read_ops_path_lsw_first),
    JT_CASE(read_is_torn_free),
    JT_CASE(read_errors),
    JT_CASE(read_all_fewest_reads),
    JT_CASE(threshold_32_bit),
    JT_CASE(threshold_64_bit_lower_word_first),
    JT_CASE(timestamp_is_torn_free),
    JT_CASE(mark_is_exactly_one_write),
    JT_CASE(trace_stop_mode_filtered),
    JT_CASE(trace_ring_mode_oldest_first),
    JT_CASE(trace_errors),
    JT_CASE(trace_watermark_irq),
    JT_CASE(trace_relay_drain_releases_exactly_what_it_read),
    JT_CASE(trace_relay_errors),
    JT_CASE(trace_relay_step_with_a_producer_faster_than_one_drain),
    JT_CASE(irq_enable_writes_lmic_and_global),
    JT_CASE(irq_wait_through_ops),
    JT_CASE(irq_wait_polled),
    JT_CASE(selftest_ok_and_scratch_restored),
    JT_CASE(selftest_mismatches),
    JT_CASE(absent_global_registers_are_not_supported),
    JT_CASE(selftest_bus_errors),
    JT_CASE(strerror_covers_every_code),
    JT_CASE(close_releases_the_port),
    JT_CASE(recorder_capacity_and_errors),
    JT_CASE(names),
    JT_CASE(baremetal_port),
    JT_CASE(print_reg),
};

int main(int argc, char **argv)
{
    return jt_run("test_core", cases, sizeof cases / sizeof cases[0], argc, argv);
}
