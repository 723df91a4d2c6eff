// SPDX-License-Identifier: MIT
/*
 * platform_ghdl.c - platform.h for the GHDL co-simulation (ghdl/cosim.py).
 *
 * The application is built as a shared library with this file; cosim.py
 * loads it with ctypes, installs its Python callbacks with
 * platform_set_callbacks() and calls app_main() from a cocotb bridge thread.
 * Every call below goes to Python, where a cocotb coroutine serves it on the
 * simulated bus; the call returns when the coroutine has finished.
 */
#include <stddef.h>

#include "platform.h"

/* the order of the fields is the order of Callbacks._fields_ in cosim.py */
typedef struct platform_callbacks {
    int (*mon_read32)(uint32_t offset, uint32_t *value);
    int (*mon_write32)(uint32_t offset, uint32_t value);
    int (*mon_wait_irq)(int timeout_ms);
    uint32_t (*read32)(uint32_t addr);
    void (*write32)(uint32_t addr, uint32_t value);
    void (*wait_ns)(uint64_t ns);
    void (*stimulus_start)(void);
    void (*stimulus_wait)(void);
    void (*report)(const char *name, uint64_t value);
    void (*expect)(const char *name, uint64_t value);
    uint64_t (*monitor_transactions)(void);
    uint64_t (*bus_cycles)(void);
    void (*bus_reset)(uint64_t cycles);
    int (*ring)(const char *port, void **mem, uint32_t *bus_addr, uint32_t *size);
    uint64_t (*time_ps)(void);
} platform_callbacks;

void platform_set_callbacks(const platform_callbacks *cb);

static platform_callbacks cbs;

void platform_set_callbacks(const platform_callbacks *cb)
{
    cbs = *cb;
}

static int io_read32(void *ctx, uint32_t offset, uint32_t *value)
{
    (void)ctx;
    return cbs.mon_read32(offset, value);
}

static int io_write32(void *ctx, uint32_t offset, uint32_t value)
{
    (void)ctx;
    return cbs.mon_write32(offset, value);
}

static int io_wait_irq(void *ctx, int timeout_ms)
{
    (void)ctx;
    return cbs.mon_wait_irq(timeout_ms);
}

static const jointer_io_ops io_ops = {io_read32, io_write32, io_wait_irq};

int platform_monitor_io(jointer_io *io)
{
    if (io == NULL)
        return -EINVAL;
    *io = jointer_io_from_ops(&io_ops, NULL);
    return 0;
}

uint32_t platform_read32(uint32_t addr)
{
    return cbs.read32(addr);
}

void platform_write32(uint32_t addr, uint32_t value)
{
    cbs.write32(addr, value);
}

void platform_wait_ns(uint64_t ns)
{
    cbs.wait_ns(ns);
}

void platform_stimulus_start(void)
{
    cbs.stimulus_start();
}

void platform_stimulus_wait(void)
{
    cbs.stimulus_wait();
}

void platform_report(const char *name, uint64_t value)
{
    cbs.report(name, value);
}

void platform_expect(const char *name, uint64_t value)
{
    cbs.expect(name, value);
}

uint64_t platform_monitor_transactions(void)
{
    return cbs.monitor_transactions();
}

uint64_t platform_bus_cycles(void)
{
    return cbs.bus_cycles();
}

uint64_t platform_time_ps(void)
{
    return cbs.time_ps();
}

void platform_bus_reset(uint64_t cycles)
{
    cbs.bus_reset(cycles);
}

int platform_ring(const char *port, volatile void **mem, uint32_t *bus_addr, uint32_t *size)
{
    void *m = NULL;
    int r = cbs.ring(port, &m, bus_addr, size); /* a buffer the Python memory model owns */

    *mem = m;
    return r;
}
