// SPDX-License-Identifier: MIT
/*
 * scenario.c - the generic co-simulation application.
 *
 * Opens the monitor (self-test: ID, VERSION, CONFIG_HASH, SCRATCH), sets every
 * sniffer's mode, bounds and thresholds from argv (the scenario's `setup`),
 * runs every LMIC, starts the stimulus and waits for its end, lets
 * `settle_ns` (default 500) pass so the last events cross the pipelines and
 * clock domains, stops every LMIC and reports every metric, every LMIC's
 * STATUS and every trace's FILL/STATUS. With expect_idle=1 it also expects
 * every one of them at its reset value (a run without stimulus). Every trace
 * and sink goes into <trace>.jtr in the run's directory (cosim_traces.c: a
 * sink on its memory model, started and synced before the run).
 */
#include "cosim_app.h"

int app_main(int argc, char **argv)
{
    jointer_dev dev;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    COSIM_TRY(cosim_traces_start(&dev));
    COSIM_TRY(cosim_run_all(&dev));
    platform_report("host_ns.stimulus_start", cosim_host_ns()); /* a stimulus' edge 0: its clock's next edge */
    platform_stimulus_start();
    platform_stimulus_wait();
    platform_wait_ns(cosim_arg_u64(argc, argv, "settle_ns", 500));
    COSIM_TRY(cosim_stop_all(&dev));
    COSIM_TRY(cosim_report_all(&dev));
    COSIM_TRY(cosim_traces_write(&dev));
    if (cosim_arg_u64(argc, argv, "expect_idle", 0) != 0)
        cosim_expect_idle();
    return 0;
}
