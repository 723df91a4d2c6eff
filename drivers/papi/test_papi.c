// SPDX-License-Identifier: MIT
/*
 * test_papi.c - the PAPI export (jointer_papi.c) read through PAPI itself:
 * PAPI_add_named_event / PAPI_start / PAPI_read / PAPI_stop against the
 * emulated monitor (drivers/tests/mock), with the perf_event components
 * disabled so that no permission is needed.
 *
 * Monitors: papi_mon (drivers/papi/tests/papi_mon.yaml: wrap-mode counters of
 * 8, 16, 32 and 40 bits, saturating 12- and 64-bit counters, a max, two
 * LMICs), the Y9 monitor (configs/selective_accumulations.yaml) and relay_mon
 * (drivers/tests/fixtures: a stop trace and a relay trace, whose LOST event
 * is tested; a copy with the relay trace turned into a sink trace too), all
 * generated at build time.
 *
 *     test_papi [CASE]       run the cases (whose name contains CASE)
 *     test_papi --names      print the full PAPI name of every event listed
 *                            by the hook (make papi-test greps them in the
 *                            output of papi_native_avail -sde test_papi)
 */
#define _POSIX_C_SOURCE 200809L

#include <papi.h>
#include <sde_lib.h>

#include "jt_test.h"
#include "jointer_mock.h"
#include "jointer_papi.h"
#include "papi_mon.h"
#include "relay_mon.h"
#include "selective_accumulations.h"

int jt_failed;

#define N_MON PAPI_MON_NUM_METRICS
#define BEATS PAPI_MON_METRIC_BEATS
#define BYTES PAPI_MON_METRIC_BYTES
#define BUSY PAPI_MON_METRIC_BUSY_CYCLES
#define FIRES PAPI_MON_METRIC_FIRES
#define LATMAX PAPI_MON_METRIC_LAT_MAX
#define WORDS PAPI_MON_METRIC_WORDS
#define BURSTS PAPI_MON_METRIC_BURSTS

static mock_hw hw;           /* the papi_mon monitor */
static papi_mon_dev mon;
static int es = PAPI_NULL;   /* the event set of the running case */

/* ---- helpers ------------------------------------------------------------ */

/* undo what a failed case may have left */
static void fresh(void)
{
    long long junk[16];
    if (es != PAPI_NULL) {
        (void)PAPI_stop(es, junk);
        (void)PAPI_cleanup_eventset(es);
        (void)PAPI_destroy_eventset(&es);
        es = PAPI_NULL;
    }
    (void)jointer_papi_unregister(&mon.dev);
}

/* papi_mon on the mock, every sniffer NO_FILTERING, both LMICs running */
static int setup(void)
{
    jointer_io io;
    fresh();
    mock_init(&hw, &papi_mon_cfg);
    io = mock_io(&hw);
    if (papi_mon_init(&mon, &io) != 0 || papi_mon_set_mode_axi(&mon, JOINTER_NO_FILTERING) != 0
        || papi_mon_set_mode_core(&mon, JOINTER_NO_FILTERING) != 0
        || papi_mon_set_mode_dma(&mon, JOINTER_NO_FILTERING) != 0 || papi_mon_run_fabric(&mon) != 0
        || papi_mon_run_dma(&mon) != 0)
        return -1;
    return 0;
}

/* an event set with every metric of cfg, in descriptor order */
static int add_all(int *set, const jointer_cfg *cfg)
{
    char name[JOINTER_PAPI_NAME_MAX];
    int rc = PAPI_create_eventset(set);
    for (unsigned i = 0; rc == PAPI_OK && i < cfg->num_metrics; i++) {
        if (jointer_papi_event_name(cfg, i, name, sizeof name) < 0)
            return -1;
        rc = PAPI_add_named_event(*set, name);
    }
    return rc;
}

static void drop(int *set)
{
    (void)PAPI_cleanup_eventset(*set);
    (void)PAPI_destroy_eventset(set);
    *set = PAPI_NULL;
}

/* the opening of a case: dev registered, the event set es of every metric of
 * cfg (descriptor order) started. 0, else the step that failed: -1 register,
 * -2 the event set, -3 PAPI_start */
static int start_all(jointer_dev *dev, const jointer_cfg *cfg)
{
    if (jointer_papi_register(dev) != 0)
        return -1;
    if (add_all(&es, cfg) != PAPI_OK)
        return -2;
    return PAPI_start(es) == PAPI_OK ? 0 : -3;
}

/* the closing of a case: es stopped (its last values into v) and destroyed,
 * dev unregistered. 0, else the step that failed: -1 PAPI_stop, -2 unregister */
static int stop_all(jointer_dev *dev, long long *v)
{
    int rc = PAPI_stop(es, v);
    drop(&es);
    if (rc != PAPI_OK)
        return -1;
    return jointer_papi_unregister(dev) == 0 ? 0 : -2;
}

/* n good events of weight inc at an event-extractor metric */
static void events(unsigned metric, unsigned n, uint32_t inc)
{
    for (unsigned i = 0; i < n; i++)
        mock_event(&hw, metric, 0, inc);
}

static const uint64_t TWO32 = (uint64_t)1 << 32;
static const uint64_t TWO40 = (uint64_t)1 << 40;

/* ---- names and arguments ------------------------------------------------- */

