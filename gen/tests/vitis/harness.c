// SPDX-License-Identifier: MIT
/*
 * The board of gen/tests/test_gen_vitis.py: runs a monitor's Vitis driver, as a
 * BSP built it, on register files mapped at the base addresses of its config
 * table (X<Name>_ConfigTable[], written by lopper or by the classic Tcl hook),
 * then the driver's example. One line per check; the test compares them all.
 *
 * The hardware of instance i: the monitor's ID, VERSION, INFO and CONFIG_HASH
 * registers (instance 1's CONFIG_HASH from another configuration: a stale
 * bitstream) and 0x100 + m in the result of metric m. An instance whose
 * table entry carries another configuration's hash gets no register file: the
 * driver must refuse it without a bus access (one would fault).
 *
 * harness_names.h (written by the test) names the driver: MON_X(Config) is
 * X<Name>_Config, MON_DEV X<Name>, MON_CFG the descriptor, MON_* its register values, MON_SDT_FLOW
 * or MON_NUM_INSTANCES the flow's table end.
 */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "harness_names.h"

#define WINDOW 0x10000u
#define UNMAPPED ((uintptr_t)0x1000u)   /* below mmap_min_addr: never mapped */

int example_main(void);

static unsigned instances(void)
{
    unsigned n = 0;

#ifdef MON_SDT_FLOW
    while (MON_X(ConfigTable)[n].Name != NULL)
        n++;
#else
    n = (unsigned)MON_NUM_INSTANCES;
#endif
    return n;
}

static int board(uintptr_t base, unsigned i)
{
    volatile uint32_t *r = mmap((void *)base, WINDOW, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    unsigned m;

    if ((void *)r != (void *)base)
        return -1;
    r[JOINTER_REG_ID / 4u] = MON_ID_VALUE;
    r[JOINTER_REG_VERSION / 4u] = MON_VERSION_VALUE;
    r[JOINTER_REG_CONFIG_HASH / 4u] = i == 1u ? ~MON_CONFIG_HASH : MON_CONFIG_HASH;
    r[JOINTER_REG_INFO / 4u] = MON_INFO;
    for (m = 0; m < MON_CFG.num_metrics; m++)
        r[MON_CFG.metrics[m].result_offset / 4u] = 0x100u + m;
    return 0;
}

static long index_of(const MON_X(Config) *c)
{
    return c == NULL ? -1L : (long)(c - MON_X(ConfigTable));
}

static void lookups(void)
{
#ifdef MON_SDT_FLOW
    printf("lookup 0x0 -> %ld\n", index_of(MON_X(LookupConfig)(0u)));
    printf("lookup 0x%" PRIxPTR " -> %ld\n", MON_X(ConfigTable)[1].BaseAddress,
           index_of(MON_X(LookupConfig)(MON_X(ConfigTable)[1].BaseAddress)));
    printf("lookup 0x%" PRIxPTR " -> %ld\n", UNMAPPED, index_of(MON_X(LookupConfig)(UNMAPPED)));
#else
    printf("lookup 1 -> %ld\n", index_of(MON_X(LookupConfig)(1u)));
    printf("lookup 7 -> %ld\n", index_of(MON_X(LookupConfig)(7u)));
#endif
}

int main(void)
{
    static MON_DEV dev;
    MON_X(Config) stale;
    unsigned i, n = instances();

    printf("instances %u\n", n);
    for (i = 0; i < n; i++) {
        const MON_X(Config) *c = &MON_X(ConfigTable)[i];
        int r = c->ConfigHash == MON_CONFIG_HASH ? board(c->BaseAddress, i) : 0;

        printf("instance %u base 0x%" PRIxPTR " hash 0x%08" PRIx32 " init %d\n", i, c->BaseAddress, c->ConfigHash,
               r != 0 ? r : MON_X(CfgInitialize)(&dev, c));
    }
    lookups();
    stale = MON_X(ConfigTable)[0];
    stale.ConfigHash = ~MON_CONFIG_HASH;
    stale.BaseAddress = UNMAPPED;
    printf("stale description %d\n", MON_X(CfgInitialize)(&dev, &stale));
    printf("null %d\n", MON_X(CfgInitialize)(NULL, &MON_X(ConfigTable)[0]));
    fflush(stdout);
    i = (unsigned)example_main();
    printf("example %u\n", i);
    return 0;
}
