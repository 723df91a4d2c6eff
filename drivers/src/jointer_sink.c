// SPDX-License-Identifier: MIT
/*
 * jointer_sink.c - sink traces (YAML mode: sink): the hardware writes 64-bit
 * units through an AXI4 master into a ring the host owns; the host reads
 * [RPTR, WPTR) and gives the space back by writing RPTR. A separate module:
 * a program that never calls jointer_sink_start links none of it
 * (jointer_trace.c reaches it through dev->sink_ops). No OS header,
 * no allocation: the application provides the ring.
 */
#include "jointer_internal.h"

#define UNIT_BYTES 8u
#define PAGE_BYTES 4096u
#define BUSY_POLLS 100000u /* STATUS reads before a sink that stays BUSY is an error */

/* Orders the CPU's accesses to the ring with its accesses to the registers:
 * the units are read after WPTR, and RPTR is written after they were read.
 * The ring is Normal memory (uncached or coherent), the registers Device
 * memory: ARM needs a full barrier between them. */
static void ring_barrier(void)
{
#if defined(__aarch64__)
    __asm__ __volatile__("dsb sy" ::: "memory");
#elif defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7
    __asm__ __volatile__("dsb" ::: "memory");
#elif defined(__GNUC__)
    __sync_synchronize();
#endif
}

static const jointer_trace_desc *sink_of(const jointer_dev *dev, unsigned trace, int *err)
{
    const jointer_trace_desc *t = ready(dev) && trace < dev->cfg->num_traces
                                  ? &dev->cfg->traces[trace] : NULL;

    *err = t == NULL ? -EINVAL : t->sink_bytes == 0 ? -ENOTSUP : 0;
    return *err == 0 ? t : NULL;
}

static jointer_sink_ring *ring_of(const jointer_dev *dev, unsigned trace)
{
    jointer_sink_ring *r;

    for (r = dev->rings; r != NULL && r->trace != trace; r = r->next)
        ;
    return r;
}

static void unlink_ring(jointer_dev *dev, unsigned trace)
{
    jointer_sink_ring **p;

    for (p = &dev->rings; *p != NULL; p = &(*p)->next)
        if ((*p)->trace == trace) {
            *p = (*p)->next;
            return;
        }
}

/* until STATUS.BUSY is 0 (no burst outstanding) */
static int wait_idle(const jointer_dev *dev, const jointer_trace_desc *t)
{
    uint32_t i, status;
    int r;

    for (i = 0; i < BUSY_POLLS; i++) {
        r = rd(dev, t->reg_offset + JOINTER_SINK_STATUS, &status);
        if (r < 0 || (status & JOINTER_SINK_STATUS_BUSY) == 0)
            return r;
    }
    LOG(dev, JOINTER_LOG_ERROR, -ETIMEDOUT, "sink: bursts never ended (STATUS.BUSY)");
    return -ETIMEDOUT;
}

static int sink_fill(jointer_dev *dev, unsigned trace, uint32_t *units, uint32_t *status);
static int sink_drain(jointer_dev *dev, unsigned trace, jointer_trace_record *out,
                      uint32_t max, uint32_t *count);
static uint32_t sink_capacity(const jointer_dev *dev, unsigned trace);
static const jointer_sink_ops sink_ops = {sink_fill, sink_drain, sink_capacity};

int jointer_sink_start(jointer_dev *dev, unsigned trace, jointer_sink_ring *ring,
                       const volatile void *mem, uint32_t bus_addr, uint32_t size,
                       uint32_t watermark)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);
    uint32_t status, o = t != NULL ? t->reg_offset : 0u;

    if (t == NULL)
        return r;
    if (ring == NULL || mem == NULL || size == 0 || size % PAGE_BYTES != 0
        || bus_addr % PAGE_BYTES != 0 || bus_addr > UINT32_MAX - (size - 1u) || watermark >= size
        || (t->sink_ring_log2 != 0u && t->sink_ring_log2 < 32u
            && size > (UINT32_C(1) << t->sink_ring_log2))) /* beyond the sink's offsets */
        return -EINVAL;
    unlink_ring(dev, trace);
    r = wr(dev, o + JOINTER_SINK_CONTROL, 0u);
    if (r == 0)
        r = wait_idle(dev, t);
    if (r == 0)
        r = wr(dev, o + JOINTER_SINK_CONTROL, JOINTER_SINK_CONTROL_CLEAR);
    if (r == 0)
        r = wait_idle(dev, t);
    if (r == 0)
        r = wr(dev, o + JOINTER_SINK_BASE, bus_addr);
    if (r == 0)
        r = wr(dev, o + JOINTER_SINK_SIZE, size);
    if (r == 0)
        r = wr(dev, o + JOINTER_SINK_RPTR, 0u);
    if (r == 0)
        r = wr(dev, o + JOINTER_SINK_WATERMARK, watermark);
    if (r == 0)
        r = rd(dev, o + JOINTER_SINK_STATUS, &status);
    if (r < 0)
        return r;
    if (status & (JOINTER_SINK_STATUS_CONFIG_ERROR | JOINTER_SINK_STATUS_ERROR)) {
        LOG(dev, JOINTER_LOG_ERROR, -EIO, "sink: the ring was refused (STATUS.CONFIG_ERROR)");
        return -EIO;
    }
    ring->mem = mem;
    ring->bus_addr = bus_addr;
    ring->size = size;
    ring->rptr = 0;
    ring->trace = trace;
    jointer_compact_reset(&ring->compact);
    ring->next = dev->rings;
    dev->rings = ring;
    dev->sink_ops = &sink_ops;
    return wr(dev, o + JOINTER_SINK_CONTROL, JOINTER_SINK_CONTROL_ENABLE);
}