TEST(event_names_are_sde_jointer_monitor_sniffer_metric)
{
    static const char *const mon_names[N_MON] = {
        "sde:::jointer_papi_mon::axi.beats",        "sde:::jointer_papi_mon::axi.bytes",
        "sde:::jointer_papi_mon::axi.busy_cycles",  "sde:::jointer_papi_mon::core.fires",
        "sde:::jointer_papi_mon::core.lat_max",     "sde:::jointer_papi_mon::dma.words",
        "sde:::jointer_papi_mon::dma.bursts"};
    static const char *const y9_names[SELECTIVE_ACCUMULATIONS_NUM_METRICS] = {
        "sde:::jointer_selective_accumulations::transaction.bytes_written",
        "sde:::jointer_selective_accumulations::task.compute_cycles",
        "sde:::jointer_selective_accumulations::operation.forward_fires",
        "sde:::jointer_selective_accumulations::operation.mac_fires"};
    char buf[JOINTER_PAPI_NAME_MAX];
    for (unsigned i = 0; i < N_MON; i++) {
        CHECK_EQ(jointer_papi_event_name(&papi_mon_cfg, i, buf, sizeof buf), (long long)strlen(mon_names[i]));
        CHECK(strcmp(buf, mon_names[i]) == 0);
    }
    for (unsigned i = 0; i < SELECTIVE_ACCUMULATIONS_NUM_METRICS; i++) {
        CHECK(jointer_papi_event_name(&selective_accumulations_cfg, i, buf, sizeof buf) > 0);
        CHECK(strcmp(buf, y9_names[i]) == 0);
    }
    CHECK_EQ(jointer_papi_event_name(&papi_mon_cfg, 0, buf, strlen(mon_names[0])), -ERANGE);
    CHECK_EQ(jointer_papi_event_name(&papi_mon_cfg, 0, buf, strlen(mon_names[0]) + 1), (long long)strlen(mon_names[0]));
    CHECK_EQ(jointer_papi_event_name(&papi_mon_cfg, N_MON, buf, sizeof buf), -EINVAL);
    CHECK_EQ(jointer_papi_event_name(NULL, 0, buf, sizeof buf), -EINVAL);
    CHECK_EQ(jointer_papi_event_name(&papi_mon_cfg, 0, NULL, sizeof buf), -EINVAL);
}

TEST(register_checks_its_arguments)
{
    jointer_dev blank;
    papi_mon_dev other;
    jointer_io io;
    uint64_t v;
    CHECK_OK(setup());
    memset(&blank, 0, sizeof blank);
    CHECK_EQ(jointer_papi_register(NULL), -EINVAL);
    CHECK_EQ(jointer_papi_register(&blank), -EINVAL);       /* not initialised */
    /* nothing registered yet */
    CHECK_EQ(jointer_papi_unregister(&mon.dev), -ENOENT);
    CHECK_EQ(jointer_papi_reset(&mon.dev, 0), -ENOENT);
    CHECK_EQ(jointer_papi_rebase(&mon.dev, 0), -ENOENT);
    CHECK_EQ(jointer_papi_value(&mon.dev, 0, &v), -ENOENT);
    CHECK_EQ(jointer_papi_error(&mon.dev), -ENOENT);
    CHECK_EQ(jointer_papi_unregister(NULL), -ENOENT);

    CHECK_OK(jointer_papi_register(&mon.dev));
    CHECK_EQ(jointer_papi_register(&mon.dev), -EEXIST);
    io = mock_io(&hw);
    CHECK_OK(papi_mon_init(&other, &io));
    CHECK_EQ(jointer_papi_register(&other.dev), -EEXIST);   /* same SDE library name */
    CHECK_OK(jointer_papi_unregister(&mon.dev));
    {   /* the name stays bound to its events: another layout of "papi_mon" */
        jointer_cfg fewer = papi_mon_cfg;
        jointer_dev d;
        fewer.num_metrics = (uint16_t)(N_MON - 1u);
        CHECK_OK(jointer_init(&d, &fewer, &io));
        CHECK_EQ(jointer_papi_register(&d), -EEXIST);
    }
    CHECK_OK(jointer_papi_register(&other.dev));            /* the same layout, another device */
    CHECK_OK(jointer_papi_unregister(&other.dev));
    CHECK_OK(jointer_papi_register(&mon.dev));
    CHECK_EQ(jointer_papi_value(&mon.dev, N_MON, &v), -EINVAL);
    CHECK_EQ(jointer_papi_value(&mon.dev, 0, NULL), -EINVAL);
    CHECK_EQ(jointer_papi_reset(&mon.dev, PAPI_MON_NUM_LMICS), -EINVAL);
    CHECK_EQ(jointer_papi_rebase(&mon.dev, PAPI_MON_NUM_LMICS), -EINVAL);
    CHECK_EQ(jointer_papi_error(&mon.dev), 0);
    CHECK_OK(jointer_papi_unregister(&mon.dev));
    CHECK_EQ(jointer_papi_unregister(&mon.dev), -ENOENT);
}

TEST(register_rejects_bad_names)
{
    static char long_name[JOINTER_PAPI_NAME_MAX];
    static uint32_t regs[PAPI_MON_SPAN / 4u];
    jointer_io io = jointer_io_direct(regs);
    jointer_cfg bad = papi_mon_cfg;
    jointer_dev dev;
    char buf[JOINTER_PAPI_NAME_MAX];
    fresh();
    bad.name = "papi-mon";                       /* PAPI reads '-' as an operator */
    CHECK_OK(jointer_init(&dev, &bad, &io));
    CHECK_EQ(jointer_papi_register(&dev), -EINVAL);
    CHECK_EQ(jointer_papi_event_name(&bad, 0, buf, sizeof buf), -EINVAL);
    memset(long_name, 'm', sizeof long_name - 1u);
    long_name[100] = '\0';                       /* 100 + "sde:::jointer_::axi.busy_cycles" >= 128 */
    bad.name = long_name;
    CHECK_OK(jointer_init(&dev, &bad, &io));
    CHECK_EQ(jointer_papi_register(&dev), -ENAMETOOLONG);
    CHECK_EQ(jointer_papi_event_name(&bad, 0, buf, sizeof buf), -ENAMETOOLONG);
    CHECK_EQ(jointer_papi_unregister(&dev), -ENOENT);
}

