// SPDX-License-Identifier: MIT
/*
 * pm_profile.c - the program monitor with the real C driver (scenario
 * program_monitor, configs/program_monitor.yaml): program the address table
 * with jointer_pm_program (7 addresses, the 7th disabled), run the PC stream
 * of the scenario, read the trace, report every record's index, then the
 * per-function profile that jointer_pm_profile computes from it (what
 * `jointer profile` prints). The expected values are the scenario's arithmetic.
 */
#include <stdio.h>

#include "cosim_app.h"
#include "jointer_pm.h"

static const uint32_t addresses[7] = {0x1000u, 0x10FCu, 0x2000u, 0x2040u, 0x3000u, 0x3010u, 0x4000u};
static const char *const names[3] = {"main", "work", "leaf"};
static const jointer_pm_function fn[3] = {{0, 1}, {2, 3}, {4, 5}};

static jointer_trace_record recs[1024];
static jointer_pm_frame stack[64];
static jointer_pm_stats st[3];

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    uint32_t fill, status, count, i;
    uint64_t v;
    char name[48];
    int s, tr, mt;
    unsigned lmic, index;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    for (s = 0; s < (int)cosim_cfg->num_sniffers && cosim_cfg->sniffers[s].pm_addresses == 0; s++)
        ;
    tr = jointer_find_trace(cosim_cfg, "pc_trace");
    mt = jointer_find_metric(cosim_cfg, "pc_matches");
    if (s == (int)cosim_cfg->num_sniffers || tr < 0 || mt < 0) {
        fprintf(stderr, "app: %s has no program monitor with pc_trace and pc_matches\n", cosim_cfg->name);
        return 1;
    }
    lmic = cosim_cfg->sniffers[s].lmic;
    index = cosim_cfg->sniffers[s].index;
    COSIM_TRY(jointer_pm_program(&dev, lmic, index, addresses, 7, 0x3Fu));
    COSIM_TRY(jointer_run(&dev, lmic));
    platform_stimulus_start();
    platform_stimulus_wait();
    platform_wait_ns(200); /* the last PCs through the pipeline */
    COSIM_TRY(jointer_stop(&dev, lmic));

    COSIM_TRY(jointer_trace_status(&dev, (unsigned)tr, &fill, &status));
    platform_report("pc_trace.status", status);
    COSIM_TRY(jointer_trace_read(&dev, (unsigned)tr, recs, sizeof recs / sizeof recs[0], &count));
    platform_report("records", count);
    for (i = 0; i < count; i++) {
        snprintf(name, sizeof name, "index.%02u", (unsigned)i);
        platform_report(name, recs[i].data);
    }
    COSIM_TRY(jointer_read(&dev, (unsigned)mt, &v));
    platform_report("pc_matches", v);

    COSIM_TRY(jointer_pm_profile(recs, count, fn, 3, stack, 64, st));
    for (i = 0; i < 3; i++) {
#define REPORT(field)                                                      \
    do {                                                                   \
        snprintf(name, sizeof name, "%s." #field, names[i]);               \
        platform_report(name, st[i].field);                                \
    } while (0)
        REPORT(calls);
        REPORT(total);
        REPORT(min);
        REPORT(max);
        REPORT(unmatched_entries);
        REPORT(unmatched_exits);
#undef REPORT
    }
    return 0;
}
