// SPDX-License-Identifier: MIT
/*
 * demo.c - the TECS paper's Selective Accumulations experiment (
 * section 4.2, design Y9), as an unmodified C application of the generated
 * driver: configure the monitor, run the coprocessor on a data set, read every
 * metric and compare it with what a C reference of the same algorithm
 * predicts (sa_reference.c). Runs in co-simulation (Verilator or GHDL) through
 * platform.h; on a board the same code would run with a /dev/mem or UIO seam.
 *
 * One monitoring action = initialise the transaction filter, run, stop, read
 * every metric; its AXI4-Lite transactions are counted (goal <= 10; the
 * paper's driver needed ~27).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "platform.h"
#include "sa_reference.h"
#include "selective_accumulations.h"

#define APP_NAME "demo"
#include "app_check.h"

/* the coprocessor's control slave (sim/cosim/accel/sa_accel.vhd) */
#define ACC_BASE      PLATFORM_ACCEL_BASE
#define ACC_CTRL      0x00u
#define ACC_STATUS    0x04u
#define ACC_LENGTH    0x08u
#define ACC_IN_BASE   0x0Cu
#define ACC_OUT_BASE  0x10u
#define ACC_CYCLES    0x14u
#define ACC_MEM       0x4000u
#define IN_BASE       0x0000u
#define OUT_BASE      0x1000u
#define FILTER_LOW    0x0000u  /* count the bytes written to 0x0000..0xFFFF */
#define FILTER_HIGH   0xFFFFu

/* a deterministic data set: values in -20..20 (a simple LCG) */
static void make_inputs(int32_t *x, uint32_t n, uint32_t seed)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (int32_t)((seed >> 16) % 41u) - 20;
    }
}

int app_main(int argc, char **argv)
{
    static int32_t inputs[SA_MAX_LENGTH];
    sa_prediction ref;
    selective_accumulations_dev mon;
    jointer_io io;
    uint64_t values[SELECTIVE_ACCUMULATIONS_NUM_METRICS];
    uint64_t tx_start, tx_action;
    uint32_t n = 256, i, k, errors = 0;
    int status;

    if (argc > 1)
        n = (uint32_t)strtoul(argv[1], NULL, 0);
    if (n > SA_MAX_LENGTH)
        n = SA_MAX_LENGTH;
    make_inputs(inputs, n, 1u);
    sa_predict(inputs, n, &ref);

    /* 1. the monitor: descriptor + simulated bus, then ID/VERSION/CONFIG_HASH */
    CHECK(platform_monitor_io(&io));
    CHECK(selective_accumulations_init(&mon, &io));
    CHECK(selective_accumulations_selftest(&mon, 0));

    /* 2. configuration, once: task and operation levels count everything */
    CHECK(selective_accumulations_set_mode_task(&mon, JOINTER_NO_FILTERING));
    CHECK(selective_accumulations_set_mode_operation(&mon, JOINTER_NO_FILTERING));

    /* 3. the data set into the coprocessor's memory */
    for (i = 0; i < n; i++)
        platform_write32(ACC_BASE + ACC_MEM + IN_BASE + 4u * i, (uint32_t)inputs[i]);
    platform_write32(ACC_BASE + ACC_LENGTH, n);
    platform_write32(ACC_BASE + ACC_IN_BASE, IN_BASE);
    platform_write32(ACC_BASE + ACC_OUT_BASE, OUT_BASE);

    /* 4. one monitoring action around the HW task */
    tx_start = platform_monitor_transactions();
    CHECK(selective_accumulations_initialize_bytes_written(&mon, FILTER_LOW, FILTER_HIGH));
    CHECK(selective_accumulations_run_accel(&mon));
    tx_action = platform_monitor_transactions() - tx_start;

    platform_write32(ACC_BASE + ACC_CTRL, 1u);                   /* START */
    while (platform_read32(ACC_BASE + ACC_STATUS) & 1u)          /* BUSY */
        platform_wait_ns(200);

    tx_start = platform_monitor_transactions();
    CHECK(selective_accumulations_stop_accel(&mon));
    CHECK(selective_accumulations_read_all(&mon, values));
    tx_action += platform_monitor_transactions() - tx_start;

    /* 5. report: the harness prints them next to the reference */
    platform_expect("bytes_written", sa_saturate(ref.bytes_written, 23));
    platform_expect("compute_cycles", sa_saturate(ref.compute_cycles, 53));
    platform_expect("forward_fires", sa_saturate(ref.forward_fires, 10));
    platform_expect("mac_fires", sa_saturate(ref.mac_fires, 10));
    for (k = 0; k < SELECTIVE_ACCUMULATIONS_NUM_METRICS; k++)
        platform_report(selective_accumulations_cfg.metrics[k].name, values[k]);
    platform_report("accel_cycles_register", platform_read32(ACC_BASE + ACC_CYCLES));
    platform_expect("accel_cycles_register", ref.compute_cycles);
    platform_report("monitoring_transactions", tx_action);

    /* 6. the coprocessor's results, read back from its memory */
    for (k = 0; k < 3; k++)
        for (i = 0; i < ref.num_results[k]; i++) {
            uint32_t got = platform_read32(ACC_BASE + ACC_MEM + OUT_BASE + k * SA_RESULT_STRIDE + 4u * i);
            if (got != (uint32_t)ref.results[k][i])
                errors++;
        }
    platform_report("result_errors", errors);
    platform_expect("result_errors", 0);

    /* the harness compares every report with its expectation */
    status = errors == 0 ? 0 : 1;
    printf("demo: %" PRIu32 " inputs, %" PRIu64 " AXI4-Lite transactions for one monitoring action\n",
           n, tx_action);
    return status;
}