/* ---- values through PAPI ----------------------------------------------------- */

TEST(papi_reads_every_metric_exactly)
{
    long long v[N_MON];
    CHECK_OK(setup());
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    events(BEATS, 3, 1);
    events(BYTES, 2, 500);
    mock_time(&hw, BUSY, 1, 50);
    events(FIRES, 1, 7);
    mock_event(&hw, LATMAX, 0x123, 1);
    mock_event(&hw, LATMAX, 0x45, 1);
    events(WORDS, 9, 1);
    events(BURSTS, 11, 1);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 3);
    CHECK_EQ(v[BYTES], 1000);
    CHECK_EQ(v[BUSY], 50);
    CHECK_EQ(v[FIRES], 7);
    CHECK_EQ(v[LATMAX], 0x123);
    CHECK_EQ(v[WORDS], 9);
    CHECK_EQ(v[BURSTS], 11);
    events(BEATS, 5, 1);
    mock_time(&hw, BUSY, 1, 25);
    CHECK_OK(stop_all(&mon.dev, v));
    CHECK_EQ(v[BEATS], 8);
    CHECK_EQ(v[BUSY], 75);
    CHECK_EQ(v[BYTES], 1000);
}

TEST(wrap_mode_counters_are_extended_across_the_wrap)
{
    long long v[N_MON], prev = 0;
    uint64_t x;
    CHECK_OK(setup());
    hw.result[BEATS] = 250;               /* 8 bits */
    hw.result[BYTES] = TWO40 - 5u;        /* 40 bits, two result words */
    hw.result[WORDS] = 65530;             /* 16 bits */
    hw.result[BURSTS] = TWO32 - 16u;      /* 32 bits */
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    events(BEATS, 10, 1);
    events(BYTES, 4, 5);
    events(WORDS, 16, 1);
    events(BURSTS, 32, 1);
    /* the registers wrapped */
    CHECK_EQ(hw.result[BEATS], 4);
    CHECK_EQ(hw.result[BYTES], 15);
    CHECK_EQ(hw.result[WORDS], 10);
    CHECK_EQ(hw.result[BURSTS], 16);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 10);
    CHECK_EQ(v[BYTES], 20);
    CHECK_EQ(v[WORDS], 16);
    CHECK_EQ(v[BURSTS], 32);
    /* many wraps, one read each: the delta only grows */
    prev = v[BEATS];
    for (unsigned k = 1; k <= 20; k++) {
        events(BEATS, 1, 200);
        events(WORDS, 1, 40000);
        CHECK_EQ(PAPI_read(es, v), PAPI_OK);
        CHECK(v[BEATS] > prev);
        CHECK_EQ(v[BEATS], 10 + 200 * (long long)k);
        CHECK_EQ(v[WORDS], 16 + 40000 * (long long)k);
        prev = v[BEATS];
    }
    /* the extended absolute value */
    CHECK_OK(jointer_papi_value(&mon.dev, BEATS, &x));
    CHECK_EQ(x, 250u + 10u + 20u * 200u);
    CHECK_OK(jointer_papi_value(&mon.dev, BYTES, &x));
    CHECK_EQ(x, TWO40 + 15u);
    CHECK_OK(stop_all(&mon.dev, v));
    CHECK_EQ(v[BEATS], 4010);
    CHECK_EQ(v[BURSTS], 32);
}

/* the measurement: a raw 32-bit register behind an SDE callback */
static long long raw_bursts(void *param)
{
    uint64_t v = 0;
    (void)jointer_read((jointer_dev *)param, BURSTS, &v);
    return (long long)v;
}

TEST(a_raw_32_bit_wrap_reads_negative_the_extended_one_does_not)
{
    long long v[2];
    papi_handle_t h;
    char name[JOINTER_PAPI_NAME_MAX];
    CHECK_OK(setup());
    hw.result[BURSTS] = TWO32 - 16u;
    CHECK_OK(jointer_papi_register(&mon.dev));
    h = papi_sde_init("jointer_test_raw");
    CHECK(h != NULL);
    CHECK_EQ(papi_sde_register_counter_cb(h, "bursts", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long,
                                          raw_bursts, &mon.dev), SDE_OK);
    CHECK_EQ(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_EQ(PAPI_add_named_event(es, "sde:::jointer_test_raw::bursts"), PAPI_OK);
    CHECK(jointer_papi_event_name(&papi_mon_cfg, BURSTS, name, sizeof name) > 0);
    CHECK_EQ(PAPI_add_named_event(es, name), PAPI_OK);
    CHECK_EQ(PAPI_start(es), PAPI_OK);
    events(BURSTS, 32, 1);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[0], -4294967264LL);        /* 32 - 2^32 */
    CHECK_EQ(v[1], 32);
    CHECK_EQ(PAPI_stop(es, v), PAPI_OK);
    drop(&es);
    /* the demo counter stays: libsde 7.0 cannot unregister (jointer_papi.c) */
    CHECK_OK(jointer_papi_unregister(&mon.dev));
}

