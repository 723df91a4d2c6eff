// SPDX-License-Identifier: MIT
/*
 * jointer.c - libjointer core: control, results, thresholds, traces,
 * interrupts, self-test. No OS header, no allocation, no printing.
 *
 * Every register address is base + an offset taken from the descriptor
 * (jointer_desc.h); nothing here computes layout.
 */
#include "jointer_internal.h"

void jointer__say(const jointer_dev *dev, int level, int err, const char *msg)
{
    if (dev->log != NULL)
        dev->log(dev->log_ctx, level, err, msg);
}


static uint32_t words_of(uint32_t width)
{
    return (width + 31u) >> 5;
}

static int lmic_ok(const jointer_dev *dev, unsigned lmic)
{
    return ready(dev) && lmic < dev->cfg->num_lmics;
}

/* the sniffer's descriptor index, or -1 */
static int sniffer_index(const jointer_dev *dev, unsigned lmic, unsigned sniffer)
{
    if (!lmic_ok(dev, lmic) || sniffer >= dev->cfg->lmics[lmic].num_sniffers)
        return -1;
    return (int)(dev->cfg->lmics[lmic].first_sniffer + sniffer);
}

/* first bounds-cache word pair of a sniffer (descriptor index) */
static uint32_t first_dcapf(const jointer_cfg *cfg, unsigned s)
{
    uint32_t n = 0;
    unsigned i;
    for (i = 0; i < s; i++)
        n += cfg->sniffers[i].num_dcapfs;
    return n;
}

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

/* ---- descriptor check -------------------------------------------------- */

static int fits(const jointer_cfg *cfg, uint32_t off, uint32_t bytes)
{
    return (off & 3u) == 0 && off < cfg->span && bytes <= cfg->span - off;
}

/* What the driver relies on to stay inside its arrays, its shifts and the
 * mapped span (widths need no check: at most 2 words are ever accessed and
 * fits() covers ceil(width/32) of them). */
static int check_cfg(const jointer_cfg *cfg)
{
    unsigned i;

    if (cfg->num_lmics == 0 || cfg->num_lmics > JOINTER_MAX_LMICS || cfg->lmics == NULL
        || cfg->sniffers == NULL || (cfg->num_metrics != 0 && cfg->metrics == NULL)
        || (cfg->num_traces != 0 && cfg->traces == NULL) || !fits(cfg, 0, 4u * 10u))
        return -EINVAL;
    for (i = 0; i < cfg->num_lmics; i++) {
        const jointer_lmic_desc *l = &cfg->lmics[i];
        if (!fits(cfg, l->base, 16u + 4u * l->num_sniffers)
            || l->num_sniffers > JOINTER_MAX_SNIFFERS_PER_LMIC
            || (uint32_t)l->first_sniffer + l->num_sniffers > cfg->num_sniffers)
            return -EINVAL;
    }
    for (i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *m = &cfg->metrics[i];
        uint32_t bytes = 4u * words_of(m->width);
        /* a histogram: buckets x words, no threshold */
        uint32_t nres = m->buckets > 1u ? m->buckets : 1u;
        int multi = m->aggregator == JOINTER_AGGREGATOR_HISTOGRAM || m->aggregator == JOINTER_AGGREGATOR_MEAN;
        if (multi != (m->buckets > 1u) || m->buckets > 64u
            || (m->aggregator == JOINTER_AGGREGATOR_MEAN && m->buckets != 2u)
            || (m->buckets > 1u && (m->flags & JOINTER_METRIC_THRESHOLD)))
            return -EINVAL;
        if (m->sniffer >= cfg->num_sniffers
            || m->dcapf >= cfg->sniffers[m->sniffer].num_dcapfs
            || !fits(cfg, m->result_offset, bytes * nres)
            || ((m->flags & JOINTER_METRIC_THRESHOLD) && !fits(cfg, m->threshold_offset, bytes)))
            return -EINVAL;
    }
    for (i = 0; i < cfg->num_traces; i++) {
        const jointer_trace_desc *t = &cfg->traces[i];
        if (t->sniffer >= cfg->num_sniffers || t->dcapf >= cfg->sniffers[t->sniffer].num_dcapfs
            || (t->sink_bytes == 0 && (t->depth == 0 || t->depth > (1u << 26))) /* a sink has no RAM */
            || !fits(cfg, t->reg_offset, t->sink_bytes != 0 ? 32u : 20u)
            || !fits(cfg, t->ram_offset, 8u * t->depth))
            return -EINVAL;
    }
    return 0;
}

