// SPDX-License-Identifier: MIT
/*
 * jointer_pm.c - the program monitor: table programming through the INIT
 * path and the profile computation (jointer_pm.h). A separate module: a
 * monitor without a program monitor links none of it. No OS header, no
 * allocation.
 */
#include "jointer_cycles.h"
#include "jointer_pm.h"
#include "jointer_internal.h"

/* descriptor index of a sniffer, or -1 */
static int pm_sniffer(const jointer_dev *dev, unsigned lmic, unsigned sniffer)
{
    if (!ready(dev) || lmic >= dev->cfg->num_lmics || sniffer >= dev->cfg->lmics[lmic].num_sniffers)
        return -1;
    return (int)(dev->cfg->lmics[lmic].first_sniffer + sniffer);
}

static int control(jointer_dev *dev, unsigned lmic, uint32_t value)
{
    int r = wr(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_CONTROL, value);
    if (r == 0)
        dev->control[lmic] = value & ~JOINTER_CONTROL_SOFT_RESET;
    return r;
}

int jointer_pm_program(jointer_dev *dev, unsigned lmic, unsigned sniffer,
                       const uint32_t *addresses, unsigned count, uint32_t enable)
{
    int s = pm_sniffer(dev, lmic, sniffer);
    const jointer_sniffer_desc *sd;
    uint32_t first, k, init, saved;
    unsigned i;
    int r, r2;

    if (s < 0 || (addresses == NULL && count > 0))
        return -EINVAL;
    sd = &dev->cfg->sniffers[s];
    if (sd->pm_addresses == 0 || sd->pm_addresses > JOINTER_PM_MAX_ADDRESSES
        || sd->pm_pc_width == 0 || sd->pm_pc_width > 32)
        return -ENOTSUP;
    if (count > sd->pm_addresses || (sd->pm_addresses < 32u && (enable >> sd->pm_addresses) != 0u))
        return -ERANGE;
    for (i = 0; i < count; i++)
        if (sd->pm_pc_width < 32u && (addresses[i] >> sd->pm_pc_width) != 0u)
            return -ERANGE;
    if (sd->num_dcapfs > 0 && dev->bounds == NULL)
        return -ENOBUFS;
    first = first_bound_word(dev->cfg, (unsigned)s);
    init = dev->cfg->lmics[lmic].base + JOINTER_LMIC_INIT(sniffer);
    saved = dev->control[lmic];
    /* (1) INIT: restarts the sniffer's INIT pointer */
    r = control(dev, lmic, (saved & ~JOINTER_PROG_MASK(sniffer))
                               | ((uint32_t)JOINTER_INIT << JOINTER_PROG_SHIFT(sniffer)));
    /* (2) the DCAPFs' bounds, unchanged (cache), then the mask and the addresses */
    for (k = 0; r == 0 && k < dcapf_init_words(dev->cfg, (unsigned)s); k++)
        r = wr(dev, init, dev->bounds[first + k]);
    if (r == 0)
        r = wr(dev, init, enable);
    for (i = 0; r == 0 && i < count; i++)
        r = wr(dev, init, addresses[i]);
    /* (3) the previous mode again (and RUN as it was) */
    r2 = control(dev, lmic, saved);
    if (r == 0)
        r = r2;
    if (r < 0)
        LOG(dev, JOINTER_LOG_ERROR, r, "jointer_pm_program: bus write failed");
    return r;
}

int jointer_pm_enable(jointer_dev *dev, unsigned lmic, unsigned sniffer, uint32_t enable)
{
    return jointer_pm_program(dev, lmic, sniffer, NULL, 0, enable);
}

/* ---- profile ---------------------------------------------------------------- */

int jointer_pm_profile(const jointer_trace_record *records, uint32_t n,
                       const jointer_pm_function *fn, unsigned nfn,
                       jointer_pm_frame *stack, unsigned stack_depth,
                       jointer_pm_stats *stats)
{
    int16_t role[256]; /* index -> function (entry: f, exit: 256 + f), or -1 */
    unsigned f, depth = 0, k;
    uint32_t i;
    jointer_cycles clk;

    if ((records == NULL && n > 0) || fn == NULL || nfn == 0 || nfn > 256 || stack == NULL
        || stack_depth == 0 || stats == NULL)
        return -EINVAL;
    for (k = 0; k < 256; k++)
        role[k] = -1;
    for (f = 0; f < nfn; f++) {
        if (fn[f].entry == JOINTER_PM_NO_INDEX || role[fn[f].entry] >= 0)
            return -EINVAL;
        role[fn[f].entry] = (int16_t)f;
        if (fn[f].exit != JOINTER_PM_NO_INDEX) {
            if (role[fn[f].exit] >= 0)
                return -EINVAL;
            role[fn[f].exit] = (int16_t)(256 + f);
        }
        stats[f].calls = stats[f].unmatched_entries = stats[f].unmatched_exits = 0;
        stats[f].total = 0;
        stats[f].min = stats[f].max = 0;
    }
    jointer_cycles_reset(&clk);
    for (i = 0; i < n; i++) {
        uint64_t now = jointer_cycles_next(&clk, records[i].timestamp);
        int16_t ro = records[i].data < 256u ? role[records[i].data] : -1;
        if (ro < 0)
            continue;
        if (ro < 256) { /* an entry */
            f = (unsigned)ro;
            if (fn[f].exit == JOINTER_PM_NO_INDEX) {
                stats[f].calls++;
                continue;
            }
            if (depth == stack_depth) { /* full: drop the oldest frame */
                stats[stack[0].function].unmatched_entries++;
                for (k = 1; k < depth; k++)
                    stack[k - 1] = stack[k];
                depth--;
            }
            stack[depth].timestamp = records[i].timestamp;
            stack[depth].function = (uint16_t)f;
            stack[depth].epoch = (uint16_t)((now >> 32) & 0xFFFFu);
            depth++;
        } else { /* an exit: the innermost open call of its function */
            unsigned pos = depth;
            f = (unsigned)(ro - 256);
            while (pos > 0 && stack[pos - 1].function != f)
                pos--;
            if (pos == 0) {
                stats[f].unmatched_exits++;
                continue;
            }
            for (k = pos; k < depth; k++)
                stats[stack[k].function].unmatched_entries++;
            {
                const jointer_pm_frame *e = &stack[pos - 1];
                uint64_t d = (now - ((uint64_t)e->epoch << 32 | e->timestamp)) & 0xFFFFFFFFFFFFull; /* 48 bits */
                uint32_t d32 = d > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)d;
                jointer_pm_stats *st = &stats[f];
                if (st->calls == 0 || d32 < st->min)
                    st->min = d32;
                if (st->calls == 0 || d32 > st->max)
                    st->max = d32;
                st->calls++;
                st->total += d;
            }
            depth = pos - 1;
        }
    }
    for (k = 0; k < depth; k++)
        stats[stack[k].function].unmatched_entries++;
    return 0;
}
