/*
 * jointer_trace.c - trace buffers (a separate module: a monitor without a
 * trace DCAPF links none of it). No OS header, no allocation.
 */
#include "jointer_internal.h"

/* ---- traces --------------------------------------------------------------- */

static const jointer_trace_desc *trace_of(const jointer_dev *dev, unsigned trace)
{
    return ready(dev) && trace < dev->cfg->num_traces ? &dev->cfg->traces[trace] : NULL;
}

int jointer_trace_status(jointer_dev *dev, unsigned trace, uint32_t *fill, uint32_t *status)
{
    const jointer_trace_desc *t = trace_of(dev, trace);
    int r;

    if (t == NULL || fill == NULL || status == NULL)
        return -EINVAL;
    r = rd(dev, t->reg_offset + JOINTER_TRACE_FILL, fill);
    if (r == 0)
        r = rd(dev, t->reg_offset + JOINTER_TRACE_STATUS, status);
    return r;
}

int jointer_trace_set_watermark(jointer_dev *dev, unsigned trace, uint32_t records)
{
    const jointer_trace_desc *t = trace_of(dev, trace);

    if (t == NULL)
        return -EINVAL;
    if (records > t->depth)
        return -ERANGE;
    return wr(dev, t->reg_offset + JOINTER_TRACE_WATERMARK, records);
}

int jointer_trace_read(jointer_dev *dev, unsigned trace, jointer_trace_record *out,
                       uint32_t max, uint32_t *count)
{
    const jointer_trace_desc *t = trace_of(dev, trace);
    uint32_t fill, i, k;
    int r;

    if (t == NULL || count == NULL || (out == NULL && max != 0))
        return -EINVAL;
    *count = 0;
    r = rd(dev, t->reg_offset + JOINTER_TRACE_FILL, &fill);
    if (r < 0)
        return r;
    k = 0; /* the oldest record: 0, or WPTR for a full ring */
    if (fill > t->depth || (t->ring && fill == t->depth
                            && ((r = rd(dev, t->reg_offset + JOINTER_TRACE_WPTR, &k)) < 0 || k >= t->depth))) {
        if (r == 0) {
            LOG(dev, JOINTER_LOG_ERROR, -EIO, "trace: FILL or WPTR beyond DEPTH");
            r = -EIO;
        }
        return r;
    }
    for (i = 0; i < fill && i < max; i++) {
        uint32_t off = t->ram_offset + 8u * k;
        r = rd(dev, off, &out[i].timestamp);
        if (r == 0)
            r = rd(dev, off + 4u, &out[i].data);
        if (r < 0)
            return r;
        if (++k == t->depth)
            k = 0;
        *count = i + 1u;
    }
    return 0;
}

