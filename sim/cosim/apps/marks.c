// SPDX-License-Identifier: MIT
/*
 * marks.c - host timestamps through MARK, traced to memory and read back
 * (scenario marks_trace, configs/arm_timestamps.yaml).
 *
 * Phase A: 16 marks with values the app chooses and irregular waits between
 * them; stop; read the trace with jointer_trace_read: the values in order,
 * the timestamps strictly increasing and exactly as far apart as the bus
 * cycles between the MARK writes (platform_bus_cycles(): the write of each
 * mark starts one bus edge after the call, whatever its latency is, the same
 * for every mark), FILL 16, no FULL/OVERFLOW.
 * Phase B: soft reset (empties the trace), 260 marks in a row into the
 * 256-record stop-mode buffer: FILL 256, FULL and OVERFLOW set, the first 256
 * values kept in order; the event counter saw all 260.
 */
#include <stdio.h>

#include "cosim_app.h"

#define N_A 16u
#define N_B 260u

static jointer_trace_record recs[1024];

static int find(const char *kind, int idx, const char *name)
{
    if (idx < 0)
        fprintf(stderr, "app: no %s named %s in %s\n", kind, name, cosim_cfg->name);
    return idx;
}

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    uint64_t cyc[N_A], v;
    uint32_t value[N_A], fill, st, count, depth, i, ok;
    char name[32];
    int tr, mk, lm, lmic;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    COSIM_TRY(tr = find("trace", jointer_find_trace(cosim_cfg, "timestamps"), "timestamps"));
    COSIM_TRY(mk = find("metric", jointer_find_metric(cosim_cfg, "marks"), "marks"));
    COSIM_TRY(lm = find("metric", jointer_find_metric(cosim_cfg, "last_mark"), "last_mark"));
    lmic = cosim_cfg->traces[tr].lmic;
    depth = cosim_cfg->traces[tr].depth;
    if (depth > sizeof recs / sizeof recs[0] || depth >= N_B)
        return 1;

    /* ---- phase A ---- */
    COSIM_TRY(jointer_run(&dev, (unsigned)lmic));
    for (i = 0; i < N_A; i++) {
        value[i] = 0xA5000000u + i * 0x01010101u;
        cyc[i] = platform_bus_cycles();
        COSIM_TRY(jointer_mark(&dev, value[i]));
        platform_wait_ns((i * 37u) % 200u);
    }
    COSIM_TRY(jointer_stop(&dev, (unsigned)lmic));
    COSIM_TRY(jointer_trace_status(&dev, (unsigned)tr, &fill, &st));
    platform_report("a.fill", fill);
    platform_report("a.status", st);
    COSIM_TRY(jointer_trace_read(&dev, (unsigned)tr, recs, depth, &count));
    platform_report("a.records", count);
    ok = count == N_A;
    for (i = 0; ok && i < N_A; i++)
        ok = recs[i].data == value[i];
    platform_report("a.values_in_order", ok);
    ok = count == N_A;
    for (i = 1; ok && i < N_A; i++)
        ok = recs[i].timestamp > recs[i - 1].timestamp;
    platform_report("a.timestamps_increasing", ok);
    for (i = 1; i < N_A && i < count; i++) {
        /* the monitor's view of the time between marks = the harness's */
        snprintf(name, sizeof name, "a.dt.%02u", (unsigned)i);
        platform_expect(name, cyc[i] - cyc[0]);
        platform_report(name, (uint32_t)(recs[i].timestamp - recs[0].timestamp));
    }
    COSIM_TRY(jointer_read(&dev, (unsigned)mk, &v));
    platform_report("a.marks", v);
    COSIM_TRY(jointer_read(&dev, (unsigned)lm, &v));
    platform_report("a.last_mark", v);
    platform_expect("a.last_mark", value[N_A - 1]);

    /* ---- phase B ---- */
    COSIM_TRY(jointer_reset(&dev, (unsigned)lmic));
    COSIM_TRY(jointer_trace_status(&dev, (unsigned)tr, &fill, &st));
    platform_report("b.fill_after_reset", fill);
    platform_report("b.status_after_reset", st);
    COSIM_TRY(jointer_run(&dev, (unsigned)lmic));
    for (i = 0; i < N_B; i++)
        COSIM_TRY(jointer_mark(&dev, 0x1000u + i));
    COSIM_TRY(jointer_stop(&dev, (unsigned)lmic));
    COSIM_TRY(jointer_trace_status(&dev, (unsigned)tr, &fill, &st));
    platform_report("b.fill", fill);
    platform_report("b.status", st);
    COSIM_TRY(jointer_trace_read(&dev, (unsigned)tr, recs, depth, &count));
    platform_report("b.records", count);
    ok = count == depth;
    for (i = 0; ok && i < depth; i++)
        ok = recs[i].data == 0x1000u + i;
    platform_report("b.first_values_kept", ok);
    ok = count == depth;
    for (i = 1; ok && i < depth; i++)
        ok = recs[i].timestamp > recs[i - 1].timestamp;
    platform_report("b.timestamps_increasing", ok);
    COSIM_TRY(jointer_read(&dev, (unsigned)mk, &v));
    platform_report("b.marks", v);
    COSIM_TRY(jointer_read(&dev, (unsigned)lm, &v));
    platform_report("b.last_mark", v);
    return 0;
}