TEST(saturating_counters_are_reported_as_read)
{
    long long v[N_MON];
    CHECK_OK(setup());
    hw.result[BUSY] = 4000;                          /* 12 bits: max 4095 */
    hw.result[FIRES] = ~(uint64_t)0 - 15u;           /* 64 bits, 16 below the top */
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    mock_time(&hw, BUSY, 1, 200);
    events(FIRES, 1, 5);
    CHECK_EQ(hw.result[BUSY], 4095);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BUSY], 95);
    CHECK_EQ(v[FIRES], 5);
    mock_time(&hw, BUSY, 1, 300);                    /* stays saturated */
    events(FIRES, 1, 100);                           /* saturates at 2^64 - 1 */
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BUSY], 95);
    CHECK_EQ(v[FIRES], 15);
    CHECK_OK(stop_all(&mon.dev, v));
}

TEST(max_metric_is_an_instantaneous_value)
{
    long long v[N_MON];
    CHECK_OK(setup());
    hw.result[LATMAX] = 0x500;
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[LATMAX], 0x500);                      /* not a delta */
    mock_event(&hw, LATMAX, 0x600, 1);
    mock_event(&hw, LATMAX, 0x10, 1);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[LATMAX], 0x600);
    CHECK_OK(stop_all(&mon.dev, v));
}

TEST(papi_reset_keeps_the_counters_continuous)
{
    long long v[N_MON];
    CHECK_OK(setup());
    hw.result[BEATS] = 200;
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    events(BEATS, 1, 100);                           /* 300 -> wraps to 44 */
    events(BYTES, 1, 1000);
    mock_time(&hw, BUSY, 1, 30);
    events(FIRES, 1, 4);
    mock_event(&hw, LATMAX, 0x77, 1);
    events(WORDS, 1, 5);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 100);
    events(BEATS, 1, 20);                            /* counted after the read, before the reset */
    CHECK_OK(jointer_papi_reset(&mon.dev, PAPI_MON_LMIC_FABRIC));
    CHECK_EQ(hw.result[BEATS], 0);                   /* the hardware was cleared */
    CHECK_EQ(hw.result[BYTES], 0);
    CHECK_EQ(hw.result[LATMAX], 0);
    CHECK_EQ(hw.result[WORDS], 5);                   /* other LMIC */
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 120);
    CHECK_EQ(v[BYTES], 1000);
    CHECK_EQ(v[BUSY], 30);
    CHECK_EQ(v[FIRES], 4);
    CHECK_EQ(v[LATMAX], 0);                          /* instantaneous: cleared */
    CHECK_EQ(v[WORDS], 5);
    events(BEATS, 1, 7);
    events(WORDS, 1, 3);
    CHECK_OK(jointer_papi_reset(&mon.dev, JOINTER_ALL_LMICS));
    CHECK_EQ(hw.result[WORDS], 0);
    events(BEATS, 1, 1);
    events(WORDS, 1, 1);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 128);
    CHECK_EQ(v[WORDS], 9);
    CHECK_OK(stop_all(&mon.dev, v));
}

TEST(rebase_after_a_reset_made_elsewhere)
{
    long long v[N_MON];
    uint64_t x;
    CHECK_OK(setup());
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    events(BEATS, 1, 90);
    mock_time(&hw, BUSY, 1, 40);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 90);
    CHECK_OK(papi_mon_reset_fabric(&mon));          /* e.g. the CLI */
    CHECK_OK(jointer_papi_rebase(&mon.dev, PAPI_MON_LMIC_FABRIC));
    events(BEATS, 1, 6);
    mock_time(&hw, BUSY, 1, 2);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 96);
    CHECK_EQ(v[BUSY], 42);
    /* without the rebase (documented): the drop reads as a wrap of the 8-bit
     * counter (+2^8), and as a drop of the saturating one */
    CHECK_OK(papi_mon_reset_fabric(&mon));
    CHECK_OK(jointer_papi_value(&mon.dev, BEATS, &x));
    CHECK_EQ(x, 96u + 256u - 6u);
    CHECK_OK(jointer_papi_value(&mon.dev, BUSY, &x));
    CHECK_EQ(x, 40u);
    CHECK_OK(stop_all(&mon.dev, v));
}

TEST(bus_errors_keep_the_last_value_and_are_reported)
{
    long long v[N_MON];
    CHECK_OK(setup());
    hw.fail_after = (int)(hw.reads + hw.writes);    /* the next access fails */
    CHECK_EQ(jointer_papi_register(&mon.dev), -EIO);
    CHECK_EQ(jointer_papi_unregister(&mon.dev), -ENOENT);  /* nothing stayed */
    hw.fail_after = -1;
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    events(BEATS, 1, 5);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 5);
    CHECK_EQ(jointer_papi_error(&mon.dev), 0);
    events(BEATS, 1, 3);
    hw.fail_after = (int)(hw.reads + hw.writes);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 5);                           /* the last good value */
    CHECK_EQ(jointer_papi_error(&mon.dev), -EIO);
    CHECK_EQ(jointer_papi_error(&mon.dev), 0);       /* cleared */
    CHECK_EQ(jointer_papi_reset(&mon.dev, PAPI_MON_LMIC_FABRIC), -EIO);
    hw.fail_after = -1;
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 8);
    CHECK_OK(stop_all(&mon.dev, v));
}

TEST(unregister_detaches_and_register_attaches_again)
{
    long long v[N_MON];
    CHECK_OK(setup());
    CHECK_OK(start_all(&mon.dev, &papi_mon_cfg));
    events(BEATS, 1, 5);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 5);
    CHECK_OK(jointer_papi_unregister(&mon.dev));
    events(BEATS, 1, 3);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 5);                           /* detached: the last value */
    CHECK_EQ(PAPI_stop(es, v), PAPI_OK);
    events(BEATS, 1, 240);                           /* 248 */
    CHECK_OK(jointer_papi_register(&mon.dev));       /* starts from the register: 248 */
    CHECK_EQ(PAPI_start(es), PAPI_OK);
    events(BEATS, 1, 10);                            /* wraps to 2 */
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[BEATS], 10);
    CHECK_OK(stop_all(&mon.dev, v));
}

