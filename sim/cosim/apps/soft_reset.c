// SPDX-License-Identifier: MIT
/*
 * soft_reset.c - a soft reset in the middle of traffic (scenario soft_reset,
 * scenarios/configs/cosim_events.yaml).
 *
 * The seq sniffer counts events that carry a sequence number 1, 2, 3, ...
 * (seq_count: sum, seq_first: min of the data, seq_last: max). While they
 * flow (the LMIC is behind a clock crossing), the app reads the count, then
 * soft-resets the LMIC. Whenever the reset lands, what was counted after it
 * is a contiguous run first..last that ends at the last event: count ==
 * last - first + 1 (nothing lost, nothing counted twice), first > the count
 * read before the reset, last == the number of events. Then a soft reset
 * while stopped returns every result to its reset value.
 * Argument reset_after_ns= (default 3000): when, after the stimulus starts.
 */
#include <stdio.h>

#include "cosim_app.h"

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    uint64_t before, count, first, last;
    uint32_t st;
    int m_count, m_first, m_last, lmic;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    COSIM_TRY(m_count = jointer_find_metric(cosim_cfg, "seq_count"));
    COSIM_TRY(m_first = jointer_find_metric(cosim_cfg, "seq_first"));
    COSIM_TRY(m_last = jointer_find_metric(cosim_cfg, "seq_last"));
    lmic = cosim_cfg->metrics[m_count].lmic;
    COSIM_TRY(cosim_run_all(&dev));

    platform_stimulus_start();
    platform_wait_ns(cosim_arg_u64(argc, argv, "reset_after_ns", 3000));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_count, &before));
    COSIM_TRY(jointer_reset(&dev, (unsigned)lmic));
    platform_stimulus_wait();
    platform_wait_ns(500);
    COSIM_TRY(cosim_stop_all(&dev));

    COSIM_TRY(jointer_read(&dev, (unsigned)m_count, &count));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_first, &first));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_last, &last));
    platform_report("count_before_reset", before); /* timing: both simulators agree */
    COSIM_TRY(cosim_report_all(&dev));
    platform_report("nothing_lost_or_doubled", first <= last && count == last - first + 1);
    platform_report("first_after_reset", first > before && before > 0);

    /* stopped: a soft reset returns every result to its reset value */
    COSIM_TRY(jointer_reset(&dev, (unsigned)lmic));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_count, &count));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_first, &first));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_last, &last));
    platform_report("idle_reset.seq_count", count);
    platform_report("idle_reset.seq_first", first);
    platform_report("idle_reset.seq_last", last);
    COSIM_TRY(jointer_status(&dev, (unsigned)lmic, &st));
    platform_report("idle_reset.status", st);
    return 0;
}