/* ---- set-up ------------------------------------------------------------ */

int jointer_init(jointer_dev *dev, const jointer_cfg *cfg, const jointer_io *io)
{
    unsigned char *p = (unsigned char *)dev;
    unsigned i;
    int r;

    if (dev == NULL)
        return -EINVAL;
    for (i = 0; i < sizeof *dev; i++) /* no hook, no port, no bounds, not ready */
        p[i] = 0;
    if (cfg == NULL || io == NULL
        || (io->base == NULL && (io->ops == NULL || io->ops->read32 == NULL || io->ops->write32 == NULL))
        || check_cfg(cfg) != 0)
        return -EINVAL;
    dev->base = io->base;
    dev->ops = io->ops;
    dev->ctx = io->ctx;
    dev->metrics = cfg->metrics;
    for (i = 0; i < cfg->num_lmics; i++) {
        r = rd(dev, cfg->lmics[i].base + JOINTER_LMIC_CONTROL, &dev->control[i]);
        if (r < 0)
            return r;
        dev->control[i] &= ~JOINTER_CONTROL_SOFT_RESET;
    }
    r = rd(dev, JOINTER_REG_IRQ_ENABLE, &dev->irq_enable);
    if (r < 0)
        return r;
    dev->cfg = cfg;
    dev->fast_metrics = dev->base != NULL ? cfg->num_metrics : 0u;
    return 0;
}

int jointer_attach_bounds(jointer_dev *dev, uint32_t *bounds, uint32_t words)
{
    const jointer_cfg *cfg;
    unsigned i;
    uint32_t n;

    if (!ready(dev) || bounds == NULL)
        return -EINVAL;
    cfg = dev->cfg;
    n = 2u * first_dcapf(cfg, cfg->num_sniffers); /* every DCAPF of the monitor */
    if (words < n)
        return -ENOBUFS;
    for (i = 0; i < n; i++)
        bounds[i] = (i & 1u) ? 0xFFFFFFFFu : 0u;
    for (i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *m = &cfg->metrics[i];
        uint32_t k = 2u * (first_dcapf(cfg, m->sniffer) + m->dcapf);
        bounds[k] = m->low_reset;
        bounds[k + 1u] = m->high_reset;
    }
    for (i = 0; i < cfg->num_traces; i++) {
        const jointer_trace_desc *t = &cfg->traces[i];
        uint32_t k = 2u * (first_dcapf(cfg, t->sniffer) + t->dcapf);
        bounds[k] = t->low_reset;
        bounds[k + 1u] = t->high_reset;
    }
    dev->bounds = bounds;
    dev->bounds_words = words;
    return 0;
}

void jointer_set_log(jointer_dev *dev, jointer_log_fn fn, void *ctx)
{
    if (dev != NULL) {
        dev->log = fn;
        dev->log_ctx = ctx;
    }
}

void jointer_set_clock(jointer_dev *dev, jointer_clock_fn fn, void *ctx)
{
    if (dev != NULL) {
        dev->clock = fn;
        dev->clock_ctx = ctx;
    }
}

int jointer_close(jointer_dev *dev)
{
    int r = 0;

    if (dev == NULL)
        return -EINVAL;
    if (dev->port.close != NULL)
        r = dev->port.close(&dev->port);
    dev->port.close = NULL;
    dev->cfg = NULL;
    dev->fast_metrics = 0;
    dev->bounds = NULL;
    return r;
}

/* ---- control ----------------------------------------------------------- */

static int control(jointer_dev *dev, unsigned lmic, uint32_t value)
{
    int r = wr(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_CONTROL, value);
    if (r < 0)
        LOG(dev, JOINTER_LOG_ERROR, r, "CONTROL write failed");
    else
        dev->control[lmic] = value & ~JOINTER_CONTROL_SOFT_RESET;
    return r;
}

static uint32_t with_prog(uint32_t ctl, unsigned sniffer, uint32_t mode)
{
    return (ctl & ~JOINTER_PROG_MASK(sniffer)) | (mode << JOINTER_PROG_SHIFT(sniffer));
}