TEST(y9_monitor_through_papi)
{
    static mock_hw y9hw;
    selective_accumulations_dev y9;
    jointer_io io;
    long long v[SELECTIVE_ACCUMULATIONS_NUM_METRICS];
    fresh();
    mock_init(&y9hw, &selective_accumulations_cfg);
    io = mock_io(&y9hw);
    CHECK_OK(selective_accumulations_init(&y9, &io));
    CHECK_OK(selective_accumulations_initialize_bytes_written(&y9, 0x0, 0xFFFF));
    CHECK_OK(selective_accumulations_set_mode_task(&y9, JOINTER_NO_FILTERING));
    CHECK_OK(selective_accumulations_set_mode_operation(&y9, JOINTER_NO_FILTERING));
    CHECK_OK(selective_accumulations_run_accel(&y9));
    CHECK_OK(start_all(&y9.dev, &selective_accumulations_cfg));
    mock_event(&y9hw, SELECTIVE_ACCUMULATIONS_METRIC_BYTES_WRITTEN, 0x100, 64);
    mock_event(&y9hw, SELECTIVE_ACCUMULATIONS_METRIC_BYTES_WRITTEN, 0x20000, 64); /* filtered out */
    mock_time(&y9hw, SELECTIVE_ACCUMULATIONS_METRIC_COMPUTE_CYCLES, 1, 1234);
    for (unsigned i = 0; i < 3; i++)
        mock_event(&y9hw, SELECTIVE_ACCUMULATIONS_METRIC_FORWARD_FIRES, 0, 1);
    for (unsigned i = 0; i < 1100; i++)                   /* 10 bits, saturating */
        mock_event(&y9hw, SELECTIVE_ACCUMULATIONS_METRIC_MAC_FIRES, 0, 1);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[SELECTIVE_ACCUMULATIONS_METRIC_BYTES_WRITTEN], 64);
    CHECK_EQ(v[SELECTIVE_ACCUMULATIONS_METRIC_COMPUTE_CYCLES], 1234);
    CHECK_EQ(v[SELECTIVE_ACCUMULATIONS_METRIC_FORWARD_FIRES], 3);
    CHECK_EQ(v[SELECTIVE_ACCUMULATIONS_METRIC_MAC_FIRES], 1023);
    CHECK_OK(stop_all(&y9.dev, v));
}

/* ---- LOST events of relay and sink traces ------------------------------------ */

#define RELAY_T RELAY_MON_TRACE_RELAY_T
#define EV_TRACE RELAY_MON_TRACE_EV_TRACE
#define RELAY_LOST_NAME "sde:::jointer_relay_mon::ev.relay_t_lost"

static mock_hw rhw;          /* relay_mon */
static relay_mon_dev rmon;

/* relay_mon on the mock, its sniffer NO_FILTERING, running */
static int relay_setup(void)
{
    jointer_io io;
    fresh();
    (void)jointer_papi_unregister(&rmon.dev);
    mock_init(&rhw, &relay_mon_cfg);
    io = mock_io(&rhw);
    if (relay_mon_init(&rmon, &io) != 0 || relay_mon_set_mode_ev(&rmon, JOINTER_NO_FILTERING) != 0
        || relay_mon_run_pl(&rmon) != 0)
        return -1;
    return 0;
}

/* the SDE events PAPI knows whose name ends in "_lost", counted; the first
 * one's full name into first */
