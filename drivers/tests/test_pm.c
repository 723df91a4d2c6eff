// SPDX-License-Identifier: MIT
/*
 * test_pm.c - the program monitor API (jointer_pm.h) against the emulated
 * monitor through the access recorder: the exact INIT sequence of
 * jointer_pm_program / _enable, decoded by a model of the dispenser + table
 * (jointer_eig_pc), every error path; and jointer_pm_profile on hand-made
 * traces with exact expected statistics (nesting, recursion, unmatched
 * entries and exits, 32-bit wrap, a full call stack, entry-only functions).
 */
#include "jointer.h"
#include "jointer_cycles.h"
#include "jointer_pm.h"
#include "jointer_recorder.h"
#include "jt_test.h"
#include "mock/jointer_mock.h"

int jt_failed;

/* LMIC "cpu" at 0x100: sniffer 0 "ev" (1 DCAPF, filter), sniffer 1 "pm" (a
 * program monitor: trace without a filter + an event DCAPF with a filter,
 * 5 addresses of 20 bits) */
static const jointer_lmic_desc lmics[1] = {
    {.name = "cpu", .base = 0x100u, .first_sniffer = 0, .num_sniffers = 2, .num_irq = 2},
};
static const jointer_sniffer_desc sniffers[2] = {
    {.name = "ev", .lmic = 0, .index = 0, .num_dcapfs = 1},
    {.name = "pm", .lmic = 0, .index = 1, .num_dcapfs = 2, .pm_addresses = 5, .pm_pc_width = 20},
};
static const jointer_metric_desc metrics[2] = {
    {.name = "evs", .result_offset = 0x118u, .threshold_offset = JOINTER_NO_OFFSET, .low_reset = 0x10u,
     .high_reset = 0x20u, .sniffer = 0, .lmic = 0, .dcapf = 0, .width = 32,
     .extractor = JOINTER_EXTRACTOR_EVENT, .aggregator = JOINTER_AGGREGATOR_SUM,
     .flags = JOINTER_METRIC_FILTER, .irq_bit = -1},
    {.name = "hits", .result_offset = 0x11Cu, .threshold_offset = JOINTER_NO_OFFSET, .low_reset = 0x0u,
     .high_reset = 0x1Fu, .sniffer = 1, .lmic = 0, .dcapf = 1, .width = 32,
     .extractor = JOINTER_EXTRACTOR_EVENT, .aggregator = JOINTER_AGGREGATOR_SUM,
     .flags = JOINTER_METRIC_FILTER, .irq_bit = -1},
};
static const jointer_trace_desc traces[1] = {
    {.name = "calls", .reg_offset = 0x120u, .ram_offset = 0x140u, .depth = 8, .low_reset = 0x0u,
     .high_reset = 0xFFFFFFFFu, .sniffer = 1, .lmic = 0, .dcapf = 0, .ring = 0, .irq_bit = 0, .filter = 0},
};
static const jointer_cfg cfg = {
    .name = "pm_mon", .config_hash = 0x12345678u, .version = JOINTER_VERSION_VALUE, .span = 0x200u,
    .window = 0x100u, .base_address = 0, .bus_clock_hz = 0, .lmics = lmics, .sniffers = sniffers,
    .metrics = metrics, .traces = traces, .num_lmics = 1, .num_sniffers = 2, .num_metrics = 2,
    .num_traces = 1, .num_dcapfs = 3,
};

#define CONTROL 0x100u
#define INIT_PM 0x114u
#define PROG(s, mode) ((uint32_t)(mode) << JOINTER_PROG_SHIFT(s))

static mock_hw M;
static jointer_recorder REC;
static jointer_access ACC[256];
static jointer_dev D;
static uint32_t BOUNDS[6];

static int setup(int with_bounds)
{
    jointer_io inner, io;
    int r;
    mock_init(&M, &cfg);
    inner = mock_io(&M);
    if (jointer_recorder_init(&REC, &inner, ACC, 256, &io) != 0)
        return -1;
    r = jointer_init(&D, &cfg, &io);
    if (r == 0 && with_bounds)
        r = jointer_attach_bounds(&D, BOUNDS, 6);
    jointer_recorder_clear(&REC);
    return r;
}

/* the hardware's view of the recorded writes: the PM sniffer's dispenser
 * pointer (restarts on a CONTROL write with its PROG = INIT; counts INIT
 * writes in INIT mode) and the table of jointer_eig_pc (init_base 2) */
