// SPDX-License-Identifier: MIT
/*
 * latency.c - the application of scenario latency_histogram: the
 * demo coprocessor (sim/cosim/accel) runs on a data set while three
 * axi4_latency sniffers watch its AXI4 DMA; the real C driver reads counts,
 * sums, min/max, a mean (jointer_read_mean: sum and count in one snapshot)
 * and, torn-free, the histograms (jointer_read_histogram) of
 * the real RTL, and every value is compared with what follows from the C
 * reference of the coprocessor (sa_reference.c) and its documented memory
 * timing (sim/cosim/accel/README.md): a read burst of L beats has latency L
 * (AR handshake, then one beat per cycle), a write burst of r beats r to its
 * WLAST beat and r + 1 to B. The bucket boundaries are those of the YAML,
 * restated here (pow2, and the listed 2, 4, 8, 16, 32).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "latency_demo.h"
#include "platform.h"
#include "sa_reference.h"

#define APP_NAME "latency"
#include "app_check.h"

#define ACC_BASE      PLATFORM_ACCEL_BASE
#define ACC_CTRL      0x00u
#define ACC_STATUS    0x04u
#define ACC_LENGTH    0x08u
#define ACC_IN_BASE   0x0Cu
#define ACC_OUT_BASE  0x10u
#define ACC_MEM       0x4000u
#define IN_BASE       0x0000u
#define OUT_BASE      0x1000u
#define BURST         256u     /* the DMA reads bursts of up to 256 beats */

static void make_inputs(int32_t *x, uint32_t n, uint32_t seed)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (int32_t)((seed >> 16) % 41u) - 20;
    }
}

/* bucket of v: pow2 with n buckets (b(k) = 2^(k-1)), or listed boundaries */
static unsigned bucket_pow2(uint64_t v, unsigned n)
{
    unsigned k, b = 0;
    for (k = 1; k < n; k++)
        b += v >= ((uint64_t)1 << (k - 1u));
    return b;
}

static unsigned bucket_list(uint64_t v, const uint64_t *bounds, unsigned nb)
{
    unsigned k, b = 0;
    for (k = 0; k < nb; k++)
        b += v >= bounds[k];
    return b;
}

/* one histogram: read it (one snapshot), report and expect every bucket */
static int report_histogram(jointer_dev *dev, unsigned metric, const uint64_t *want, unsigned n)
{
    uint64_t got[64];
    char name[64];
    unsigned k;
    int r = jointer_histogram_buckets(dev, metric);

    if (r != (int)n) {
        fprintf(stderr, "latency: %s has %d buckets, expected %u\n", dev->cfg->metrics[metric].name, r, n);
        return 1;
    }
    r = jointer_read_histogram(dev, metric, got, 64);
    if (r != 0) {
        fprintf(stderr, "latency: read %s: %s\n", dev->cfg->metrics[metric].name, jointer_strerror(r));
        return 1;
    }
    for (k = 0; k < n; k++) {
        snprintf(name, sizeof name, "%s[%u]", dev->cfg->metrics[metric].name, k);
        platform_report(name, got[k]);
        platform_expect(name, want[k]);
    }
    return 0;
}