static unsigned papi_lost_events(char *first, size_t size)
{
    PAPI_event_info_t info;
    int code = PAPI_NATIVE_MASK, cidx = PAPI_get_component_index("sde");
    unsigned n = 0;
    if (cidx < 0 || PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
        return 0;
    do {
        size_t len;
        if (PAPI_get_event_info(code, &info) != PAPI_OK)
            continue;
        len = strlen(info.symbol);
        if (len > 5u && strcmp(info.symbol + len - 5u, "_lost") == 0) {
            if (n++ == 0)
                (void)snprintf(first, size, "%s", info.symbol);
        }
    } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

TEST(lost_event_names_only_for_relay_and_sink_traces)
{
    static jointer_trace_desc traces[RELAY_MON_NUM_TRACES];
    jointer_cfg sink = relay_mon_cfg;
    char buf[JOINTER_PAPI_NAME_MAX];
    CHECK_EQ(jointer_papi_lost_event_name(&relay_mon_cfg, RELAY_T, buf, sizeof buf),
             (long long)strlen(RELAY_LOST_NAME));
    CHECK(strcmp(buf, RELAY_LOST_NAME) == 0);
    CHECK_EQ(jointer_papi_lost_event_name(&relay_mon_cfg, EV_TRACE, buf, sizeof buf), -ENOTSUP);
    CHECK_EQ(jointer_papi_lost_event_name(&relay_mon_cfg, RELAY_MON_NUM_TRACES, buf, sizeof buf), -EINVAL);
    CHECK_EQ(jointer_papi_lost_event_name(&relay_mon_cfg, RELAY_T, buf, strlen(RELAY_LOST_NAME)), -ERANGE);
    CHECK_EQ(jointer_papi_lost_event_name(&relay_mon_cfg, RELAY_T, NULL, sizeof buf), -EINVAL);
    CHECK_EQ(jointer_papi_lost_event_name(&papi_mon_cfg, 0, buf, sizeof buf), -EINVAL);   /* no trace */
    /* a sink trace (relay 0) has one, a relay trace turned into a stop trace none */
    memcpy(traces, relay_mon_cfg.traces, sizeof traces);
    traces[RELAY_T].relay = 0;
    sink.traces = traces;
    CHECK_EQ(jointer_papi_lost_event_name(&sink, RELAY_T, buf, sizeof buf), -ENOTSUP);
    traces[RELAY_T].sink_bytes = 8;
    traces[RELAY_T].depth = 0;
    traces[RELAY_T].ram_offset = 0;
    CHECK(jointer_papi_lost_event_name(&sink, RELAY_T, buf, sizeof buf) > 0);
    CHECK(strcmp(buf, RELAY_LOST_NAME) == 0);
    /* the metric names stay as they were */
    CHECK(jointer_papi_event_name(&relay_mon_cfg, RELAY_MON_METRIC_EV_COUNT, buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "sde:::jointer_relay_mon::ev.ev_count") == 0);
}

TEST(a_metric_named_like_a_lost_event_is_refused)
{
    static jointer_metric_desc metrics[RELAY_MON_NUM_METRICS];
    jointer_cfg bad = relay_mon_cfg;
    jointer_dev dev;
    jointer_io io;
    char buf[JOINTER_PAPI_NAME_MAX];
    CHECK_OK(relay_setup());
    memcpy(metrics, relay_mon_cfg.metrics, sizeof metrics);
    metrics[0].name = "relay_t_lost";             /* same sniffer ev */
    bad.metrics = metrics;
    io = mock_io(&rhw);
    CHECK_OK(jointer_init(&dev, &bad, &io));
    CHECK_EQ(jointer_papi_register(&dev), -EINVAL);
    CHECK_EQ(jointer_papi_lost_event_name(&bad, RELAY_T, buf, sizeof buf), -EINVAL);
    metrics[0].name = "ev_trace_lost";            /* ev_trace has no LOST event: fine */
    CHECK(jointer_papi_event_name(&bad, 0, buf, sizeof buf) > 0);
}

TEST(lost_event_reads_the_relay_trace_lost_register)
{
    long long v[2];
    char name[JOINTER_PAPI_NAME_MAX];
    CHECK_OK(relay_setup());
    rhw.tr_lost[RELAY_T] = 7;
    rhw.tr_lost[EV_TRACE] = 999;                  /* not a relay trace: never read */
    CHECK_OK(jointer_papi_register(&rmon.dev));
    CHECK_EQ(PAPI_create_eventset(&es), PAPI_OK);
    CHECK(jointer_papi_event_name(&relay_mon_cfg, RELAY_MON_METRIC_EV_COUNT, name, sizeof name) > 0);
    CHECK_EQ(PAPI_add_named_event(es, name), PAPI_OK);
    CHECK_EQ(PAPI_add_named_event(es, RELAY_LOST_NAME), PAPI_OK);
    CHECK_EQ(PAPI_start(es), PAPI_OK);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 7);                            /* instantaneous: not a delta */
    /* the mock drops records of the full relay trace (8 records) */
    for (unsigned i = 0; i < 8u + 5u; i++)
        mock_trace_event(&rhw, RELAY_T, i);
    mock_event(&rhw, RELAY_MON_METRIC_EV_COUNT, 0, 4);
    CHECK_EQ(rhw.tr_lost[RELAY_T], 12);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[0], 4);
    CHECK_EQ(v[1], 12);
    rhw.tr_lost[RELAY_T] = 0xFFFFFFFFu;           /* saturated: 2^32 - 1, not -1 */
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 4294967295LL);
    rhw.tr_lost[RELAY_T] = 0;                     /* cleared with the trace */
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 0);
    /* a bus error: the last good value, the error kept */
    rhw.tr_lost[RELAY_T] = 3;
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 3);
    CHECK_EQ(jointer_papi_error(&rmon.dev), 0);
    rhw.tr_lost[RELAY_T] = 5;
    rhw.fail_after = (int)(rhw.reads + rhw.writes);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 3);
    CHECK_EQ(jointer_papi_error(&rmon.dev), -EIO);
    rhw.fail_after = -1;
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 5);
    /* detached: the last value */
    CHECK_OK(jointer_papi_unregister(&rmon.dev));
    rhw.tr_lost[RELAY_T] = 9;
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[1], 5);
    CHECK_EQ(PAPI_stop(es, v), PAPI_OK);
    drop(&es);
}