typedef struct pm_view {
    uint32_t bounds[4], mask, addr[5];
    int written[5], mask_written;
    uint32_t prog;
} pm_view;

static void replay(pm_view *v)
{
    uint32_t k, ptr = 0;
    for (k = 0; k < REC.count && k < 256; k++) {
        const jointer_access *a = &ACC[k];
        if (!a->write)
            continue;
        if (a->offset == CONTROL) {
            v->prog = (a->value >> JOINTER_PROG_SHIFT(1)) & 3u;
            if (v->prog == JOINTER_INIT)
                ptr = 0;
        } else if (a->offset == INIT_PM && v->prog == JOINTER_INIT) {
            uint32_t w = ptr++;
            if (w < 4)
                v->bounds[w] = a->value;
            else if (w == 4) {
                v->mask = a->value;
                v->mask_written = 1;
            } else if (w < 10) {
                v->addr[w - 5] = a->value;
                v->written[w - 5] = 1;
            }
        }
    }
}

TEST(program_writes_the_table_after_the_bounds)
{
    static const uint32_t addr[3] = {0x01000u, 0x01040u, 0xFFFFFu};
    pm_view v = {{0}, 0, {0}, {0}, 0, 0};
    uint32_t saved;
    CHECK_OK(setup(1));
    CHECK_OK(jointer_initialize(&D, 0, 1, 1, 2, 9));       /* the event DCAPF of the PM */
    CHECK_OK(jointer_set_mode(&D, 0, 1, JOINTER_NO_FILTERING));
    CHECK_OK(jointer_set_mode(&D, 0, 0, JOINTER_FILTERING));
    CHECK_OK(jointer_run(&D, 0));
    saved = PROG(1, JOINTER_NO_FILTERING) | PROG(0, JOINTER_FILTERING) | JOINTER_CONTROL_RUN;
    CHECK_EQ(D.control[0], saved);
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_pm_program(&D, 0, 1, addr, 3, 0x15u));
    /* exact sequence: CONTROL (INIT), 4 bounds, mask, 3 addresses, CONTROL (as before) */
    CHECK_EQ(REC.count, 10);
    CHECK_EQ(REC.reads, 0);
    CHECK_EQ(ACC[0].offset, CONTROL);
    CHECK_EQ(ACC[0].value, PROG(1, JOINTER_INIT) | PROG(0, JOINTER_FILTERING) | JOINTER_CONTROL_RUN);
    CHECK_EQ(ACC[1].offset, INIT_PM);
    CHECK_EQ(ACC[1].value, 0x0u);          /* trace: reset bounds (no filter: ignored) */
    CHECK_EQ(ACC[2].value, 0xFFFFFFFFu);
    CHECK_EQ(ACC[3].value, 2u);            /* event DCAPF: the cache */
    CHECK_EQ(ACC[4].value, 9u);
    CHECK_EQ(ACC[5].value, 0x15u);         /* the mask */
    CHECK_EQ(ACC[6].value, 0x01000u);
    CHECK_EQ(ACC[7].value, 0x01040u);
    CHECK_EQ(ACC[8].value, 0xFFFFFu);
    CHECK_EQ(ACC[9].offset, CONTROL);
    CHECK_EQ(ACC[9].value, saved);
    CHECK_EQ(D.control[0], saved);
    replay(&v);
    CHECK_EQ(v.bounds[2], 2u);
    CHECK_EQ(v.bounds[3], 9u);
    CHECK(v.mask_written);
    CHECK_EQ(v.mask, 0x15u);
    CHECK(v.written[0] && v.written[1] && v.written[2] && !v.written[3] && !v.written[4]);
    CHECK_EQ(v.addr[0], 0x01000u);
    CHECK_EQ(v.addr[1], 0x01040u);
    CHECK_EQ(v.addr[2], 0xFFFFFu);
    CHECK_EQ(v.prog, JOINTER_NO_FILTERING);
    /* the mock saw the PM's DCAPF bounds unchanged, the mode back */
    CHECK_EQ(mock_mode(&M, 1), JOINTER_NO_FILTERING);
    CHECK_EQ(M.low[2], 2u);
    CHECK_EQ(M.high[2], 9u);
}

