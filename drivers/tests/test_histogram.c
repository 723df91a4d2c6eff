// SPDX-License-Identifier: MIT
/*
 * test_histogram.c - libjointer's histogram API against a
 * small register model of an LMIC with histogram results: the read of
 * bucket 0's first word snapshots every other word of the histogram (as
 * jointer_collect_lmic does), and the live buckets move after every bus
 * access (samples arriving while the driver reads). The model keeps the
 * live values at the snapshot; jointer_read_histogram must return exactly
 * those; the same for a mean (sum, count). Also: bucket bounds (pow2 and listed), argument and descriptor
 * checks, bus errors. Runs native and under ASan/UBSan.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "jointer.h"
#include "jt_test.h"

int jt_failed;

/* one LMIC window at 0x40; sniffer 0 with three result DCAPFs:
 *   m0 "count"  32 bits, 1 word            at 0x58
 *   m1 "hpow2"  16 bits, 6 buckets pow2    at 0x5C..0x70 (1 word each)
 *   m2 "hlist"  40 bits, 4 buckets listed  at 0x70..0x8C (2 words each)
 *   m3 "lmean"  40 bits, mean: sum, count  at 0x90..0x9C (2 words each) */
static const uint32_t hlist_bounds[3] = {4u, 8u, 100u};
static const jointer_lmic_desc lmics[1] = {{.name = "lm", .base = 0x40u, .first_sniffer = 0, .num_sniffers = 1,
                                            .num_irq = 0}};
static const jointer_sniffer_desc sniffers[1] = {{.name = "s", .lmic = 0, .index = 0, .num_dcapfs = 4}};
static jointer_metric_desc metrics[4] = {
    {.name = "count", .result_offset = 0x54u, .threshold_offset = JOINTER_NO_OFFSET, .low_reset = 0,
     .high_reset = 0xFFFFFFFFu, .sniffer = 0, .lmic = 0, .dcapf = 0, .width = 32,
     .extractor = JOINTER_EXTRACTOR_EVENT, .aggregator = JOINTER_AGGREGATOR_SUM, .flags = 0, .irq_bit = -1},
    {.name = "hpow2", .result_offset = 0x58u, .threshold_offset = JOINTER_NO_OFFSET, .low_reset = 0,
     .high_reset = 0xFFFFFFFFu, .sniffer = 0, .lmic = 0, .dcapf = 1, .width = 16,
     .extractor = JOINTER_EXTRACTOR_EVENT, .aggregator = JOINTER_AGGREGATOR_HISTOGRAM, .flags = 0, .irq_bit = -1,
     .buckets = 6, .bounds = NULL},
    {.name = "hlist", .result_offset = 0x70u, .threshold_offset = JOINTER_NO_OFFSET, .low_reset = 0,
     .high_reset = 0xFFFFFFFFu, .sniffer = 0, .lmic = 0, .dcapf = 2, .width = 40,
     .extractor = JOINTER_EXTRACTOR_TIME, .aggregator = JOINTER_AGGREGATOR_HISTOGRAM, .flags = 0, .irq_bit = -1,
     .buckets = 4, .bounds = hlist_bounds},
    {.name = "lmean", .result_offset = 0x90u, .threshold_offset = JOINTER_NO_OFFSET, .low_reset = 0,
     .high_reset = 0xFFFFFFFFu, .sniffer = 0, .lmic = 0, .dcapf = 3, .width = 40,
     .extractor = JOINTER_EXTRACTOR_EVENT, .aggregator = JOINTER_AGGREGATOR_MEAN, .flags = 0, .irq_bit = -1,
     .buckets = 2, .bounds = NULL},
};
static jointer_cfg cfg = {.name = "hmon", .config_hash = 0x12345678u, .version = JOINTER_VERSION_VALUE,
                          .span = 0x80u * 2u, .window = 0x80u, .base_address = 0, .bus_clock_hz = 0,
                          .lmics = lmics, .sniffers = sniffers, .metrics = metrics, .traces = NULL,
                          .num_lmics = 1, .num_sniffers = 1, .num_metrics = 4, .num_traces = 0,
                          .num_dcapfs = 4};

/* ---- the register model ---- */
typedef struct hw {
    uint64_t live[4][6];      /* per metric, per bucket (m0: bucket 0 only) */
    uint32_t snap[4][12];     /* per metric: words 1.. of the snapshot */
    uint64_t at_snap[4][6];   /* live values when word 0 was read */
    uint32_t reads;
    uint32_t rng;
    int fail_at;              /* read number that fails (-EIO), -1: none */
} hw;