int jointer_initialize(jointer_dev *dev, unsigned lmic, unsigned sniffer,
                       unsigned dcapf, uint32_t low, uint32_t high)
{
    int s = sniffer_index(dev, lmic, sniffer);
    uint32_t *b, init, k;
    int r;

    if (s < 0 || dcapf >= dev->cfg->sniffers[s].num_dcapfs)
        return -EINVAL;
    if (!has_filter(dev->cfg, (unsigned)s, dcapf))
        return -ENOTSUP; /* filter: none: the DCAPF ignores its INIT words */
    if (low > high)
        return -ERANGE;
    if (dev->bounds == NULL)
        return -ENOBUFS;
    b = dev->bounds + 2u * first_dcapf(dev->cfg, (unsigned)s);
    init = dev->cfg->lmics[lmic].base + JOINTER_LMIC_INIT(sniffer);
    /* (1) enter INIT: restarts the sniffer's INIT pointer */
    r = control(dev, lmic, with_prog(dev->control[lmic], sniffer, JOINTER_INIT));
    /* (2) DCAPF k: low then high; the earlier DCAPFs from the cache */
    for (k = 0; r == 0 && k < 2u * dcapf; k++)
        r = wr(dev, init, b[k]);
    if (r == 0)
        r = wr(dev, init, low);
    if (r == 0)
        r = wr(dev, init, high);
    if (r < 0) {
        LOG(dev, JOINTER_LOG_ERROR, r, "jointer_initialize: bus write failed");
        return r;
    }
    b[2u * dcapf] = low;
    b[2u * dcapf + 1u] = high;
    /* (3) no bus write: the next CONTROL write starts it FILTERING */
    dev->control[lmic] = with_prog(dev->control[lmic], sniffer, JOINTER_FILTERING);
    return 0;
}

int jointer_set_mode(jointer_dev *dev, unsigned lmic, unsigned sniffer, jointer_mode mode)
{
    if (sniffer_index(dev, lmic, sniffer) < 0 || (unsigned)mode > 3u)
        return -EINVAL;
    return control(dev, lmic, with_prog(dev->control[lmic], sniffer, (uint32_t)mode));
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
    return control(dev, lmic, dev->control[lmic] | JOINTER_CONTROL_RUN);
}

int jointer_stop(jointer_dev *dev, unsigned lmic)
{
    if (!lmic_ok(dev, lmic))
        return -EINVAL;
    return control(dev, lmic, dev->control[lmic] & ~JOINTER_CONTROL_RUN);
}

int jointer_reset(jointer_dev *dev, unsigned lmic)
{
    if (!lmic_ok(dev, lmic))
        return -EINVAL;
    return control(dev, lmic, dev->control[lmic] | JOINTER_CONTROL_SOFT_RESET);
}

int jointer_status(jointer_dev *dev, unsigned lmic, uint32_t *status)
{
    if (!lmic_ok(dev, lmic) || status == NULL)
        return -EINVAL;
    return rd(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_STATUS, status);
}

/* ---- results ------------------------------------------------------------ */

/* LSW first (it snapshots the upper word), then the upper word */
static int read_words(const jointer_dev *dev, uint32_t off, uint32_t width, uint64_t *value)
{
    uint32_t lo, hi = 0;
    int r = rd(dev, off, &lo);
    if (r == 0 && width > 32u)
        r = rd(dev, off + 4u, &hi);
    if (r == 0)
        *value = ((uint64_t)hi << 32) | lo;
    return r;
}

