// SPDX-License-Identifier: MIT
/*
 * test_generated.c - libjointer over a descriptor the generator emitted
 * (compiled with -DGEN_CFG=<name>_cfg and linked with <name>.c): the
 * descriptor passes jointer_init's checks, and every metric, threshold and
 * trace is reachable through the API against the emulated monitor.
 * Run by gen_check.sh for every YAML file in configs/.
 */
#include "jointer.h"
#include "jt_test.h"
#include "mock/jointer_mock.h"

extern const jointer_cfg GEN_CFG;
#define CFG (&GEN_CFG)

int jt_failed;

static mock_hw M;
static jointer_dev D;
static uint32_t bounds[2048];
static uint64_t values[1024];

static int open_mock(void)
{
    jointer_io io;
    mock_init(&M, CFG);
    io = mock_io(&M);
    if (jointer_init(&D, CFG, &io) != 0)
        return -1;
    return jointer_attach_bounds(&D, bounds, 2048);
}

/* the expected result per aggregator */
static uint64_t expect(unsigned aggregator, uint64_t sum, uint64_t min, uint64_t max, uint64_t last)
{
    switch (aggregator) {
    case JOINTER_AGGREGATOR_SUM: return sum;
    case JOINTER_AGGREGATOR_MIN: return min;
    case JOINTER_AGGREGATOR_MAX: return max;
    default: return last;
    }
}

TEST(descriptor_accepted_and_identity_matches)
{
    CHECK(CFG->num_metrics <= MOCK_MAX_METRICS && CFG->num_traces <= MOCK_MAX_TRACES);
    CHECK(CFG->span / 4 <= MOCK_MAX_WORDS);
    CHECK_OK(open_mock());
    CHECK_OK(jointer_selftest(&D, 0, NULL));
}

TEST(every_metric_counts_in_no_filtering_and_filtering)
{
    unsigned i, s, l;
    CHECK_OK(open_mock());
    for (s = 0; s < CFG->num_sniffers; s++)
        CHECK_OK(jointer_set_mode(&D, CFG->sniffers[s].lmic, CFG->sniffers[s].index, JOINTER_NO_FILTERING));
    for (l = 0; l < CFG->num_lmics; l++)
        CHECK_OK(jointer_run(&D, l));
    for (i = 0; i < CFG->num_metrics; i++) {
        if (CFG->metrics[i].extractor == JOINTER_EXTRACTOR_TIME)
            mock_time(&M, i, 1, 3);
        else
            mock_event(&M, i, 1, 1);
    }
    CHECK_OK(jointer_read_all(&D, values, 1024));
    for (i = 0; i < CFG->num_metrics; i++)
        if (values[i] == 0 && CFG->metrics[i].aggregator != JOINTER_AGGREGATOR_MIN) {
            printf("  metric %s did not count\n", CFG->metrics[i].name);
            CHECK(0);
        }
    /* a filter on every DCAPF that has one: only in-range events count; the
     * ones without (filter: none) refuse it and count everything in FILTERING */
    for (l = 0; l < CFG->num_lmics; l++)
        CHECK_OK(jointer_reset(&D, l));
    for (s = 0; s < CFG->num_sniffers; s++)
        CHECK_OK(jointer_set_mode(&D, CFG->sniffers[s].lmic, CFG->sniffers[s].index, JOINTER_FILTERING));
    for (i = 0; i < CFG->num_metrics; i++) {
        const jointer_metric_desc *m = &CFG->metrics[i];
        int r = jointer_initialize(&D, m->lmic, CFG->sniffers[m->sniffer].index, m->dcapf, 10, 20);
        CHECK_EQ(r, (m->flags & JOINTER_METRIC_FILTER) ? 0 : -ENOTSUP);
    }
    for (i = 0; i < CFG->num_traces; i++) {
        const jointer_trace_desc *t = &CFG->traces[i];
        int r = jointer_initialize(&D, t->lmic, CFG->sniffers[t->sniffer].index, t->dcapf, 10, 20);
        CHECK_EQ(r, t->filter ? 0 : -ENOTSUP);
    }
    for (l = 0; l < CFG->num_lmics; l++)
        CHECK_OK(jointer_run(&D, l));
    for (i = 0; i < CFG->num_metrics; i++) {
        const jointer_metric_desc *m = &CFG->metrics[i];
        int filter = (m->flags & JOINTER_METRIC_FILTER) != 0;
        CHECK_EQ(mock_mode(&M, m->sniffer), JOINTER_FILTERING);
        if (m->extractor == JOINTER_EXTRACTOR_TIME) {
            mock_time(&M, i, 15, 3);
            mock_time(&M, i, 25, 4);
            CHECK_OK(jointer_read(&D, i, &values[i]));
            /* samples 3 (data 15) and 4 (data 25, outside 10..20) */
            CHECK_EQ(values[i], filter ? 3 : expect(m->aggregator, 7, 3, 4, 4));
            continue;
        }
        mock_event(&M, i, 15, 1);
        mock_event(&M, i, 25, 1);
        CHECK_OK(jointer_read(&D, i, &values[i]));
        /* sum of increments 1 + 1, data samples 15 and 25 (outside 10..20) */
        CHECK_EQ(values[i], filter ? expect(m->aggregator, 1, 15, 15, 15) : expect(m->aggregator, 2, 15, 25, 25));
    }
}

