// SPDX-License-Identifier: MIT
/*
 * jointer_histogram.c - histogram metrics: bucket count,
 * bucket bounds and a torn-free read of every bucket. No OS header, no
 * allocation, no printing.
 *
 * A histogram metric (aggregator JOINTER_AGGREGATOR_HISTOGRAM, buckets N
 * >= 2) has N buckets of ceil(width/32) words from result_offset, bucket 0
 * first. Reading bucket 0's first word makes the LMIC snapshot every other
 * word of the histogram in that cycle; the other words then return the
 * snapshot, so the N counts read are those of one clock cycle. A mean metric
 * (JOINTER_AGGREGATOR_MEAN) is the same with 2 slots: sum, then count.
 */
#include "jointer_internal.h"

#include <stdint.h>

/* the histogram descriptor of `metric`, or NULL with *err set */
static const jointer_metric_desc *histogram(const jointer_dev *dev, unsigned metric, int *err)
{
    const jointer_metric_desc *m;

    *err = -EINVAL;
    if (!ready(dev) || metric >= dev->cfg->num_metrics)
        return NULL;
    m = &dev->cfg->metrics[metric];
    if (m->aggregator != JOINTER_AGGREGATOR_HISTOGRAM || m->buckets < 2u) {
        *err = -ENOTSUP;
        return NULL;
    }
    return m;
}

int jointer_histogram_buckets(const jointer_dev *dev, unsigned metric)
{
    int err;
    const jointer_metric_desc *m = histogram(dev, metric, &err);
    return m == NULL ? err : (int)m->buckets;
}

/* boundary b(k), k = 1..N-1 */
static uint64_t boundary(const jointer_metric_desc *m, unsigned k)
{
    if (m->bounds == NULL)
        return (uint64_t)1u << (k - 1u);
    return m->bounds[k - 1u];
}

int jointer_histogram_bucket(const jointer_dev *dev, unsigned metric, unsigned bucket,
                             uint64_t *low, uint64_t *high)
{
    int err;
    const jointer_metric_desc *m = histogram(dev, metric, &err);

    if (m == NULL)
        return err;
    if (bucket >= m->buckets || low == NULL || high == NULL)
        return -EINVAL;
    *low = bucket == 0u ? 0u : boundary(m, bucket);
    *high = bucket + 1u == m->buckets ? UINT64_MAX : boundary(m, bucket + 1u);
    return 0;
}

/* every slot of a multi-slot result, slot 0's first word first (it
 * snapshots all the others) */
static int read_slots(jointer_dev *dev, const jointer_metric_desc *m, uint64_t *buckets)
{
    int r = 0;
    uint32_t words = (m->width + 31u) >> 5, k, off, lo, hi;

    /* bucket 0's first word first: it snapshots all the others */
    for (k = 0; r == 0 && k < m->buckets; k++) {
        off = m->result_offset + 4u * words * k;
        hi = 0;
        r = rd(dev, off, &lo);
        if (r == 0 && words > 1u)
            r = rd(dev, off + 4u, &hi);
        if (r == 0)
            buckets[k] = ((uint64_t)hi << 32) | lo;
    }
    return r;
}

int jointer_read_histogram(jointer_dev *dev, unsigned metric, uint64_t *buckets, size_t n)
{
    int err;
    const jointer_metric_desc *m = histogram(dev, metric, &err);

    if (m == NULL)
        return err;
    if (buckets == NULL)
        return -EINVAL;
    if (n < m->buckets)
        return -ENOSPC;
    return read_slots(dev, m, buckets);
}

int jointer_read_mean(jointer_dev *dev, unsigned metric, uint64_t *sum, uint64_t *count)
{
    uint64_t v[2];
    int r;
    const jointer_metric_desc *m;

    if (!ready(dev) || metric >= dev->cfg->num_metrics || sum == NULL || count == NULL)
        return -EINVAL;
    m = &dev->cfg->metrics[metric];
    if (m->aggregator != JOINTER_AGGREGATOR_MEAN || m->buckets != 2u)
        return -ENOTSUP;
    r = read_slots(dev, m, v);
    if (r == 0) {
        *sum = v[0];
        *count = v[1];
    }
    return r;
}
