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
    unsigned i;
    uint32_t n;

    if (!ready(dev) || bounds == NULL)
        return -EINVAL;
    cfg = dev->cfg;
    n = 2u * first_dcapf(cfg, cfg->num_sniffers); /* every DCAPF of the monitor */
    if (words < n)
        return -ENOBUFS;
    for (i = 0; i < n; i++)
        bounds[i] = (i & 1u) ? 0xFFFFFFFFu : 0u;
    for (i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *m = &cfg->metrics[i];
        uint32_t k = 2u * (first_dcapf(cfg, m->sniffer) + m->dcapf);
        bounds[k] = m->low_reset;
        bounds[k + 1u] = m->high_reset;
    }
    for (i = 0; i < cfg->num_traces; i++) {
        const jointer_trace_desc *t = &cfg->traces[i];
        uint32_t k = 2u * (first_dcapf(cfg, t->sniffer) + t->dcapf);
        bounds[k] = t->low_reset;
        bounds[k + 1u] = t->high_reset;
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