TEST(thresholds_and_traces)
{
    unsigned i;
    CHECK_OK(open_mock());
    for (i = 0; i < CFG->num_metrics; i++) {
        uint64_t v;
        int r = jointer_set_threshold(&D, i, 1);
        if (!(CFG->metrics[i].flags & JOINTER_METRIC_THRESHOLD)) {
            CHECK_EQ(r, -ENOTSUP);
            continue;
        }
        CHECK_OK(r);
        CHECK_OK(jointer_read_threshold(&D, i, &v));
        CHECK_EQ(v, 1);
        CHECK_OK(jointer_irq_enable(&D, CFG->metrics[i].lmic, 1u << CFG->metrics[i].irq_bit));
    }
    for (i = 0; i < CFG->num_traces; i++) {
        const jointer_trace_desc *t = &CFG->traces[i];
        jointer_trace_record r[4];
        uint32_t n;
        CHECK_OK(jointer_set_mode(&D, t->lmic, CFG->sniffers[t->sniffer].index, JOINTER_NO_FILTERING));
        CHECK_OK(jointer_run(&D, t->lmic));
        if (t->sink_bytes != 0) { /* records in a ring in memory: test_sink.c and the co-simulation */
            CHECK_EQ(jointer_trace_read(&D, i, r, 4, &n), -ENOTSUP);
            CHECK_EQ(jointer_trace_drain(&D, i, r, 4, &n), -ENOTCONN); /* no ring started */
            CHECK_OK(jointer_trace_set_watermark(&D, i, 64));
            continue;
        }
        mock_trace_event(&M, i, 0x77);
        CHECK_OK(jointer_trace_read(&D, i, r, 4, &n));
        CHECK_EQ(n, 1);
        CHECK_EQ(r[0].data, 0x77);
        CHECK_OK(jointer_trace_set_watermark(&D, i, t->depth));
    }
    /* MARK and TIMESTAMP exist exactly where the description has them (INFO) */
    CHECK_EQ(jointer_mark(&D, 1), (CFG->info & JOINTER_INFO_MARK) ? 0 : -ENOTSUP);
    {
        uint64_t ts;
        CHECK_EQ(jointer_timestamp(&D, &ts), (CFG->info & JOINTER_INFO_TIMESTAMP) ? 0 : -ENOTSUP);
    }
}

static const jt_case cases[] = {
    JT_CASE(descriptor_accepted_and_identity_matches),
    JT_CASE(every_metric_counts_in_no_filtering_and_filtering),
    JT_CASE(thresholds_and_traces),
};

int main(int argc, char **argv)
{
    char suite[128];
    snprintf(suite, sizeof suite, "test_generated[%s]", CFG->name);
    return jt_run(suite, cases, sizeof cases / sizeof cases[0], argc, argv);
}