static uint32_t next(hw *h)
{
    h->rng = h->rng * 1103515245u + 12345u;
    return h->rng >> 8;
}

static unsigned nbuckets(unsigned m)
{
    return metrics[m].buckets > 1u ? metrics[m].buckets : 1u;
}

static uint32_t word_of(unsigned m, const uint64_t *vals, unsigned j)
{
    unsigned w = (metrics[m].width + 31u) / 32u;
    uint64_t mask = metrics[m].width == 64u ? UINT64_MAX : ((uint64_t)1 << metrics[m].width) - 1u;
    return (uint32_t)(((vals[j / w] & mask) >> (32u * (j % w))) & 0xFFFFFFFFu);
}

static int hw_read(void *ctx, uint32_t off, uint32_t *v)
{
    hw *h = ctx;
    unsigned m, b, j;
    int r = 0;

    if (h->fail_at >= 0 && h->reads == (uint32_t)h->fail_at)
        r = -EIO;
    h->reads++;
    *v = 0;
    for (m = 0; r == 0 && m < 4u; m++) {
        unsigned w = (metrics[m].width + 31u) / 32u, n = nbuckets(m) * w;
        if (off < metrics[m].result_offset || off >= metrics[m].result_offset + 4u * n)
            continue;
        j = (off - metrics[m].result_offset) / 4u;
        if (j == 0) {
            *v = word_of(m, h->live[m], 0);
            for (b = 1; b < n; b++)
                h->snap[m][b] = word_of(m, h->live[m], b);
            memcpy(h->at_snap[m], h->live[m], sizeof h->live[m]);
        } else {
            *v = h->snap[m][j];
        }
    }
    /* samples arrive: every bucket may move, some by a carry into the upper word */
    for (m = 0; m < 4u; m++)
        for (b = 0; b < nbuckets(m); b++) {
            uint32_t x = next(h) % 8u;
            h->live[m][b] += x == 7u ? 0xFFFFFFFFu : x;
        }
    return r;
}

static int hw_write(void *ctx, uint32_t off, uint32_t v)
{
    (void)ctx;
    (void)off;
    (void)v;
    return 0;
}

static const jointer_io_ops ops = {hw_read, hw_write, NULL};

static int setup(jointer_dev *dev, hw *h)
{
    jointer_io io = jointer_io_from_ops(&ops, h);
    memset(h, 0, sizeof *h);
    h->rng = 1;
    h->fail_at = -1;
    return jointer_init(dev, &cfg, &io);
}

TEST(buckets_and_bounds)
{
    jointer_dev dev;
    hw h;
    uint64_t lo, hi;
    static const uint64_t pow2[6][2] = {{0, 1}, {1, 2}, {2, 4}, {4, 8}, {8, 16}, {16, UINT64_MAX}};
    static const uint64_t list[4][2] = {{0, 4}, {4, 8}, {8, 100}, {100, UINT64_MAX}};
    unsigned k;

    CHECK_OK(setup(&dev, &h));
    CHECK_EQ(jointer_histogram_buckets(&dev, 1), 6);
    CHECK_EQ(jointer_histogram_buckets(&dev, 2), 4);
    CHECK_EQ(jointer_histogram_buckets(&dev, 0), -ENOTSUP);
    CHECK_EQ(jointer_histogram_buckets(&dev, 4), -EINVAL);
    CHECK_EQ(jointer_histogram_buckets(NULL, 1), -EINVAL);
    for (k = 0; k < 6u; k++) {
        CHECK_OK(jointer_histogram_bucket(&dev, 1, k, &lo, &hi));
        CHECK(lo == pow2[k][0] && hi == pow2[k][1]);
    }
    for (k = 0; k < 4u; k++) {
        CHECK_OK(jointer_histogram_bucket(&dev, 2, k, &lo, &hi));
        CHECK(lo == list[k][0] && hi == list[k][1]);
    }
    CHECK_EQ(jointer_histogram_bucket(&dev, 1, 6, &lo, &hi), -EINVAL);
    CHECK_EQ(jointer_histogram_bucket(&dev, 1, 0, NULL, &hi), -EINVAL);
    CHECK_EQ(jointer_histogram_bucket(&dev, 0, 0, &lo, &hi), -ENOTSUP);
    CHECK_EQ(h.reads, 2u);                  /* jointer_init's 2 reads only: descriptor facts */
}

