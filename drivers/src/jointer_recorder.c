// SPDX-License-Identifier: MIT
/*
 * jointer_recorder.c - the access recorder (see jointer_recorder.h).
 */
#include "jointer_recorder.h"

static void note(jointer_recorder *rec, uint8_t write, uint32_t off, uint32_t v, int r)
{
    if (rec->log != NULL && rec->count < rec->capacity) {
        jointer_access *a = &rec->log[rec->count];
        a->offset = off;
        a->value = v;
        a->result = r;
        a->write = write;
    }
    rec->count++;
    if (write)
        rec->writes++;
    else
        rec->reads++;
}

static int rec_read(void *ctx, uint32_t off, uint32_t *v)
{
    jointer_recorder *rec = ctx;
    int r;

    *v = 0;
    if (rec->inner.base != NULL) {
        *v = *(volatile uint32_t *)((volatile uint8_t *)rec->inner.base + off);
        r = 0;
    } else {
        r = rec->inner.ops->read32(rec->inner.ctx, off, v);
    }
    note(rec, 0, off, *v, r);
    return r;
}

static int rec_write(void *ctx, uint32_t off, uint32_t v)
{
    jointer_recorder *rec = ctx;
    int r;

    if (rec->inner.base != NULL) {
        *(volatile uint32_t *)((volatile uint8_t *)rec->inner.base + off) = v;
        r = 0;
    } else {
        r = rec->inner.ops->write32(rec->inner.ctx, off, v);
    }
    note(rec, 1, off, v, r);
    return r;
}

static int rec_wait(void *ctx, int timeout_ms)
{
    jointer_recorder *rec = ctx;
    if (rec->inner.ops == NULL || rec->inner.ops->wait_irq == NULL)
        return -ENOTSUP;
    return rec->inner.ops->wait_irq(rec->inner.ctx, timeout_ms);
}

static const jointer_io_ops rec_ops = {rec_read, rec_write, rec_wait};
static const jointer_io_ops rec_ops_nowait = {rec_read, rec_write, NULL};

int jointer_recorder_init(jointer_recorder *rec, const jointer_io *inner,
                          jointer_access *log, uint32_t capacity, jointer_io *io)
{
    if (rec == NULL || inner == NULL || io == NULL
        || (inner->base == NULL && (inner->ops == NULL || inner->ops->read32 == NULL
                                    || inner->ops->write32 == NULL)))
        return -EINVAL;
    rec->inner = *inner;
    rec->log = log;
    rec->capacity = log != NULL ? capacity : 0u;
    jointer_recorder_clear(rec);
    /* keep polling semantics when the inner seam cannot wait */
    *io = jointer_io_from_ops(inner->ops != NULL && inner->ops->wait_irq != NULL ? &rec_ops
                                                                                 : &rec_ops_nowait, rec);
    return 0;
}

void jointer_recorder_clear(jointer_recorder *rec)
{
    if (rec != NULL) {
        rec->count = 0;
        rec->reads = 0;
        rec->writes = 0;
    }
}
