// SPDX-License-Identifier: MIT
/*
 * jointer_results.c - results and thresholds: multi-word values least
 * significant word first (it snapshots the upper words).
 */
#include "jointer_internal.h"

/* LSW first (it snapshots the upper word), then the upper word; on a device
 * other processes read too, under the port's lock (their LSW read would take
 * another snapshot between ours) */
static int read_words(jointer_dev *dev, uint32_t off, uint32_t width, uint64_t *value)
{
    uint32_t lo, hi = 0;
    int locked = width > 32u && dev->port.lock != NULL;
    int r = locked ? dev->port.lock(&dev->port, 1) : 0;
    if (r == 0)
        r = rd(dev, off, &lo);
    if (r == 0 && width > 32u)
        r = rd(dev, off + 4u, &hi);
    if (locked)
        (void)dev->port.lock(&dev->port, 0);
    if (r == 0)
        *value = ((uint64_t)hi << 32) | lo;
    return r;
}

/* the fast path first: a metric of <= 32 bits on a direct seam is one load
 * (fast_metrics is 0 on an ops seam and on a device not initialised) */
int jointer_read(jointer_dev *dev, unsigned metric, uint64_t *value)
{
    if (dev != NULL && value != NULL && metric < dev->fast_metrics && dev->metrics[metric].width <= 32u) {
        *value = *(volatile uint32_t *)((volatile uint8_t *)dev->base + dev->metrics[metric].result_offset);
        return 0;
    }
    if (!ready(dev) || value == NULL || metric >= dev->cfg->num_metrics)
        return -EINVAL;
    return read_words(dev, dev->metrics[metric].result_offset, dev->metrics[metric].width, value);
}

int jointer_read_all(jointer_dev *dev, uint64_t *values, size_t n)
{
    unsigned i;
    int r = 0;

    if (!ready(dev) || values == NULL || n < dev->cfg->num_metrics)
        return -EINVAL;
    for (i = 0; r == 0 && i < dev->cfg->num_metrics; i++)
        r = read_words(dev, dev->metrics[i].result_offset, dev->metrics[i].width, &values[i]);
    return r;
}

static const jointer_metric_desc *threshold_metric(const jointer_dev *dev, unsigned metric, int *err)
{
    *err = -EINVAL;
    if (!ready(dev) || metric >= dev->cfg->num_metrics)
        return NULL;
    *err = -ENOTSUP;
    if (!(dev->metrics[metric].flags & JOINTER_METRIC_THRESHOLD))
        return NULL;
    *err = 0;
    return &dev->metrics[metric];
}

int jointer_set_threshold(jointer_dev *dev, unsigned metric, uint64_t value)
{
    int r;
    const jointer_metric_desc *m = threshold_metric(dev, metric, &r);

    if (m == NULL)
        return r;
    if (m->width < 64u && (value >> m->width) != 0)
        return -ERANGE;
    if (m->width > 32u) /* staged, then the most significant word commits */
        r = wr(dev, m->threshold_offset, (uint32_t)value), value >>= 32;
    return r != 0 ? r : wr(dev, m->threshold_offset + (m->width > 32u ? 4u : 0u), (uint32_t)value);
}

int jointer_read_threshold(jointer_dev *dev, unsigned metric, uint64_t *value)
{
    int r;
    const jointer_metric_desc *m = threshold_metric(dev, metric, &r);

    if (m == NULL)
        return r;
    if (value == NULL)
        return -EINVAL;
    return read_words(dev, m->threshold_offset, m->width, value);
}
