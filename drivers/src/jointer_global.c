// SPDX-License-Identifier: MIT
/*
 * jointer_global.c - the optional registers of the global block:
 * TIMESTAMP (monitor.global.timestamp) and MARK (a mark sniffer). In a file
 * of their own so that a monitor without them does not link their code;
 * each answers -ENOTSUP when the monitor's INFO says the register is absent.
 */

#include "jointer_internal.h"

/* LO first: reading it snapshots HI, so the 64-bit value never tears */
int jointer_timestamp(jointer_dev *dev, uint64_t *ts)
{
    uint32_t lo, hi;
    int r;

    if (!ready(dev) || ts == NULL)
        return -EINVAL;
    if (!(dev->cfg->info & JOINTER_INFO_TIMESTAMP))
        return -ENOTSUP;
    r = rd(dev, JOINTER_REG_TIMESTAMP_LO, &lo);
    if (r == 0)
        r = rd(dev, JOINTER_REG_TIMESTAMP_HI, &hi);
    if (r == 0)
        *ts = ((uint64_t)hi << 32) | lo;
    return r;
}

int jointer_mark(jointer_dev *dev, uint32_t value)
{
    if (!ready(dev))
        return -EINVAL;
    if (!(dev->cfg->info & JOINTER_INFO_MARK))
        return -ENOTSUP;
    return wr(dev, JOINTER_REG_MARK, value);
}