TEST(lost_event_reads_a_sink_trace_lost_register)
{
    static jointer_trace_desc traces[RELAY_MON_NUM_TRACES];
    jointer_cfg sink = relay_mon_cfg;
    jointer_dev dev;
    jointer_io io;
    long long v[1];
    CHECK_OK(relay_setup());
    memcpy(traces, relay_mon_cfg.traces, sizeof traces);
    traces[RELAY_T].sink_bytes = 8;
    traces[RELAY_T].relay = 0;
    traces[RELAY_T].depth = 0;
    traces[RELAY_T].ram_offset = 0;
    sink.traces = traces;
    /* the mock serves WPTR+0x1C of that block: JOINTER_SINK_LOST */
    CHECK_EQ(JOINTER_SINK_LOST, JOINTER_TRACE_LOST);
    rhw.tr_lost[RELAY_T] = 41;
    io = mock_io(&rhw);
    CHECK_OK(jointer_init(&dev, &sink, &io));
    /* same monitor name, same events (the sink trace has its LOST event
     * too): it takes the place of relay_mon */
    CHECK_OK(jointer_papi_register(&dev));
    CHECK_EQ(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_EQ(PAPI_add_named_event(es, RELAY_LOST_NAME), PAPI_OK);
    CHECK_EQ(PAPI_start(es), PAPI_OK);
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[0], 41);
    rhw.tr_lost[RELAY_T] = 100000;
    CHECK_EQ(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ(v[0], 100000);
    CHECK_OK(stop_all(&dev, v));
    /* a stop trace instead (no LOST event): another event set, refused */
    traces[RELAY_T] = relay_mon_cfg.traces[RELAY_T];
    traces[RELAY_T].relay = 0;
    CHECK_OK(jointer_init(&dev, &sink, &io));
    CHECK_EQ(jointer_papi_register(&dev), -EEXIST);
}

TEST(only_relay_and_sink_traces_have_a_lost_event_in_papi)
{
    static mock_hw y9hw;
    selective_accumulations_dev y9;
    jointer_io io;
    char first[PAPI_MAX_STR_LEN];
    CHECK_OK(relay_setup());
    CHECK_OK(setup());                            /* papi_mon */
    mock_init(&y9hw, &selective_accumulations_cfg);
    io = mock_io(&y9hw);
    CHECK_OK(selective_accumulations_init(&y9, &io));
    CHECK_OK(jointer_papi_register(&mon.dev));
    CHECK_OK(jointer_papi_register(&y9.dev));
    CHECK_OK(jointer_papi_register(&rmon.dev));
    /* every monitor registered: papi_mon and Y9 add no _lost event,
     * relay_mon exactly one, for relay_t (not for ev_trace) */
    first[0] = '\0';
    CHECK_EQ(papi_lost_events(first, sizeof first), 1);
    CHECK(strcmp(first, RELAY_LOST_NAME) == 0);
    CHECK_OK(jointer_papi_unregister(&rmon.dev));
    CHECK_OK(jointer_papi_unregister(&y9.dev));
    CHECK_OK(jointer_papi_unregister(&mon.dev));
}

/* ---- the papi_native_avail hook --------------------------------------------- */

static char listed[32][2u * JOINTER_PAPI_NAME_MAX + 16u];
static int listed_modes[32];
static unsigned n_listed, n_described, lost_described;
static char listed_lib[JOINTER_PAPI_NAME_MAX];
static int fake_handle;

static papi_handle_t fake_init(const char *lib)
{
    (void)snprintf(listed_lib, sizeof listed_lib, "%s", lib);
    return &fake_handle;
}

static int fake_register_cb(papi_handle_t h, const char *name, int mode, int type, papi_sde_fptr_t cb, void *p)
{
    (void)p;
    if (h != &fake_handle || type != PAPI_SDE_long_long || cb == NULL || n_listed >= 32)
        return SDE_EINVAL;
    (void)snprintf(listed[n_listed], sizeof listed[0], "sde:::%s::%s", listed_lib, name);
    listed_modes[n_listed++] = mode;
    return cb(p) == 0 ? SDE_OK : SDE_EINVAL;
}

static int fake_describe(papi_handle_t h, const char *name, const char *desc)
{
    (void)h;
    (void)name;
    if (desc != NULL && strstr(desc, "jointer monitor") != NULL)
        n_described++;
    if (desc != NULL && strcmp(desc, "jointer monitor relay_mon: records dropped by trace relay_t "
                                     "(buffer/FIFO full), saturating") == 0)
        lost_described++;
    return SDE_OK;
}

TEST(list_events_registers_every_name_through_the_given_functions)
{
    static const jointer_cfg *const cfgs[] = {&papi_mon_cfg, &selective_accumulations_cfg, &relay_mon_cfg};
    papi_sde_fptr_struct_t f;
    char name[JOINTER_PAPI_NAME_MAX];
    jointer_cfg bad = papi_mon_cfg;
    const jointer_cfg *badp = &bad;
    memset(&f, 0, sizeof f);
    f.init = fake_init;
    f.register_counter_cb = fake_register_cb;
    f.describe_counter = fake_describe;
    n_listed = n_described = 0;
    CHECK(jointer_papi_list_events((struct papi_sde_fptr_struct_s *)&f, cfgs, 2) == &fake_handle);
    CHECK_EQ(n_listed, N_MON + SELECTIVE_ACCUMULATIONS_NUM_METRICS);
    CHECK_EQ(n_described, n_listed);
    for (unsigned i = 0; i < n_listed; i++)
        CHECK(strstr(listed[i], "_lost") == NULL);   /* no relay or sink trace */
    for (unsigned i = 0; i < n_listed; i++) {
        const jointer_cfg *cfg = i < N_MON ? &papi_mon_cfg : &selective_accumulations_cfg;
        unsigned m = i < N_MON ? i : i - N_MON;
        CHECK(jointer_papi_event_name(cfg, m, name, sizeof name) > 0);
        CHECK(strcmp(listed[i], name) == 0);
        CHECK_EQ(listed_modes[i] & PAPI_SDE_INSTANT,
                 cfg->metrics[m].aggregator == JOINTER_AGGREGATOR_SUM ? 0 : PAPI_SDE_INSTANT);
    }
    /* relay_mon: its metric, then the LOST event of relay_t, instantaneous */
    n_listed = n_described = 0;
    lost_described = 0;
    CHECK(jointer_papi_list_events((struct papi_sde_fptr_struct_s *)&f, &cfgs[2], 1) == &fake_handle);
    CHECK_EQ(n_listed, RELAY_MON_NUM_METRICS + 1u);
    CHECK_EQ(n_described, n_listed);
    CHECK_EQ(lost_described, 1);
    CHECK(strcmp(listed[0], "sde:::jointer_relay_mon::ev.ev_count") == 0);
    CHECK(strcmp(listed[1], RELAY_LOST_NAME) == 0);
    CHECK_EQ(listed_modes[1], PAPI_SDE_RO | PAPI_SDE_INSTANT);
    CHECK(jointer_papi_list_events(NULL, cfgs, 2) == NULL);
    CHECK(jointer_papi_list_events((struct papi_sde_fptr_struct_s *)&f, NULL, 2) == NULL);
    bad.name = "bad name";
    CHECK(jointer_papi_list_events((struct papi_sde_fptr_struct_s *)&f, &badp, 1) == NULL);
}

/* monitors renamed at run time, on a direct seam over zeroed registers;
 * run last: the names it registers keep their places (jointer_papi.h) */
#define N_COPIES (JOINTER_PAPI_MAX_DEVICES + 1u)
static uint32_t copy_regs[PAPI_MON_SPAN / 4u];
static jointer_cfg copies[N_COPIES];
static char copy_names[N_COPIES][16];
static jointer_dev copy_devs[N_COPIES];

TEST(monitor_names_keep_their_places_up_to_the_maximum)
{
    jointer_io io = jointer_io_direct(copy_regs);
    unsigned k = 0;
    int err = 0;
    CHECK_OK(setup());
    CHECK_OK(jointer_papi_register(&mon.dev));       /* papi_mon has a place */
    CHECK_OK(jointer_papi_unregister(&mon.dev));
    for (unsigned i = 0; i < N_COPIES; i++) {
        copies[i] = papi_mon_cfg;
        (void)snprintf(copy_names[i], sizeof copy_names[i], "copy%u", i);
        copies[i].name = copy_names[i];
        CHECK_OK(jointer_init(&copy_devs[i], &copies[i], &io));
    }
    while (k < N_COPIES && (err = jointer_papi_register(&copy_devs[k])) == 0)
        k++;
    CHECK_EQ(err, -ENOSPC);
    /* papi_mon and (unless filtered out) the Y9 monitor and relay_mon hold
     * the others */
    CHECK(k + 1u <= JOINTER_PAPI_MAX_DEVICES && k + 3u >= JOINTER_PAPI_MAX_DEVICES);
    for (unsigned i = 0; i < k; i++)
        CHECK_OK(jointer_papi_unregister(&copy_devs[i]));
    CHECK_EQ(jointer_papi_register(&copy_devs[k]), -ENOSPC);   /* detached names keep theirs */
    CHECK_OK(jointer_papi_register(&copy_devs[0]));            /* a known name needs none */
    CHECK_OK(jointer_papi_register(&mon.dev));
    CHECK_OK(jointer_papi_unregister(&copy_devs[0]));
    CHECK_OK(jointer_papi_unregister(&mon.dev));
}

/* ---- main ---------------------------------------------------------------- */

static const jt_case cases[] = {
    JT_CASE(event_names_are_sde_jointer_monitor_sniffer_metric),
    JT_CASE(register_checks_its_arguments),
    JT_CASE(register_rejects_bad_names),
    JT_CASE(papi_reads_every_metric_exactly),
    JT_CASE(wrap_mode_counters_are_extended_across_the_wrap),
    JT_CASE(a_raw_32_bit_wrap_reads_negative_the_extended_one_does_not),
    JT_CASE(saturating_counters_are_reported_as_read),
    JT_CASE(max_metric_is_an_instantaneous_value),
    JT_CASE(papi_reset_keeps_the_counters_continuous),
    JT_CASE(rebase_after_a_reset_made_elsewhere),
    JT_CASE(bus_errors_keep_the_last_value_and_are_reported),
    JT_CASE(unregister_detaches_and_register_attaches_again),
    JT_CASE(y9_monitor_through_papi),
    JT_CASE(lost_event_names_only_for_relay_and_sink_traces),
    JT_CASE(a_metric_named_like_a_lost_event_is_refused),
    JT_CASE(lost_event_reads_the_relay_trace_lost_register),
    JT_CASE(lost_event_reads_a_sink_trace_lost_register),
    JT_CASE(only_relay_and_sink_traces_have_a_lost_event_in_papi),
    JT_CASE(list_events_registers_every_name_through_the_given_functions),
    JT_CASE(monitor_names_keep_their_places_up_to_the_maximum),
};

static int print_names(void)
{
    static const jointer_cfg *const cfgs[] = {&papi_mon_cfg, &selective_accumulations_cfg, &relay_mon_cfg};
    char name[JOINTER_PAPI_NAME_MAX];
    for (unsigned c = 0; c < 3; c++) {
        for (unsigned i = 0; i < cfgs[c]->num_metrics; i++) {
            if (jointer_papi_event_name(cfgs[c], i, name, sizeof name) < 0)
                return 1;
            printf("%s\n", name);
        }
        for (unsigned t = 0; t < cfgs[c]->num_traces; t++) {
            int rc = jointer_papi_lost_event_name(cfgs[c], t, name, sizeof name);
            if (rc < 0 && rc != -ENOTSUP)
                return 1;
            if (rc > 0)
                printf("%s\n", name);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rc;
    if (argc > 1 && strcmp(argv[1], "--names") == 0)
        return print_names();
    /* no perf_event: no permission needed, only the sde component */
    if (PAPI_disable_component_by_name("perf_event") != PAPI_OK
        || PAPI_disable_component_by_name("perf_event_uncore") != PAPI_OK) {
        printf("test_papi: cannot disable the perf_event components\n");
        return 1;
    }
    rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) {
        printf("test_papi: PAPI_library_init: %s\n", PAPI_strerror(rc));
        return 1;
    }
    rc = jt_run("test_papi", cases, sizeof cases / sizeof cases[0], argc, argv);
    fresh();
    PAPI_shutdown();
    return rc;
}