TEST(read_is_one_snapshot)
{
    jointer_dev dev;
    hw h;
    uint64_t v[8];
    unsigned m, b, round, moved = 0;

    CHECK_OK(setup(&dev, &h));
    for (round = 0; round < 200u; round++) {
        for (m = 1; m < 3u; m++) {
            uint64_t mask = ((uint64_t)1 << metrics[m].width) - 1u;
            uint32_t before = h.reads;
            memset(v, 0xA5, sizeof v);
            CHECK_OK(jointer_read_histogram(&dev, m, v, 8));
            /* one read per word, bucket 0's first word first */
            CHECK_EQ(h.reads - before, nbuckets(m) * ((metrics[m].width + 31u) / 32u));
            for (b = 0; b < nbuckets(m); b++)
                CHECK(v[b] == (h.at_snap[m][b] & mask));
            CHECK(v[6] == 0xA5A5A5A5A5A5A5A5ull);   /* nothing beyond N written */
            for (b = 0; b < nbuckets(m); b++)
                moved += (h.live[m][b] & mask) != v[b];
        }
    }
    CHECK(moved > 100u);                    /* the buckets did move during the reads */
}

TEST(mean_is_one_snapshot)
{
    jointer_dev dev;
    hw h;
    uint64_t sum, count, mask = ((uint64_t)1 << 40) - 1u;
    unsigned round, moved = 0;

    CHECK_OK(setup(&dev, &h));
    for (round = 0; round < 200u; round++) {
        uint32_t before = h.reads;
        CHECK_OK(jointer_read_mean(&dev, 3, &sum, &count));
        CHECK_EQ(h.reads - before, 4u);        /* sum LO (snapshot), sum HI, count LO, count HI */
        CHECK(sum == (h.at_snap[3][0] & mask) && count == (h.at_snap[3][1] & mask));
        moved += (h.live[3][0] & mask) != sum;
    }
    CHECK(moved > 100u);
    CHECK_EQ(jointer_read_mean(&dev, 1, &sum, &count), -ENOTSUP);   /* a histogram */
    CHECK_EQ(jointer_read_mean(&dev, 0, &sum, &count), -ENOTSUP);
    CHECK_EQ(jointer_read_mean(&dev, 3, NULL, &count), -EINVAL);
    CHECK_EQ(jointer_read_mean(&dev, 4, &sum, &count), -EINVAL);
    CHECK_EQ(jointer_histogram_buckets(&dev, 3), -ENOTSUP);          /* a mean is no histogram */
}

TEST(arguments_and_errors)
{
    jointer_dev dev;
    hw h;
    uint64_t v[8];

    CHECK_OK(setup(&dev, &h));
    CHECK_EQ(jointer_read_histogram(&dev, 1, v, 5), -ENOSPC);
    CHECK_EQ(jointer_read_histogram(&dev, 1, NULL, 8), -EINVAL);
    CHECK_EQ(jointer_read_histogram(&dev, 0, v, 8), -ENOTSUP);
    CHECK_EQ(jointer_read_histogram(&dev, 9, v, 8), -EINVAL);
    CHECK_EQ(h.reads, 2u);                  /* jointer_init's 2 reads only */
    h.fail_at = (int)h.reads + 3;           /* the 4th read of a histogram fails */
    CHECK_EQ(jointer_read_histogram(&dev, 2, v, 8), -EIO);
    CHECK_OK(jointer_read_histogram(&dev, 2, v, 4));
}

TEST(descriptor_checks)
{
    jointer_dev dev;
    hw h;

    metrics[1].buckets = 1;                 /* histogram aggregator needs buckets */
    CHECK_EQ(setup(&dev, &h), -EINVAL);
    metrics[1].buckets = 65;
    CHECK_EQ(setup(&dev, &h), -EINVAL);
    metrics[1].buckets = 6;
    metrics[0].buckets = 2;                 /* buckets on a sum */
    CHECK_EQ(setup(&dev, &h), -EINVAL);
    metrics[0].buckets = 0;
    metrics[2].result_offset = 0xE8u;       /* 4 x 2 words would leave the span */
    CHECK_EQ(setup(&dev, &h), -EINVAL);
    metrics[2].result_offset = 0x70u;
    metrics[3].buckets = 3;                 /* a mean has exactly 2 slots */
    CHECK_EQ(setup(&dev, &h), -EINVAL);
    metrics[3].buckets = 2;
    CHECK_OK(setup(&dev, &h));
}

static const jt_case cases[] = {
    JT_CASE(buckets_and_bounds),
    JT_CASE(read_is_one_snapshot),
    JT_CASE(mean_is_one_snapshot),
    JT_CASE(arguments_and_errors),
    JT_CASE(descriptor_checks),
};

int main(int argc, char **argv)
{
    return jt_run("test_histogram", cases, sizeof cases / sizeof cases[0], argc, argv);
}
