// SPDX-License-Identifier: MIT
/*
 * jointer_print.c - jointer_print_reg (the paper's API; hosted builds).
 */
#include <inttypes.h>
#include <stdio.h>

#include "jointer_hosted.h"

static const char *const mode_name[4] = {"IDLE", "INIT", "FILTERING", "NO_FILTERING"};

/* one metric: its value; a histogram: every bucket with its range; a mean: sum, count, mean */
static int print_metric(jointer_dev *dev, unsigned m, FILE *out)
{
    const jointer_metric_desc *md = &dev->cfg->metrics[m];
    uint64_t v[64], low, high;
    int k, n, r;

    if (md->aggregator == JOINTER_AGGREGATOR_MEAN) {
        r = jointer_read_mean(dev, m, &v[0], &v[1]);
        if (r == 0)
            fprintf(out, "    %-24s = sum %" PRIu64 ", count %" PRIu64 ", mean %.3f\n", md->name, v[0], v[1],
                    v[1] != 0 ? (double)v[0] / (double)v[1] : 0.0);
        return r;
    }
    if (md->aggregator != JOINTER_AGGREGATOR_HISTOGRAM) {
        r = jointer_read(dev, m, &v[0]);
        if (r == 0)
            fprintf(out, "    %-24s = %" PRIu64 "\n", md->name, v[0]);
        return r;
    }
    n = jointer_histogram_buckets(dev, m);
    r = n < 0 ? n : jointer_read_histogram(dev, m, v, 64u);
    if (r < 0)
        return r;
    fprintf(out, "    %-24s   histogram, %d buckets\n", md->name, n);
    for (k = 0; k < n && r == 0; k++) {
        r = jointer_histogram_bucket(dev, m, (unsigned)k, &low, &high);
        if (r == 0 && high == UINT64_MAX)
            fprintf(out, "      [%" PRIu64 ", inf)%*s = %" PRIu64 "\n", low, 10, "", v[k]);
        else if (r == 0)
            fprintf(out, "      [%" PRIu64 ", %" PRIu64 ")%*s = %" PRIu64 "\n", low, high, 4, "", v[k]);
    }
    return r;
}

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
        if (cfg->metrics[m].lmic != l)
            continue;
        r = print_metric(dev, m, out);
        if (r < 0)
            return r;
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
