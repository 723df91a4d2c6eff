// SPDX-License-Identifier: MIT
/*
 * soak.c - the soak (make soak): `reads=N` torn-free reads of a
 * 64-bit sum that crosses 2^32 at almost every event, and of the 64-bit
 * global timestamp, while events arrive on another clock; a soft reset of
 * the LMIC every `reset_every` reads (pseudo-random phase) and a bus reset
 * (s_axi_aresetn, 3..10 bus cycles; the LMIC's clock runs on) every
 * `bus_reset_every` reads, in the middle of each such block.
 *
 * Every event adds K = 0xFFFFFFF1 to `big` and 1 to `count`, so a torn
 * read (low word of one moment, high word of another) shows as a value that
 * is not a multiple of K (K is odd and > 2^31: two different multiples never
 * share both words), and an exact count is big == count * K once stopped.
 * Reported: reads, torn (not a multiple of K), decreasing (a value below the
 * previous one without a reset between), ts_decreasing (the timestamp not
 * strictly increasing since the last bus reset), soft_resets, bus_resets,
 * exact (big == count * K at the end: nothing lost, nothing counted twice).
 */
#include "cosim_app.h"

#define K 0xFFFFFFF1ull

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    uint64_t reads = cosim_arg_u64(argc, argv, "reads", 1000);
    uint64_t reset_every = cosim_arg_u64(argc, argv, "reset_every", 5000);
    uint64_t bus_reset_every = cosim_arg_u64(argc, argv, "bus_reset_every", 0);
    uint64_t prev = 0, ts_prev = 0, v, ts, count, i;
    uint64_t torn = 0, decreasing = 0, ts_decreasing = 0, resets = 0, bus_resets = 0;
    uint32_t lfsr = 0xACE1u, phase = 0;
    int big, cnt;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    big = jointer_find_metric(cosim_cfg, "big");
    cnt = jointer_find_metric(cosim_cfg, "count");
    COSIM_TRY(big);
    COSIM_TRY(cnt);
    COSIM_TRY(cosim_run_all(&dev));
    platform_stimulus_start();
    for (i = 0; i < reads; i++) {
        COSIM_TRY(jointer_read(&dev, (unsigned)big, &v));
        if (v % K != 0)
            torn++;
        if (v < prev)
            decreasing++;
        prev = v;
        COSIM_TRY(jointer_timestamp(&dev, &ts));
        if (ts <= ts_prev)
            ts_decreasing++;
        ts_prev = ts;
        /* one soft reset per reset_every reads, at a pseudo-random place among its last 8 */
        if (reset_every >= 8 && i % reset_every == 0) {
            lfsr = (lfsr >> 1) ^ (-(lfsr & 1u) & 0xB400u);
            phase = lfsr & 7u;
        }
        if (reset_every >= 8 && i % reset_every == reset_every - 1 - phase) {
            COSIM_TRY(jointer_reset(&dev, 0));
            resets++;
            prev = 0;
        }
        if (bus_reset_every != 0 && i % bus_reset_every == bus_reset_every / 2) {
            platform_bus_reset(3u + (lfsr & 7u));   /* the global block restarts: TIMESTAMP from 0 */
            bus_resets++;
            ts_prev = 0;
        }
    }
    COSIM_TRY(cosim_stop_all(&dev));
    platform_wait_ns(200);                                  /* the last events cross the pipeline */
    COSIM_TRY(jointer_read(&dev, (unsigned)big, &v));
    COSIM_TRY(jointer_read(&dev, (unsigned)cnt, &count));
    platform_report("reads", reads);
    platform_report("torn", torn);
    platform_report("decreasing", decreasing);
    platform_report("ts_decreasing", ts_decreasing);
    platform_report("soft_resets", resets);
    platform_report("bus_resets", bus_resets);
    platform_report("exact", v == count * K && count > 0);
    printf("soak: %llu reads, %llu torn, %llu decreasing, %llu soft resets, %llu bus resets, %llu events "
           "since the last soft reset\n", (unsigned long long)reads, (unsigned long long)torn,
           (unsigned long long)decreasing, (unsigned long long)resets, (unsigned long long)bus_resets,
           (unsigned long long)count);
    return 0;
}
