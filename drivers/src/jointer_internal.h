/*
 * jointer_internal.h - register access shared by the core's modules
 * (jointer.c, jointer_trace.c). Not installed; not part of the API.
 */
#ifndef JOINTER_INTERNAL_H
#define JOINTER_INTERNAL_H

#include "jointer.h"

void jointer__say(const jointer_dev *dev, int level, int err, const char *msg);
#define LOG jointer__say

static inline int rd(const jointer_dev *dev, uint32_t off, uint32_t *v)
{
    if (dev->base != NULL) {
        *v = *(volatile uint32_t *)((volatile uint8_t *)dev->base + off);
        return 0;
    }
    return dev->ops->read32(dev->ctx, off, v);
}

static inline int wr(const jointer_dev *dev, uint32_t off, uint32_t v)
{
    if (dev->base != NULL) {
        *(volatile uint32_t *)((volatile uint8_t *)dev->base + off) = v;
        return 0;
    }
    return dev->ops->write32(dev->ctx, off, v);
}

static inline int ready(const jointer_dev *dev)
{
    return dev != NULL && dev->cfg != NULL;
}

#endif /* JOINTER_INTERNAL_H */