int app_main(int argc, char **argv)
{
    static int32_t inputs[SA_MAX_LENGTH];
    static const uint64_t wr_bounds[5] = {2, 4, 8, 16, 32};
    sa_prediction ref;
    latency_demo_dev mon;
    jointer_io io;
    uint64_t v, rd_hist[10] = {0}, wr_hist[6] = {0}, wl_hist[8] = {0};
    uint64_t rd_sum = 0, rd_max = 0, wr_min = UINT64_MAX, wr_max = 0, bursts = 0, writes = 0;
    uint32_t n = 600, left, k;
    int fail = 0;

    if (argc > 1)
        n = (uint32_t)strtoul(argv[1], NULL, 0);
    if (n > SA_MAX_LENGTH)
        n = SA_MAX_LENGTH;
    make_inputs(inputs, n, 7u);
    sa_predict(inputs, n, &ref);

    /* what the sniffers must see, from the reference alone */
    for (left = n; left > 0; left -= (left < BURST ? left : BURST)) {
        uint64_t len = left < BURST ? left : BURST;   /* read latency = beats */
        bursts++;
        rd_sum += len;
        rd_max = len > rd_max ? len : rd_max;
        rd_hist[bucket_pow2(len, 10)]++;
    }
    for (k = 0; k < 3; k++) {
        uint64_t r = ref.num_results[k];
        if (r == 0)
            continue;                                  /* no write burst for this actor */
        writes++;
        wr_min = r + 1 < wr_min ? r + 1 : wr_min;       /* to B: r beats + the response */
        wr_max = r + 1 > wr_max ? r + 1 : wr_max;
        wr_hist[bucket_list(r + 1, wr_bounds, 5)]++;
        wl_hist[bucket_pow2(r, 8)]++;                  /* to WLAST: r beats */
    }

    CHECK(platform_monitor_io(&io));
    CHECK(latency_demo_init(&mon, &io));
    CHECK(latency_demo_selftest(&mon, 0));
    CHECK(latency_demo_set_mode_rd(&mon, JOINTER_NO_FILTERING));
    CHECK(latency_demo_set_mode_wr(&mon, JOINTER_NO_FILTERING));
    CHECK(latency_demo_set_mode_wl(&mon, JOINTER_NO_FILTERING));

    for (k = 0; k < n; k++)
        platform_write32(ACC_BASE + ACC_MEM + IN_BASE + 4u * k, (uint32_t)inputs[k]);
    platform_write32(ACC_BASE + ACC_LENGTH, n);
    platform_write32(ACC_BASE + ACC_IN_BASE, IN_BASE);
    platform_write32(ACC_BASE + ACC_OUT_BASE, OUT_BASE);

    CHECK(latency_demo_run_accel(&mon));
    platform_write32(ACC_BASE + ACC_CTRL, 1u);                   /* START */
    while (platform_read32(ACC_BASE + ACC_STATUS) & 1u)          /* BUSY */
        platform_wait_ns(200);
    CHECK(latency_demo_stop_accel(&mon));

#define SCALAR(name, want)                                        \
    do {                                                          \
        CHECK(latency_demo_read_##name(&mon, &v));                \
        platform_report(#name, v);                                \
        platform_expect(#name, want);                             \
    } while (0)
    SCALAR(rd_count, bursts);
    SCALAR(rd_lat_sum, rd_sum);
    SCALAR(rd_lat_max, rd_max);
    SCALAR(wr_count, writes);
    SCALAR(wr_lat_min, wr_min);
    SCALAR(wr_lat_max, wr_max);
    {                                                /* the mean: sum and count, one snapshot */
        uint64_t sum, count;
        CHECK(jointer_read_mean(&mon.dev, LATENCY_DEMO_METRIC_RD_LAT_MEAN, &sum, &count));
        platform_report("rd_lat_mean.sum", sum);
        platform_expect("rd_lat_mean.sum", rd_sum);
        platform_report("rd_lat_mean.count", count);
        platform_expect("rd_lat_mean.count", bursts);
    }
    fail |= report_histogram(&mon.dev, LATENCY_DEMO_METRIC_RD_LAT_HIST, rd_hist, 10);
    fail |= report_histogram(&mon.dev, LATENCY_DEMO_METRIC_WR_LAT_HIST, wr_hist, 6);
    fail |= report_histogram(&mon.dev, LATENCY_DEMO_METRIC_WL_LAT_HIST, wl_hist, 8);
    printf("latency: %" PRIu32 " inputs, %" PRIu64 " read bursts, %" PRIu64 " write bursts "
           "(results %" PRIu32 "/%" PRIu32 "/%" PRIu32 ")\n", n, bursts, writes,
           ref.num_results[0], ref.num_results[1], ref.num_results[2]);
    return fail;
}
