// SPDX-License-Identifier: MIT
/*
 * bench_read.c - instructions per jointer_read of a 32-bit metric on the
 * direct (volatile pointer) seam, versus a raw volatile load. Run under
 * valgrind --tool=callgrind: the self cost of bench_jointer_read and
 * bench_raw_load divided by the number of calls (driver_bench.sh).
 *
 * Build: -DBENCH_CFG=<name>_cfg, linked with <name>.c and the core.
 */
#include <stdio.h>
#include <stdlib.h>

#include "jointer.h"

extern const jointer_cfg BENCH_CFG;

static uint32_t regs[1u << 16];

/* what an application's call site compiles to: the static inline fast path */
__attribute__((noinline)) int bench_jointer_read(jointer_dev *dev, unsigned metric, uint64_t *value)
{
    return jointer_read(dev, metric, value);
}

__attribute__((noinline)) uint32_t bench_raw_load(volatile uint32_t *reg)
{
    return *reg;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000ul, i;
    jointer_io io = jointer_io_direct(regs);
    jointer_dev dev;
    volatile unsigned metric = 0;
    uint64_t v, sum = 0;

    if (BENCH_CFG.span > sizeof regs || jointer_init(&dev, &BENCH_CFG, &io) != 0)
        return 1;
    while (metric < BENCH_CFG.num_metrics && BENCH_CFG.metrics[metric].width > 32)
        metric = metric + 1;
    if (metric == BENCH_CFG.num_metrics)
        return 1;
    regs[BENCH_CFG.metrics[metric].result_offset / 4] = 42;
    for (i = 0; i < n; i++) {
        if (bench_jointer_read(&dev, metric, &v) != 0)
            return 1;
        sum += v;
    }
    for (i = 0; i < n; i++)
        sum += bench_raw_load(&regs[BENCH_CFG.metrics[metric].result_offset / 4]);
    printf("metric %s (%u bits), %lu calls each, checksum %llu\n", BENCH_CFG.metrics[metric].name,
           (unsigned)BENCH_CFG.metrics[metric].width, n, (unsigned long long)sum);
    return sum == 2ull * 42ull * n ? 0 : 1;
}
