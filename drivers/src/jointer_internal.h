/* SPDX-License-Identifier: MIT */
/*
 * jointer_internal.h - register access and helpers shared by the core's
 * modules (jointer.c, jointer_check.c, jointer_control.c, jointer_results.c,
 * jointer_irq.c, jointer_ident.c, jointer_trace.c ...). Not installed; not
 * part of the API.
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

/* ---- helpers of the core's modules (jointer.c, jointer_control.c ...) ---- */

static inline uint32_t words_of(uint32_t width)
{
    return (width + 31u) >> 5;
}

static inline int lmic_ok(const jointer_dev *dev, unsigned lmic)
{
    return ready(dev) && lmic < dev->cfg->num_lmics;
}

/* the sniffer's descriptor index, or -1 */
static inline int sniffer_index(const jointer_dev *dev, unsigned lmic, unsigned sniffer)
{
    if (!lmic_ok(dev, lmic) || sniffer >= dev->cfg->lmics[lmic].num_sniffers)
        return -1;
    return (int)(dev->cfg->lmics[lmic].first_sniffer + sniffer);
}

/* INIT words of sniffer s's DCAPFs (2 bounds each, jointer_init_words per bound) */
static inline uint32_t dcapf_init_words(const jointer_cfg *cfg, unsigned s)
{
    return 2u * jointer_init_words(&cfg->sniffers[s]) * cfg->sniffers[s].num_dcapfs;
}

/* first bounds-cache word of a sniffer (descriptor index; s = num_sniffers: the
 * cache's size): the cache holds every sniffer's DCAPF INIT words in order */
static inline uint32_t first_bound_word(const jointer_cfg *cfg, unsigned s)
{
    uint32_t n = 0;
    unsigned i;
    for (i = 0; i < s; i++)
        n += dcapf_init_words(cfg, i);
    return n;
}

/* one DCAPF's bounds as its 2 * w INIT words (jointer.c) */
void jointer__bound_words(uint32_t *b, unsigned w, uint64_t low, uint64_t high);

/* the descriptor check of jointer_init (jointer_check.c): 0 or -EINVAL */
int jointer__check_cfg(const jointer_cfg *cfg);

/* sink traces (jointer_sink.c), reached from jointer_trace.c through
 * dev->sink_ops (set by jointer_sink_start), so that a program that never
 * starts a sink does not link the sink's code nor the compact decoder */
typedef struct jointer_sink_ops {
    /* units pending in the ring and STATUS */
    int (*fill)(jointer_dev *dev, unsigned trace, uint32_t *units, uint32_t *status);
    /* the drain of a relay trace, from the ring */
    int (*drain)(jointer_dev *dev, unsigned trace, jointer_trace_record *out, uint32_t max,
                 uint32_t *count);
    /* records the attached ring can hold (3 per unit when compact), 0 without one */
    uint32_t (*capacity)(const jointer_dev *dev, unsigned trace);
} jointer_sink_ops;

/* One relay step, shared by jointer_trace_relay (records) and
 * jointer_sink_relay_units (units): wait for the trace's IRQ (a timeout is
 * no error) and acknowledge it, then call `pass` until one finds nothing or
 * `budget` entries went by (a producer faster than the drain gives the
 * caller back control). `pass` drains into the caller's buffer and hands the
 * entries to its sink; it sets *n to the entries drained (also when the sink
 * then refuses: they count in *count) and returns the drain's error or the
 * sink's non-zero return, which ends the step. */
typedef int (*jointer__relay_pass)(jointer_dev *dev, unsigned trace, void *step, uint32_t *n);
int jointer__relay(jointer_dev *dev, const jointer_trace_desc *t, unsigned trace, int timeout_ms,
                   uint32_t budget, jointer__relay_pass pass, void *step, uint64_t *count);

#endif /* JOINTER_INTERNAL_H */