int jointer_sink_stop(jointer_dev *dev, unsigned trace)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);

    if (t == NULL)
        return r;
    r = wr(dev, t->reg_offset + JOINTER_SINK_CONTROL, 0u);
    return r == 0 ? wait_idle(dev, t) : r;
}

int jointer_sink_sync(jointer_dev *dev, unsigned trace, uint64_t (*now_ns)(void *ctx), void *ctx,
                      uint64_t *before_ns, uint64_t *after_ns)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);
    uint32_t ctl = 0;
    uint64_t before;

    if (t == NULL)
        return r;
    if (now_ns == NULL || before_ns == NULL || after_ns == NULL)
        return -EINVAL;
    if (!t->sync)
        return -ENOTSUP;
    r = rd(dev, t->reg_offset + JOINTER_SINK_CONTROL, &ctl);
    if (r < 0)
        return r;
    before = now_ns(ctx);
    r = wr(dev, t->reg_offset + JOINTER_SINK_CONTROL,
           (ctl & JOINTER_SINK_CONTROL_ENABLE) | JOINTER_SINK_CONTROL_SYNC);
    *after_ns = now_ns(ctx);
    *before_ns = before;
    return r;
}

int jointer_sink_detach(jointer_dev *dev, unsigned trace)
{
    int r;

    if (sink_of(dev, trace, &r) == NULL)
        return r;
    unlink_ring(dev, trace);
    return 0;
}

int jointer_sink_status(jointer_dev *dev, unsigned trace, uint32_t *status, uint32_t *wptr,
                        uint32_t *lost)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);

    if (status == NULL || wptr == NULL || lost == NULL)
        return -EINVAL;
    if (t == NULL)
        return r;
    r = rd(dev, t->reg_offset + JOINTER_SINK_STATUS, status);
    if (r == 0)
        r = rd(dev, t->reg_offset + JOINTER_SINK_WPTR, wptr);
    if (r == 0)
        r = rd(dev, t->reg_offset + JOINTER_SINK_LOST, lost);
    return r;
}

/* bytes the host may read: [rptr, wptr) modulo size; -EIO for a WPTR that
 * cannot be (outside the ring or not on a unit) */
static int pending(const jointer_dev *dev, const jointer_trace_desc *t, const jointer_sink_ring *ring,
                   uint32_t *bytes)
{
    uint32_t wptr;
    int r = rd(dev, t->reg_offset + JOINTER_SINK_WPTR, &wptr);

    if (r < 0)
        return r;
    if (wptr >= ring->size || wptr % UNIT_BYTES != 0) {
        LOG(dev, JOINTER_LOG_ERROR, -EIO, "sink: WPTR outside the ring");
        return -EIO;
    }
    *bytes = wptr >= ring->rptr ? wptr - ring->rptr : ring->size - ring->rptr + wptr;
    return 0;
}

static uint64_t unit_at(const jointer_sink_ring *ring, uint32_t off)
{
    const volatile uint32_t *w = (const volatile uint32_t *)(ring->mem + off);
    uint32_t lo = w[0], hi = w[1]; /* little-endian: bits 31..0 at the lower address */

    return (uint64_t)hi << 32 | lo;
}

static uint32_t sink_capacity(const jointer_dev *dev, unsigned trace)
{
    const jointer_sink_ring *ring = ring_of(dev, trace);
    uint32_t units = ring != NULL ? ring->size / UNIT_BYTES : 0u;

    return dev->cfg->traces[trace].encoding == JOINTER_ENCODING_COMPACT ? 3u * units : units;
}

static int sink_fill(jointer_dev *dev, unsigned trace, uint32_t *units, uint32_t *status)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);
    const jointer_sink_ring *ring = t != NULL ? ring_of(dev, trace) : NULL;
    uint32_t bytes;

    if (t == NULL)
        return r;
    if (ring == NULL)
        return -ENOTCONN; /* not started: no ring */
    r = pending(dev, t, ring, &bytes);
    if (r == 0)
        r = rd(dev, t->reg_offset + JOINTER_SINK_STATUS, status);
    *units = bytes / UNIT_BYTES;
    return r;
}

