// SPDX-License-Identifier: MIT
/*
 * jointer_control.c - CONTROL: filter bounds (the INIT sequence), modes,
 * run, stop, soft reset, STATUS (doc/design.md "Control"). One CONTROL write
 * per action, from the per-LMIC shadow.
 */
#include "jointer_internal.h"

/* whether DCAPF `dcapf` of sniffer s (descriptor index) has a filter, as its
 * metric or trace descriptor says (a DCAPF no descriptor names has none) */
static int has_filter(const jointer_cfg *cfg, unsigned s, unsigned dcapf)
{
    unsigned i;
    for (i = 0; i < cfg->num_metrics; i++)
        if (cfg->metrics[i].sniffer == s && cfg->metrics[i].dcapf == dcapf)
            return (cfg->metrics[i].flags & JOINTER_METRIC_FILTER) != 0;
    for (i = 0; i < cfg->num_traces; i++)
        if (cfg->traces[i].sniffer == s && cfg->traces[i].dcapf == dcapf)
            return cfg->traces[i].filter != 0;
    return 0;
}

static int control(jointer_dev *dev, unsigned lmic, uint32_t value)
{
    int r = wr(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_CONTROL, value);
    if (r < 0) {
        LOG(dev, JOINTER_LOG_ERROR, r, "CONTROL write failed");
    } else {
        dev->control[lmic] = value & ~JOINTER_CONTROL_SOFT_RESET;
        dev->pending[lmic] = 0;
    }
    return r;
}

/*
 * A device other processes may drive too (a port with a lock: UIO, /dev/mem)
 * is locked around each CONTROL action, and its shadow becomes the hardware's
 * CONTROL first, but for this device's pending PROG fields: another
 * process's run, stop and modes are kept, never overwritten from a stale
 * shadow. Without a lock (bare metal, ops seams) the shadow is the truth and
 * an action is one write.
 */
static int enter(jointer_dev *dev, unsigned lmic)
{
    uint32_t hw, keep = dev->pending[lmic];
    int r;

    if (dev->port.lock == NULL)
        return 0;
    r = dev->port.lock(&dev->port, 1);
    if (r < 0)
        return r;
    r = rd(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_CONTROL, &hw);
    if (r < 0) {
        (void)dev->port.lock(&dev->port, 0);
        return r;
    }
    dev->control[lmic] = (hw & ~JOINTER_CONTROL_SOFT_RESET & ~keep) | (dev->control[lmic] & keep);
    return 0;
}

static int leave(jointer_dev *dev, int r)
{
    if (dev->port.lock != NULL)
        (void)dev->port.lock(&dev->port, 0);
    return r;
}

/* enter, one CONTROL write of the shadow with `set` and without `clear`, leave */
static int action(jointer_dev *dev, unsigned lmic, uint32_t set, uint32_t clear)
{
    int r = enter(dev, lmic);
    if (r < 0)
        return r;
    return leave(dev, control(dev, lmic, (dev->control[lmic] & ~clear) | set));
}

static uint32_t with_prog(uint32_t ctl, unsigned sniffer, uint32_t mode)
{
    return (ctl & ~JOINTER_PROG_MASK(sniffer)) | (mode << JOINTER_PROG_SHIFT(sniffer));
}

/* the largest bound a sniffer's filters hold: its event data's all-ones (at least 32 bits) */
static uint64_t bound_max(const jointer_sniffer_desc *sd)
{
    return sd->data_width > 32u && sd->data_width < 64u ? (UINT64_C(1) << sd->data_width) - 1u
           : sd->data_width >= 64u ? UINT64_MAX : UINT64_C(0xFFFFFFFF);
}

int jointer_initialize(jointer_dev *dev, unsigned lmic, unsigned sniffer,
                       unsigned dcapf, uint64_t low, uint64_t high)
{
    int s = sniffer_index(dev, lmic, sniffer);
    const jointer_sniffer_desc *sd;
    uint32_t *b, init, k, n, w, words[4];
    int r;

    if (s < 0 || dcapf >= dev->cfg->sniffers[s].num_dcapfs)
        return -EINVAL;
    sd = &dev->cfg->sniffers[s];
    if (!has_filter(dev->cfg, (unsigned)s, dcapf))
        return -ENOTSUP; /* filter: none: the DCAPF ignores its INIT words */
    if (low > high || high > bound_max(sd))
        return -ERANGE; /* empty, or wider than the data it compares (a cut bound) */
    if (dev->bounds == NULL)
        return -ENOBUFS;
    b = dev->bounds + first_bound_word(dev->cfg, (unsigned)s);
    w = jointer_init_words(sd);
    n = 2u * w * dcapf; /* INIT words before this DCAPF's */
    jointer__bound_words(words, w, low, high);
    init = dev->cfg->lmics[lmic].base + JOINTER_LMIC_INIT(sniffer);
    r = enter(dev, lmic);
    if (r < 0)
        return r;
    /* (1) enter INIT: restarts the sniffer's INIT pointer */
    r = control(dev, lmic, with_prog(dev->control[lmic], sniffer, JOINTER_INIT));
    /* (2) DCAPFs 0..dcapf-1 from the cache, then low then high (w words each) */
    for (k = 0; r == 0 && k < n + 2u * w; k++)
        r = wr(dev, init, k < n ? b[k] : words[k - n]);
    if (r < 0) {
        LOG(dev, JOINTER_LOG_ERROR, r, "jointer_initialize: bus write failed");
        return leave(dev, r);
    }
    for (k = 0; k < 2u * w; k++)
        b[n + k] = words[k];
    /* (3) no bus write: the next CONTROL write starts it FILTERING */
    dev->control[lmic] = with_prog(dev->control[lmic], sniffer, JOINTER_FILTERING);
    dev->pending[lmic] |= JOINTER_PROG_MASK(sniffer);
    return leave(dev, 0);
}

int jointer_set_mode(jointer_dev *dev, unsigned lmic, unsigned sniffer, jointer_mode mode)
{
    if (sniffer_index(dev, lmic, sniffer) < 0 || (unsigned)mode > 3u)
        return -EINVAL;
    return action(dev, lmic, (uint32_t)mode << JOINTER_PROG_SHIFT(sniffer), JOINTER_PROG_MASK(sniffer));
}

int jointer_get_mode(const jointer_dev *dev, unsigned lmic, unsigned sniffer, jointer_mode *mode)
{
    if (sniffer_index(dev, lmic, sniffer) < 0 || mode == NULL)
        return -EINVAL;
    *mode = (jointer_mode)((dev->control[lmic] >> JOINTER_PROG_SHIFT(sniffer)) & 3u);
    return 0;
}

int jointer_run(jointer_dev *dev, unsigned lmic)
{
    if (!lmic_ok(dev, lmic))
        return -EINVAL;
    return action(dev, lmic, JOINTER_CONTROL_RUN, 0u);
}

int jointer_stop(jointer_dev *dev, unsigned lmic)
{
    if (!lmic_ok(dev, lmic))
        return -EINVAL;
    return action(dev, lmic, 0u, JOINTER_CONTROL_RUN);
}

int jointer_reset(jointer_dev *dev, unsigned lmic)
{
    if (!lmic_ok(dev, lmic))
        return -EINVAL;
    return action(dev, lmic, JOINTER_CONTROL_SOFT_RESET, 0u);
}

int jointer_status(jointer_dev *dev, unsigned lmic, uint32_t *status)
{
    if (!lmic_ok(dev, lmic) || status == NULL)
        return -EINVAL;
    return rd(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_STATUS, status);
}