TEST(program_full_table_and_enable_only)
{
    static const uint32_t addr[5] = {1u, 2u, 3u, 4u, 5u};
    pm_view v = {{0}, 0, {0}, {0}, 0, 0};
    CHECK_OK(setup(1));
    CHECK_OK(jointer_pm_program(&D, 0, 1, addr, 5, 0x1Fu));
    CHECK_EQ(REC.count, 1 + 4 + 1 + 5 + 1);
    replay(&v);
    CHECK_EQ(v.mask, 0x1Fu);
    CHECK(v.written[4]);
    CHECK_EQ(v.addr[4], 5u);
    CHECK_EQ(v.prog, JOINTER_IDLE);        /* it was IDLE: IDLE again */
    jointer_recorder_clear(&REC);
    CHECK_OK(jointer_pm_enable(&D, 0, 1, 0x02u));
    CHECK_EQ(REC.count, 1 + 4 + 1 + 1);
    CHECK_EQ(ACC[5].offset, INIT_PM);
    CHECK_EQ(ACC[5].value, 0x02u);
    CHECK_EQ(ACC[6].offset, CONTROL);
    CHECK_EQ(ACC[6].value, 0u);
}

TEST(program_errors)
{
    static const uint32_t addr[6] = {1u, 2u, 3u, 4u, 5u, 6u};
    static const uint32_t big[1] = {0x100000u};
    CHECK_OK(setup(1));
    CHECK_EQ(jointer_pm_program(&D, 0, 0, addr, 1, 1u), -ENOTSUP);   /* not a PM */
    CHECK_EQ(jointer_pm_program(&D, 0, 2, addr, 1, 1u), -EINVAL);    /* no such sniffer */
    CHECK_EQ(jointer_pm_program(&D, 1, 0, addr, 1, 1u), -EINVAL);    /* no such LMIC */
    CHECK_EQ(jointer_pm_program(&D, 0, 1, NULL, 1, 1u), -EINVAL);
    CHECK_EQ(jointer_pm_program(&D, 0, 1, addr, 6, 1u), -ERANGE);    /* 5 addresses */
    CHECK_EQ(jointer_pm_program(&D, 0, 1, addr, 5, 0x20u), -ERANGE); /* mask bit 5 */
    CHECK_EQ(jointer_pm_program(&D, 0, 1, big, 1, 1u), -ERANGE);     /* 21 bits */
    CHECK_EQ(jointer_pm_enable(&D, 0, 1, 0x80000000u), -ERANGE);
    CHECK_EQ(jointer_pm_enable(NULL, 0, 1, 1u), -EINVAL);
    CHECK_EQ(REC.count, 0);                                          /* no bus access */
    /* a bus error is returned; CONTROL is still written back */
    M.fail_after = (int)(M.reads + M.writes + 3);
    CHECK_EQ(jointer_pm_program(&D, 0, 1, addr, 2, 3u), -EIO);
    M.fail_after = -1;
    CHECK_OK(setup(0));
    CHECK_EQ(jointer_pm_program(&D, 0, 1, addr, 2, 3u), -ENOBUFS);   /* no bounds cache */
    CHECK_EQ(REC.count, 0);
}

/* ---- profile -------------------------------------------------------------- */

static jointer_pm_frame STACK[64];
static jointer_pm_stats S[8];

#define STAT(f, c, t, mn, mx, ue, ux)                                            \
    do {                                                                         \
        CHECK_EQ(S[f].calls, c);                                                 \
        CHECK_EQ(S[f].total, t);                                                 \
        CHECK_EQ(S[f].min, mn);                                                  \
        CHECK_EQ(S[f].max, mx);                                                  \
        CHECK_EQ(S[f].unmatched_entries, ue);                                    \
        CHECK_EQ(S[f].unmatched_exits, ux);                                      \
    } while (0)

TEST(profile_nesting_recursion_unmatched)
{
    /* main: 0/1, work: 2/3, fact (recursive): 4/5, tick (entry only): 6 */
    static const jointer_pm_function fn[4] = {{0, 1}, {2, 3}, {4, 5}, {6, JOINTER_PM_NO_INDEX}};
    static const jointer_trace_record r[] = {
        {5, 3},                              /* work exit without entry: unmatched exit */
        {100, 0},                            /* main */
        {110, 2}, {150, 3},                  /* work 40 */
        {160, 6},                            /* tick */
        {200, 4}, {210, 4}, {215, 4}, {220, 5}, {228, 5}, {240, 5}, /* fact: 5, 18, 40 */
        {250, 9},                            /* unknown index: ignored */
        {300, 2}, {310, 6}, {330, 2}, {345, 3}, /* work 15 (the inner one), outer open */
        {400, 1},                            /* main 300; the outer work: unmatched entry */
        {500, 2},                            /* work still open at the end */
    };
    CHECK_OK(jointer_pm_profile(r, sizeof r / sizeof r[0], fn, 4, STACK, 64, S));
    STAT(0, 1, 300, 300, 300, 0, 0);
    STAT(1, 2, 55, 15, 40, 2, 1);
    STAT(2, 3, 63, 5, 40, 0, 0);
    STAT(3, 2, 0, 0, 0, 0, 0);
}

