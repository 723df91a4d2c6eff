// SPDX-License-Identifier: MIT
/*
 * bench_papi.c - instructions per PAPI_read of one jointer SDE event versus
 * per jointer_read of the same metric, on the same direct (volatile pointer)
 * seam: the Y9 monitor's bytes_written (23 bits) over a register array. Run
 * under valgrind --tool=callgrind; bench_papi.sh divides the inclusive cost
 * of bench_papi_read / bench_jointer_read by the number of calls.
 *
 *     bench_papi [N]      N calls of each (default 100000)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>

#include <papi.h>

#include "jointer_papi.h"
#include "selective_accumulations.h"

static uint32_t regs[SELECTIVE_ACCUMULATIONS_SPAN / 4u];

/* one PAPI_read of an event set holding one jointer event */
__attribute__((noinline)) int bench_papi_read(int set, long long *value)
{
    return PAPI_read(set, value);
}

/* what an application's call site compiles to: the static inline fast path */
__attribute__((noinline)) int bench_jointer_read(jointer_dev *dev, unsigned metric, uint64_t *value)
{
    return jointer_read(dev, metric, value);
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000ul, i;
    const unsigned metric = SELECTIVE_ACCUMULATIONS_METRIC_BYTES_WRITTEN;
    jointer_io io = jointer_io_direct(regs);
    selective_accumulations_dev mon;
    char name[JOINTER_PAPI_NAME_MAX];
    int set = PAPI_NULL, rc;
    long long pv = 0, psum = 0;
    uint64_t v = 0, jsum = 0;

    if (PAPI_disable_component_by_name("perf_event") != PAPI_OK
        || PAPI_disable_component_by_name("perf_event_uncore") != PAPI_OK
        || PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        printf("bench_papi: PAPI initialisation failed\n");
        return 1;
    }
    if (selective_accumulations_init(&mon, &io) != 0 || jointer_papi_register(&mon.dev) != 0
        || jointer_papi_event_name(&selective_accumulations_cfg, metric, name, sizeof name) < 0) {
        printf("bench_papi: jointer setup failed\n");
        return 1;
    }
    rc = PAPI_create_eventset(&set);
    if (rc == PAPI_OK)
        rc = PAPI_add_named_event(set, name);
    if (rc == PAPI_OK)
        rc = PAPI_start(set);
    if (rc != PAPI_OK) {
        printf("bench_papi: %s: %s\n", name, PAPI_strerror(rc));
        return 1;
    }
    regs[SELECTIVE_ACCUMULATIONS_BYTES_WRITTEN_RESULT / 4u] = 42;   /* 42 since PAPI_start */
    for (i = 0; i < n; i++) {
        if (bench_papi_read(set, &pv) != PAPI_OK)
            return 1;
        psum += pv;
    }
    for (i = 0; i < n; i++) {
        if (bench_jointer_read(&mon.dev, metric, &v) != 0)
            return 1;
        jsum += v;
    }
    (void)PAPI_stop(set, &pv);
    (void)PAPI_cleanup_eventset(set);
    (void)PAPI_destroy_eventset(&set);
    (void)jointer_papi_unregister(&mon.dev);
    PAPI_shutdown();
    printf("event %s (%u bits), %lu calls each, checksums %lld %llu\n", name,
           (unsigned)selective_accumulations_cfg.metrics[metric].width, n, psum, (unsigned long long)jsum);
    return psum == 42ll * (long long)n && jsum == 42ull * n ? 0 : 1;
}
