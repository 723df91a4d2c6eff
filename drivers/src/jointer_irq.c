// SPDX-License-Identifier: MIT
/*
 * jointer_irq.c - interrupts: enable, status, acknowledge, wait (the
 * port's wait_irq, or polling timed by the clock hook).
 */
#include "jointer_internal.h"

static uint32_t irq_mask_of(const jointer_dev *dev, unsigned lmic)
{
    unsigned n = dev->cfg->lmics[lmic].num_irq;
    return n >= 32u ? 0xFFFFFFFFu : (1u << n) - 1u;
}

int jointer_irq_enable(jointer_dev *dev, unsigned lmic, uint32_t mask)
{
    uint32_t g;
    int r;

    if (!lmic_ok(dev, lmic) || (mask & ~irq_mask_of(dev, lmic)) != 0)
        return -EINVAL;
    /* a device other processes drive too: the global IRQ_ENABLE as the
     * hardware has it, under the port's lock (jointer_control.c, enter) */
    r = dev->port.lock != NULL ? dev->port.lock(&dev->port, 1) : 0;
    if (r < 0)
        return r;
    if (dev->port.lock != NULL)
        r = rd(dev, JOINTER_REG_IRQ_ENABLE, &dev->irq_enable);
    if (r == 0)
        r = wr(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_IRQ_ENABLE, mask);
    g = mask != 0 ? dev->irq_enable | (1u << lmic) : dev->irq_enable & ~(1u << lmic);
    if (r == 0)
        r = wr(dev, JOINTER_REG_IRQ_ENABLE, g);
    if (r == 0)
        dev->irq_enable = g;
    if (dev->port.lock != NULL)
        (void)dev->port.lock(&dev->port, 0);
    return r;
}

int jointer_irq_status(jointer_dev *dev, unsigned lmic, uint32_t *status)
{
    if (!lmic_ok(dev, lmic) || status == NULL)
        return -EINVAL;
    return rd(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_IRQ_STATUS, status);
}

int jointer_irq_ack(jointer_dev *dev, unsigned lmic, uint32_t mask)
{
    if (!lmic_ok(dev, lmic) || (mask & ~irq_mask_of(dev, lmic)) != 0)
        return -EINVAL;
    return wr(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_IRQ_STATUS, mask);
}

int jointer_irq_wait(jointer_dev *dev, int timeout_ms, uint32_t *lmics)
{
    uint32_t st = 0, start = 0, polls = 0;
    int r;

    if (!ready(dev))
        return -EINVAL;
    if (dev->ops != NULL && dev->ops->wait_irq != NULL) {
        r = dev->ops->wait_irq(dev->ctx, timeout_ms);
        if (r == 0)
            r = rd(dev, JOINTER_REG_IRQ_STATUS, &st);
    } else {
        if (dev->clock != NULL)
            start = dev->clock(dev->clock_ctx);
        for (;;) {
            r = rd(dev, JOINTER_REG_IRQ_STATUS, &st);
            if (r < 0 || (st & dev->irq_enable) != 0)
                break;
            if (timeout_ms >= 0) {
                uint32_t spent = dev->clock != NULL ? dev->clock(dev->clock_ctx) - start
                                                    : ++polls / JOINTER_POLLS_PER_MS;
                if (spent >= (uint32_t)timeout_ms) {
                    r = -ETIMEDOUT;
                    break;
                }
            }
        }
    }
    if (r == 0 && lmics != NULL)
        *lmics = st & dev->irq_enable;
    return r;
}
