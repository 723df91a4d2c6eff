// SPDX-License-Identifier: MIT
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
    if (t->sink_bytes != 0)
        return dev->sink_ops != NULL ? dev->sink_ops->fill(dev, trace, fill, status) : -ENOTCONN;
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
    if (t->sink_bytes != 0) /* the sink counts bytes: 8 per unit */
        return records > UINT32_MAX / 8u ? -ERANGE
               : wr(dev, t->reg_offset + JOINTER_SINK_WATERMARK, 8u * records);
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
    if (t->sink_bytes != 0)
        return -ENOTSUP; /* its records are in the ring: jointer_trace_drain */
    r = rd(dev, t->reg_offset + JOINTER_TRACE_FILL, &fill);
    if (r < 0)
        return r;
    k = 0; /* the oldest record: 0, WPTR for a full ring, RPTR for a relay */
    if (fill > t->depth || (t->relay && ((r = rd(dev, t->reg_offset + JOINTER_TRACE_RPTR, &k)) < 0
                                         || k >= t->depth))
        || (t->ring && fill == t->depth
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


/* ---- relay traces ---------------------------------------------------------- */

static const jointer_trace_desc *relay_of(const jointer_dev *dev, unsigned trace, int *err)
{
    const jointer_trace_desc *t = trace_of(dev, trace);

    *err = t == NULL ? -EINVAL : !t->relay && t->sink_bytes == 0 ? -ENOTSUP : 0;
    return *err == 0 ? t : NULL;
}

int jointer_trace_drain(jointer_dev *dev, unsigned trace, jointer_trace_record *out,
                        uint32_t max, uint32_t *count)
{
    int r;
    const jointer_trace_desc *t = relay_of(dev, trace, &r);
    uint32_t fill, k, i, n;

    if (count == NULL || (out == NULL && max != 0))
        return -EINVAL;
    *count = 0;
    if (t == NULL)
        return r;
    if (t->sink_bytes != 0)
        return dev->sink_ops != NULL ? dev->sink_ops->drain(dev, trace, out, max, count) : -ENOTCONN;
    r = rd(dev, t->reg_offset + JOINTER_TRACE_FILL, &fill);
    if (r < 0)
        return r;
    if (fill > t->depth) {
        LOG(dev, JOINTER_LOG_ERROR, -EIO, "trace: FILL beyond DEPTH");
        return -EIO;
    }
    n = fill < max ? fill : max;
    if (n == 0)
        return 0;
    r = rd(dev, t->reg_offset + JOINTER_TRACE_RPTR, &k);
    if (r < 0)
        return r;
    if (k >= t->depth) {
        LOG(dev, JOINTER_LOG_ERROR, -EIO, "trace: RPTR beyond DEPTH");
        return -EIO;
    }
    for (i = 0; i < n; i++) {
        uint32_t off = t->ram_offset + 8u * k;
        r = rd(dev, off, &out[i].timestamp);
        if (r == 0)
            r = rd(dev, off + 4u, &out[i].data);
        if (r < 0)
            return r; /* nothing released: the next drain reads them again */
        if (++k == t->depth)
            k = 0;
    }
    r = wr(dev, t->reg_offset + JOINTER_TRACE_ACK, n);
    if (r == 0)
        *count = n;
    return r;
}

int jointer_trace_lost(jointer_dev *dev, unsigned trace, uint32_t *lost)
{
    int r;
    const jointer_trace_desc *t = relay_of(dev, trace, &r);

    if (lost == NULL)
        return -EINVAL;
    if (t == NULL)
        return r;
    return rd(dev, t->reg_offset + (t->sink_bytes != 0 ? JOINTER_SINK_LOST : JOINTER_TRACE_LOST), lost);
}

int jointer__relay(jointer_dev *dev, const jointer_trace_desc *t, unsigned trace, int timeout_ms,
                   uint32_t budget, jointer__relay_pass pass, void *step, uint64_t *count)
{
    uint32_t n;
    int r = jointer_irq_wait(dev, timeout_ms, NULL);

    if (r < 0 && r != -ETIMEDOUT)
        return r;
    if (t->irq_bit >= 0 && (r = jointer_irq_ack(dev, t->lmic, 3u << (unsigned)t->irq_bit)) < 0)
        return r;
    do {
        n = 0;
        r = pass(dev, trace, step, &n);
        *count += n;
        if (r != 0)
            return r;
        budget = n < budget ? budget - n : 0;
    } while (n != 0 && budget != 0);
    return 0;
}

/* jointer_trace_relay's pass: records into the caller's buffer, then its sink */
typedef struct {
    jointer_trace_record *buf;
    uint32_t max;
    jointer_trace_sink sink;
    void *ctx;
} record_step;

static int record_pass(jointer_dev *dev, unsigned trace, void *step, uint32_t *n)
{
    const record_step *s = step;
    int r = jointer_trace_drain(dev, trace, s->buf, s->max, n);

    if (r < 0)
        *n = 0; /* nothing passed on */
    if (r < 0 || *n == 0)
        return r;
    return s->sink(s->ctx, s->buf, *n);
}

int jointer_trace_relay(jointer_dev *dev, unsigned trace, jointer_trace_record *buf,
                        uint32_t max, int timeout_ms, jointer_trace_sink sink, void *ctx,
                        uint64_t *drained)
{
    int r;
    const jointer_trace_desc *t = relay_of(dev, trace, &r);
    record_step step = {buf, max, sink, ctx};

    if (buf == NULL || max == 0 || sink == NULL || drained == NULL)
        return -EINVAL;
    if (t == NULL)
        return r;
    return jointer__relay(dev, t, trace, timeout_ms,
                          4u * (t->sink_bytes == 0 ? t->depth
                                : dev->sink_ops != NULL ? dev->sink_ops->capacity(dev, trace) : 1u),
                          record_pass, &step, drained);
}