static int sink_drain(jointer_dev *dev, unsigned trace, jointer_trace_record *out,
                      uint32_t max, uint32_t *count)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);
    jointer_sink_ring *ring = t != NULL ? ring_of(dev, trace) : NULL;
    uint32_t bytes, n = 0, rptr;
    jointer_compact_state st;

    if (t == NULL)
        return r;
    if (ring == NULL)
        return -ENOTCONN;
    st = ring->compact; /* committed with RPTR: a failed write decodes them again */
    r = pending(dev, t, ring, &bytes);
    if (r < 0 || bytes == 0)
        return r;
    ring_barrier(); /* the units up to WPTR are in memory: read them after WPTR */
    rptr = ring->rptr;
    for (; bytes != 0 && n < max; bytes -= UNIT_BYTES) {
        uint64_t unit = unit_at(ring, rptr);

        if (t->encoding == JOINTER_ENCODING_COMPACT) {
            uint32_t got = 0;

            r = jointer_compact_decode(&st, &unit, 1u, out + n, max - n, &got, NULL);
            if (r < 0) {
                LOG(dev, JOINTER_LOG_ERROR, r, "sink: malformed compact unit");
                jointer_compact_reset(&st); /* resume at the next SYNC */
                got = 0;
                r = 1;
            }
            if (r == 0)
                break; /* its records do not fit: the next drain decodes it */
            n += got;
        } else {
            out[n].timestamp = (uint32_t)unit;
            out[n].data = (uint32_t)(unit >> 32);
            n++;
        }
        rptr = rptr + UNIT_BYTES == ring->size ? 0u : rptr + UNIT_BYTES;
    }
    if (rptr == ring->rptr)
        return 0;
    ring_barrier(); /* the units were read before the sink may write there again */
    r = wr(dev, t->reg_offset + JOINTER_SINK_RPTR, rptr);
    if (r < 0)
        return r;
    ring->rptr = rptr;
    ring->compact = st;
    *count = n;
    return 0;
}

/* ---- the units themselves: what a trace file of encoding 1 stores ----------- */

int jointer_sink_drain_units(jointer_dev *dev, unsigned trace, uint64_t *out, uint32_t max,
                             uint32_t *count)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);
    jointer_sink_ring *ring = t != NULL ? ring_of(dev, trace) : NULL;
    uint32_t bytes, n, rptr;

    if (count == NULL || (out == NULL && max != 0))
        return -EINVAL;
    *count = 0;
    if (t == NULL)
        return r;
    if (ring == NULL)
        return -ENOTCONN;
    r = pending(dev, t, ring, &bytes);
    if (r < 0 || bytes == 0 || max == 0)
        return r;
    ring_barrier(); /* the units up to WPTR are in memory: read them after WPTR */
    rptr = ring->rptr;
    for (n = 0; n < bytes / UNIT_BYTES && n < max; n++) {
        out[n] = unit_at(ring, rptr);
        rptr = rptr + UNIT_BYTES == ring->size ? 0u : rptr + UNIT_BYTES;
    }
    ring_barrier(); /* the units were read before the sink may write there again */
    r = wr(dev, t->reg_offset + JOINTER_SINK_RPTR, rptr);
    if (r < 0)
        return r; /* nothing released: the next drain copies them again */
    ring->rptr = rptr;
    jointer_compact_reset(&ring->compact); /* a decoded drain after this resumes at a SYNC */
    *count = n;
    return 0;
}

/* jointer_sink_relay_units' pass: units into the caller's buffer, then its sink */
typedef struct {
    uint64_t *buf;
    uint32_t max;
    jointer_unit_sink sink;
    void *ctx;
} unit_step;

static int unit_pass(jointer_dev *dev, unsigned trace, void *step, uint32_t *n)
{
    const unit_step *s = step;
    int r = jointer_sink_drain_units(dev, trace, s->buf, s->max, n);

    if (r < 0)
        *n = 0; /* nothing passed on */
    if (r < 0 || *n == 0)
        return r;
    return s->sink(s->ctx, s->buf, *n);
}

int jointer_sink_relay_units(jointer_dev *dev, unsigned trace, uint64_t *buf, uint32_t max,
                             int timeout_ms, jointer_unit_sink sink, void *ctx, uint64_t *units)
{
    int r;
    const jointer_trace_desc *t = sink_of(dev, trace, &r);
    const jointer_sink_ring *ring = t != NULL ? ring_of(dev, trace) : NULL;
    unit_step step = {buf, max, sink, ctx};

    if (buf == NULL || max == 0 || sink == NULL || units == NULL)
        return -EINVAL;
    if (t == NULL)
        return r;
    if (ring == NULL)
        return -ENOTCONN;
    return jointer__relay(dev, t, trace, timeout_ms, 4u * (ring->size / UNIT_BYTES), unit_pass,
                          &step, units);
}