TEST(profile_wrap_and_full_stack)
{
    static const jointer_pm_function fn[2] = {{7, 8}, {1, 2}};
    static const jointer_trace_record w[] = {{0xFFFFFFF0u, 7}, {0x10u, 8}};
    static const jointer_trace_record deep[] = {{0, 1}, {1, 1}, {2, 1}, {10, 2}, {20, 2}, {30, 2}};
    CHECK_OK(jointer_pm_profile(w, 2, fn, 2, STACK, 64, S));
    STAT(0, 1, 0x20, 0x20, 0x20, 0, 0);
    /* depth 2: the first entry is dropped when the third arrives */
    CHECK_OK(jointer_pm_profile(deep, 6, fn, 2, STACK, 2, S));
    STAT(1, 2, 8 + 19, 8, 19, 1, 1);
    STAT(0, 0, 0, 0, 0, 0, 0);
    CHECK_OK(jointer_pm_profile(NULL, 0, fn, 2, STACK, 2, S));
    STAT(1, 0, 0, 0, 0, 0, 0);
}

/* jointer_cycles.h: every wrap between consecutive records counts. main
 * (7/8) spans records 0x80000000, 0xF0000000 of work (1/2), then its exit
 * at 400 after a wrap: 2^32 + 300 cycles (total exact, max saturated) */
TEST(profile_counts_every_wrap_between_records)
{
    static const jointer_pm_function fn[2] = {{7, 8}, {1, 2}};
    static const jointer_trace_record r[] = {{100u, 7}, {0x80000000u, 1}, {0xF0000000u, 2}, {400u, 8},
                                             {500u, 1}, {530u, 2}};
    jointer_cycles c;
    CHECK_OK(jointer_pm_profile(r, 6, fn, 2, STACK, 64, S));
    CHECK_EQ(S[0].calls, 1u);
    CHECK(S[0].total == 0x10000012Cull);
    CHECK_EQ(S[0].max, 0xFFFFFFFFu);
    CHECK_EQ(S[0].min, 0xFFFFFFFFu);
    STAT(1, 2, 0x70000000u + 30u, 30, 0x70000000u, 0, 0);
    jointer_cycles_reset(&c);
    CHECK(jointer_cycles_next(&c, 100u) == 100u);
    CHECK(jointer_cycles_next(&c, 0x80000000u) == 0x80000000u);
    CHECK(jointer_cycles_next(&c, 0xF0000000u) == 0xF0000000u);
    CHECK(jointer_cycles_next(&c, 400u) == 0x100000190ull);
    CHECK(jointer_cycles_next(&c, 400u) == 0x100000190ull);   /* the same cycle */
}

TEST(profile_errors)
{
    static const jointer_pm_function dup[2] = {{1, 2}, {2, 3}};
    static const jointer_pm_function same[1] = {{4, 4}};
    static const jointer_pm_function noentry[1] = {{JOINTER_PM_NO_INDEX, 1}};
    static const jointer_pm_function ok[1] = {{1, 2}};
    static const jointer_trace_record r[1] = {{0, 1}};
    CHECK_EQ(jointer_pm_profile(r, 1, dup, 2, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, same, 1, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, noentry, 1, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(NULL, 1, ok, 1, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, NULL, 1, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, ok, 0, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, ok, 257, STACK, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, ok, 1, NULL, 4, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, ok, 1, STACK, 0, S), -EINVAL);
    CHECK_EQ(jointer_pm_profile(r, 1, ok, 1, STACK, 4, NULL), -EINVAL);
}

static const jt_case cases[] = {
    {"program_writes_the_table_after_the_bounds", program_writes_the_table_after_the_bounds},
    {"program_full_table_and_enable_only", program_full_table_and_enable_only},
    {"program_errors", program_errors},
    {"profile_nesting_recursion_unmatched", profile_nesting_recursion_unmatched},
    {"profile_wrap_and_full_stack", profile_wrap_and_full_stack},
    {"profile_counts_every_wrap_between_records", profile_counts_every_wrap_between_records},
    {"profile_errors", profile_errors},
};

int main(int argc, char **argv)
{
    return jt_run("test_pm", cases, sizeof cases / sizeof cases[0], argc, argv);
}
