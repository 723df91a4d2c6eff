// SPDX-License-Identifier: MIT
/*
 * jointer.c - libjointer core, set-up: bind a device to its descriptor and
 * seam (jointer_init), the bounds cache, the hooks, close. The other
 * concerns have their own files: jointer_check.c (the descriptor check),
 * jointer_control.c, jointer_results.c, jointer_irq.c, jointer_ident.c,
 * jointer_strerror.c. No OS header, no allocation, no printing.
 *
 * Every register address is base + an offset taken from the descriptor
 * (jointer_desc.h); nothing here computes layout.
 */
#include "jointer_internal.h"

void jointer__say(const jointer_dev *dev, int level, int err, const char *msg)
{
    if (dev->log != NULL)
        dev->log(dev->log_ctx, level, err, msg);
}


int jointer_init(jointer_dev *dev, const jointer_cfg *cfg, const jointer_io *io)
{
    unsigned char *p = (unsigned char *)dev;
    unsigned i;
    int r;

    if (dev == NULL)
        return -EINVAL;
    for (i = 0; i < sizeof *dev; i++) /* no hook, no port, no bounds, not ready */
        p[i] = 0;
    if (cfg == NULL || io == NULL
        || (io->base == NULL && (io->ops == NULL || io->ops->read32 == NULL || io->ops->write32 == NULL))
        || jointer__check_cfg(cfg) != 0)
        return -EINVAL;
    dev->base = io->base;
    dev->ops = io->ops;
    dev->ctx = io->ctx;
    dev->metrics = cfg->metrics;
    for (i = 0; i < cfg->num_lmics; i++) {
        r = rd(dev, cfg->lmics[i].base + JOINTER_LMIC_CONTROL, &dev->control[i]);
        if (r < 0)
            return r;
        dev->control[i] &= ~JOINTER_CONTROL_SOFT_RESET;
    }
    r = rd(dev, JOINTER_REG_IRQ_ENABLE, &dev->irq_enable);
    if (r < 0)
        return r;
    dev->cfg = cfg;
    dev->fast_metrics = dev->base != NULL ? cfg->num_metrics : 0u;
    return 0;
}

/* the INIT words of one DCAPF's bounds: low then high, each w (1 or 2) words,
 * bits 31..0 first */
void jointer__bound_words(uint32_t *b, unsigned w, uint64_t low, uint64_t high)
{
    b[0] = (uint32_t)low;
    b[w] = (uint32_t)high;
    if (w > 1u) {
        b[1] = (uint32_t)(low >> 32);
        b[3] = (uint32_t)(high >> 32);
    }
}

static void put_bounds(const jointer_cfg *cfg, uint32_t *bounds, unsigned s, unsigned dcapf,
                       uint64_t low, uint64_t high)
{
    unsigned w = jointer_init_words(&cfg->sniffers[s]);
    jointer__bound_words(bounds + first_bound_word(cfg, s) + 2u * w * dcapf, w, low, high);
}

uint32_t jointer_bounds_words(const jointer_cfg *cfg)
{
    return cfg != NULL ? first_bound_word(cfg, cfg->num_sniffers) : 0u;
}

size_t jointer_dev_size(void)
{
    return sizeof(jointer_dev);
}

const jointer_cfg *jointer_dev_cfg(const jointer_dev *dev)
{
    return dev != NULL ? dev->cfg : NULL;
}

int jointer_attach_bounds(jointer_dev *dev, uint32_t *bounds, uint32_t words)
{
    const jointer_cfg *cfg;
    unsigned i, s, k;

    if (!ready(dev) || bounds == NULL)
        return -EINVAL;
    cfg = dev->cfg;
    if (words < jointer_bounds_words(cfg)) /* every DCAPF of the monitor */
        return -ENOBUFS;
    for (s = 0; s < cfg->num_sniffers; s++)
        for (k = 0; k < cfg->sniffers[s].num_dcapfs; k++)
            put_bounds(cfg, bounds, s, k, 0u, UINT64_MAX);
    for (i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *m = &cfg->metrics[i];
        put_bounds(cfg, bounds, m->sniffer, m->dcapf, m->low_reset, m->high_reset);
    }
    for (i = 0; i < cfg->num_traces; i++) {
        const jointer_trace_desc *t = &cfg->traces[i];
        put_bounds(cfg, bounds, t->sniffer, t->dcapf, t->low_reset, t->high_reset);
    }
    dev->bounds = bounds;
    dev->bounds_words = words;
    return 0;
}

void jointer_set_log(jointer_dev *dev, jointer_log_fn fn, void *ctx)
{
    if (dev != NULL) {
        dev->log = fn;
        dev->log_ctx = ctx;
    }
}

void jointer_set_clock(jointer_dev *dev, jointer_clock_fn fn, void *ctx)
{
    if (dev != NULL) {
        dev->clock = fn;
        dev->clock_ctx = ctx;
    }
}

int jointer_close(jointer_dev *dev)
{
    int r = 0;

    if (dev == NULL)
        return -EINVAL;
    if (dev->port.close != NULL)
        r = dev->port.close(&dev->port);
    dev->port.close = NULL;
    dev->cfg = NULL;
    dev->fast_metrics = 0;
    dev->bounds = NULL;
    return r;
}
