// SPDX-License-Identifier: MIT
/*
 * jointer_print.c - jointer_print_reg (the paper's API; hosted builds).
 */
#include <inttypes.h>
#include <stdio.h>

#include "jointer_hosted.h"

static const char *const mode_name[4] = {"IDLE", "INIT", "FILTERING", "NO_FILTERING"};

static int print_lmic(jointer_dev *dev, unsigned l, FILE *out)
{
    const jointer_cfg *cfg = dev->cfg;
    const jointer_lmic_desc *lm = &cfg->lmics[l];
    uint32_t control, status, irq;
    unsigned s, m;
    int r;

    r = dev->base != NULL || dev->ops != NULL ? 0 : -EINVAL;
    /* CONTROL is read from the bus: it shows INIT for a sniffer whose
     * FILTERING is still pending in the shadow (jointer_initialize) */
    if (r == 0 && dev->base != NULL)
        control = dev->base[(lm->base + JOINTER_LMIC_CONTROL) / 4u];
    else if (r == 0)
        r = dev->ops->read32(dev->ctx, lm->base + JOINTER_LMIC_CONTROL, &control);
    if (r == 0)
        r = jointer_status(dev, l, &status);
    if (r == 0)
        r = jointer_irq_status(dev, l, &irq);
    if (r < 0)
        return r;
    fprintf(out, "lmic %s (0x%03" PRIx32 "): CONTROL 0x%08" PRIx32 " RUN=%u  STATUS 0x%08" PRIx32
                 "  IRQ_STATUS 0x%08" PRIx32 "\n",
            lm->name, lm->base, control, (unsigned)(control & 1u), status, irq);
    for (s = 0; s < lm->num_sniffers; s++) {
        const jointer_sniffer_desc *sn = &cfg->sniffers[lm->first_sniffer + s];
        unsigned mode = (unsigned)(control >> JOINTER_PROG_SHIFT(s)) & 3u;
        fprintf(out, "  sniffer %-16s %-12s valid=%u overflow=%u\n", sn->name, mode_name[mode],
                (unsigned)((status >> s) & 1u), (unsigned)((status >> (16u + s)) & 1u));
    }
    for (m = 0; m < cfg->num_metrics; m++) {
        uint64_t v;
        if (cfg->metrics[m].lmic != l)
            continue;
        r = jointer_read(dev, m, &v);
        if (r < 0)
            return r;
        fprintf(out, "    %-24s = %" PRIu64 "\n", cfg->metrics[m].name, v);
    }
    return 0;
}

int jointer_print_reg(jointer_dev *dev, unsigned lmic, FILE *out)
{
    unsigned l;
    int r = 0;

    if (dev == NULL || dev->cfg == NULL || out == NULL
        || (lmic != JOINTER_ALL_LMICS && lmic >= dev->cfg->num_lmics))
        return -EINVAL;
    for (l = 0; r == 0 && l < dev->cfg->num_lmics; l++)
        if (lmic == JOINTER_ALL_LMICS || lmic == l)
            r = print_lmic(dev, l, out);
    return r;
}
