// SPDX-License-Identifier: MIT
/*
 * utilization.c - the application of scenarios/bus_utilization.yaml
 * (configs/bus_utilization.yaml: an axi_util sniffer `dma` and a contention
 * sniffer `arbiter`: PMTS's bus utilization,
 * contention and global monitors).
 *
 * Runs like scenario.c (setup, run, stimulus, settle, stop, report every
 * metric), then derives what a user computes from the counts and checks the
 * invariants the hardware must keep, whatever the length of the RUN window:
 *   per channel (w, r): transfers + stalls + idle = dma_cycles
 *   contended + single_waits + no_waits = bus_busy + bus_idle = arb_cycles
 *   dma_cycles = arb_cycles (same LMIC, same RUN)
 * and reports the utilization of each channel and the contended share in
 * permille (window dependent: compared between the two simulators).
 */
#include "cosim_app.h"

static int get(jointer_dev *dev, const char *name, uint64_t *v)
{
    int i = jointer_find_metric(cosim_cfg, name);

    if (i < 0)
        return i;
    return jointer_read(dev, (unsigned)i, v);
}

static uint64_t permille(uint64_t part, uint64_t whole)
{
    return whole != 0u ? part * 1000u / whole : 0u;
}

int app_main(int argc, char **argv)
{
    static const char *const channels[] = {"w", "r"};
    jointer_dev dev;
    uint64_t cycles, arb, t, s, i, a, b, c;
    char name[64];
    unsigned k;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    COSIM_TRY(cosim_run_all(&dev));
    platform_stimulus_start();
    platform_stimulus_wait();
    platform_wait_ns(cosim_arg_u64(argc, argv, "settle_ns", 500));
    COSIM_TRY(cosim_stop_all(&dev));
    COSIM_TRY(cosim_report_all(&dev));

    COSIM_TRY(get(&dev, "dma_cycles", &cycles));
    for (k = 0; k < sizeof channels / sizeof channels[0]; ++k) {
        snprintf(name, sizeof name, "%s_transfers", channels[k]);
        COSIM_TRY(get(&dev, name, &t));
        snprintf(name, sizeof name, "%s_stalls", channels[k]);
        COSIM_TRY(get(&dev, name, &s));
        snprintf(name, sizeof name, "%s_idle", channels[k]);
        COSIM_TRY(get(&dev, name, &i));
        snprintf(name, sizeof name, "%s.transfer_stall_idle", channels[k]);
        platform_report(name, t + s + i);
        platform_expect(name, cycles);
        snprintf(name, sizeof name, "%s.utilization_permille", channels[k]);
        platform_report(name, permille(t, cycles));
    }
    COSIM_TRY(get(&dev, "arb_cycles", &arb));
    COSIM_TRY(get(&dev, "contended", &a));
    COSIM_TRY(get(&dev, "single_waits", &b));
    COSIM_TRY(get(&dev, "no_waits", &c));
    platform_report("arbiter.wait_classes", a + b + c);
    platform_expect("arbiter.wait_classes", arb);
    platform_report("arbiter.contention_permille", permille(a, arb));
    COSIM_TRY(get(&dev, "bus_busy", &b));
    COSIM_TRY(get(&dev, "bus_idle", &c));
    platform_report("arbiter.busy_idle", b + c);
    platform_expect("arbiter.busy_idle", arb);
    platform_report("arbiter.cycles_equal_dma", arb == cycles);
    platform_expect("arbiter.cycles_equal_dma", 1);
    return 0;
}
