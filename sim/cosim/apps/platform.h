/* SPDX-License-Identifier: MIT */
/*
 * platform.h - what a co-simulation harness (or a board support file)
 * provides to a jointer application (sim/cosim/README.md, "The application
 * side").
 *
 * Implementations: sim/cosim/harness/verilator/ (Verilator, C++ with C
 * linkage) and sim/cosim/apps/platform_ghdl.c (GHDL under cocotb: every call
 * goes to Python through function pointers installed by
 * platform_set_callbacks).
 *
 * An application is `int app_main(int argc, char **argv)`, 0 = pass. It runs
 * after every reset is released, right after a rising edge of the bus clock.
 * Simulated time only passes inside these calls.
 */
#ifndef COSIM_PLATFORM_H
#define COSIM_PLATFORM_H

#include <stdint.h>

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the demo accelerator's control port (top `demo`): 32 KiB at this address */
#define PLATFORM_ACCEL_BASE 0x43C10000u
#define PLATFORM_ACCEL_SPAN 0x8000u

/*
 * The register-access seam of the monitor, for jointer_init(): an ops table
 * whose read32/write32 are AXI4-Lite transactions on the top's s_axi port
 * (offsets from the monitor's base; SLVERR -> -EIO) and whose wait_irq
 * advances simulated time until the top's irq output is 1 (0) or the timeout
 * expires (-ETIMEDOUT). Timeout scale: 1 ms of timeout_ms is
 * `irq_ms_ns` simulated ns (scenario key, default 1000: 1 ms -> 1 us).
 * Returns 0.
 */
int platform_monitor_io(jointer_io *io);

/*
 * Other peripherals, absolute addresses: the monitor at its configured
 * base_address, the demo accelerator at PLATFORM_ACCEL_BASE. An access that
 * fails (SLVERR, no peripheral there) reads 0 and is counted as a bus error
 * in the report (the run fails).
 */
uint32_t platform_read32(uint32_t addr);
void platform_write32(uint32_t addr, uint32_t value);

/*
 * The memory model on a trace sink's AXI4 master port `port` (the top's
 * port prefix, e.g. "m_axi_log"; NULL: the first), scenario key `memories`:
 * the CPU's view of it, its bus address and size in bytes, for
 * jointer_sink_start. -ENODEV when the scenario has none.
 */
int platform_ring(const char *port, volatile void **mem, uint32_t *bus_addr, uint32_t *size);

/* let ceil(ns / bus period) rising edges of the bus clock pass */
void platform_wait_ns(uint64_t ns);

/* start the scenario's stimulus (once); wait until all of it has been
 * driven (returns at once when there is none or it is done) */
void platform_stimulus_start(void);
void platform_stimulus_wait(void);

/* a metric; the harness compares it with the scenario's `expect` */
void platform_report(const char *name, uint64_t value);
/* a value the application predicts itself; the harness compares it with the
 * platform_report of the same name */
void platform_expect(const char *name, uint64_t value);

/* AXI4-Lite transactions on the monitor port (s_axi) so far */
uint64_t platform_monitor_transactions(void);

/* rising edges of the bus clock since t = 0 (the monitor's TIMESTAMP
 * counts the same edges, from its reset on) */
uint64_t platform_bus_cycles(void);

/* hold the bus clock's reset (s_axi_aresetn) low for `cycles` rising edges
 * of the bus clock, between two accesses (the other clock domains run on);
 * the application restarts its driver state afterwards (a real bus reset
 * resets the PS side too) */
void platform_bus_reset(uint64_t cycles);

/* the simulated time in ps since t = 0: the host's clock of the
 * co-simulation, where a board has CLOCK_MONOTONIC (a sink's host sync,
 * jointer_sink_sync) */
uint64_t platform_time_ps(void);

/* the application */
int app_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* COSIM_PLATFORM_H */