int jointer_read_slow(jointer_dev *dev, unsigned metric, uint64_t *value)
{
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

/* ---- interrupts ----------------------------------------------------------- */

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
    r = wr(dev, dev->cfg->lmics[lmic].base + JOINTER_LMIC_IRQ_ENABLE, mask);
    g = mask != 0 ? dev->irq_enable | (1u << lmic) : dev->irq_enable & ~(1u << lmic);
    if (r == 0)
        r = wr(dev, JOINTER_REG_IRQ_ENABLE, g);
    if (r == 0)
        dev->irq_enable = g;
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

/* ---- identity -------------------------------------------------------------- */

int jointer_identify(jointer_dev *dev, jointer_ident *found)
{
    int r;

    if (!ready(dev) || found == NULL)
        return -EINVAL;
    r = rd(dev, JOINTER_REG_ID, &found->id);
    if (r == 0)
        r = rd(dev, JOINTER_REG_VERSION, &found->version);
    if (r == 0)
        r = rd(dev, JOINTER_REG_CONFIG_HASH, &found->config_hash);
    if (r == 0)
        r = rd(dev, JOINTER_REG_INFO, &found->info);
    return r;
}

static int scratch(jointer_dev *dev, uint32_t pattern)
{
    uint32_t v = ~pattern;
    int r = wr(dev, JOINTER_REG_SCRATCH, pattern);
    if (r == 0)
        r = rd(dev, JOINTER_REG_SCRATCH, &v);
    if (r == 0 && v != pattern)
        r = -EIO;
    return r;
}

int jointer_selftest(jointer_dev *dev, unsigned flags, jointer_ident *found)
{
    jointer_ident id;
    uint32_t old, log2w = 0;
    int r, r2;


    if (!ready(dev))
        return -EINVAL;
    r = jointer_identify(dev, &id);
    if (found != NULL)
        *found = id;
    if (r < 0)
        return r;
    if (id.id != JOINTER_ID_VALUE) {
        LOG(dev, JOINTER_LOG_ERROR, -ENODEV, "selftest: ID is not JNTR (no jointer monitor here)");
        return -ENODEV;
    }
    while ((2u << log2w) <= dev->cfg->window)
        log2w++;
    if ((id.version >> 16) != (dev->cfg->version >> 16))
        r = -EPROTONOSUPPORT;
    else if (id.config_hash != dev->cfg->config_hash
             || (id.info & 0xFFFFu) != (dev->cfg->num_lmics | log2w << 8)
             || (id.info & JOINTER_INFO_FEATURES) != (dev->cfg->info & JOINTER_INFO_FEATURES))
        r = -ESTALE;
    if (r < 0) {
        LOG(dev, (flags & JOINTER_FORCE) ? JOINTER_LOG_WARN : JOINTER_LOG_ERROR, r,
            r == -ESTALE ? "selftest: CONFIG_HASH/INFO differ: the monitor was built from another configuration"
                         : "selftest: VERSION major differs from the driver's");
        if (!(flags & JOINTER_FORCE))
            return r;
    }
    if ((flags & JOINTER_SELFTEST_NO_WRITE) || !(dev->cfg->info & JOINTER_INFO_SCRATCH))
        return 0;
    r = rd(dev, JOINTER_REG_SCRATCH, &old);
    if (r < 0)
        return r;
    r = scratch(dev, 0xA5A5A5A5u);
    if (r == 0)
        r = scratch(dev, 0x5A5A5A5Au);
    r2 = wr(dev, JOINTER_REG_SCRATCH, old);
    if (r == 0)
        r = r2;
    if (r < 0)
        LOG(dev, JOINTER_LOG_ERROR, r, "selftest: SCRATCH does not hold its value");
    return r;
}

/* ---- errors ------------------------------------------------------------------ */

const char *jointer_strerror(int err)
{
    static const struct { int code; const char *text; } tab[] = {
        {0, "success"},
        {EINVAL, "invalid argument (index out of range for this monitor, NULL pointer, bad or truncated descriptor)"},
        {ERANGE, "value out of range (wider than the metric, low > high, beyond the trace depth)"},
        {ENOBUFS, "no bounds cache attached (jointer_attach_bounds) or too small"},
        {ENOTSUP, "not supported by this metric or device (no threshold, no filter, no TIMESTAMP/MARK register)"},
        {EIO, "bus error or inconsistent register value"},
        {ETIMEDOUT, "timed out waiting for the interrupt"},
        {ENODEV, "no jointer monitor there (ID register is not JNTR)"},
        {EPROTONOSUPPORT, "hardware VERSION or descriptor file format not supported by this driver"},
        {ESTALE, "config hash mismatch: the monitor was built from another configuration"},
        {ENOENT, "no such device or name"},
        {EACCES, "permission denied"},
        {EBADF, "device not open"},
        {EILSEQ, "not a jointer descriptor file (no JDSC magic)"},
        {EBADMSG, "descriptor file damaged (CRC mismatch)"},
        {ENOSPC, "descriptor arena too small (jointer_descfile_arena_size)"},
        {EFBIG, "descriptor file too large (more than 1 MiB)"},
    };
    unsigned i;

    if (err < 0)
        err = -err;
    for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].code == err)
            return tab[i].text;
    return "unknown error";
}
