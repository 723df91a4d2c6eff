// SPDX-License-Identifier: MIT
/*
 * jointer_mock.c - the emulated monitor (see jointer_mock.h).
 */
#include <string.h>

#include "jointer_mock.h"

static uint32_t first_dcapf(const jointer_cfg *cfg, unsigned s)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < s; i++)
        n += cfg->sniffers[i].num_dcapfs;
    return n;
}

static uint64_t max_of(unsigned width)
{
    return width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
}

static uint64_t reset_value(const jointer_metric_desc *md)
{
    return md->aggregator == JOINTER_AGGREGATOR_MIN ? max_of(md->width) : 0;
}

void mock_init(mock_hw *m, const jointer_cfg *cfg)
{
    memset(m, 0, sizeof *m);
    m->cfg = cfg;
    m->id = JOINTER_ID_VALUE;
    m->version = cfg->version;
    m->config_hash = cfg->config_hash;
    unsigned log2w = 0;
    while ((2u << log2w) <= cfg->window)
        log2w++;
    m->info = cfg->num_lmics | (log2w << 8)
              | (cfg->info & JOINTER_INFO_FEATURES);
    m->ts_step = 1;
    m->mark_sniffer = -1;
    m->fail_after = -1;
    m->fail_code = -EIO;
    for (unsigned i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *md = &cfg->metrics[i];
        uint32_t k = first_dcapf(cfg, md->sniffer) + md->dcapf;
        m->low[k] = md->low_reset;
        m->high[k] = md->high_reset;
        m->filter[k] = (md->flags & JOINTER_METRIC_FILTER) != 0;
        m->result[i] = reset_value(md);
        m->threshold[i] = max_of(md->width);
    }
    for (unsigned i = 0; i < cfg->num_traces; i++) {
        const jointer_trace_desc *t = &cfg->traces[i];
        uint32_t k = first_dcapf(cfg, t->sniffer) + t->dcapf;
        m->low[k] = t->low_reset;
        m->high[k] = t->high_reset;
        m->filter[k] = t->filter != 0;
    }
}

void mock_rom(mock_hw *m, const void *bytes, uint32_t len)
{
    m->rom = bytes;
    m->rom_len = len;
    m->desc_index = 0;
    m->info |= JOINTER_INFO_DESC_ROM;
}

static uint32_t rom_words(const mock_hw *m)
{
    return (m->rom_len + 3u) / 4u;
}

/* DESC_DATA: the word at DESC_INDEX, little-endian, 0 beyond the bytes */
static uint32_t rom_word(const mock_hw *m)
{
    uint32_t w = 0;
    for (uint32_t k = 0; k < 4u; k++) {
        uint32_t at = 4u * m->desc_index + k;
        if (m->rom != NULL && at < m->rom_len)
            w |= (uint32_t)m->rom[at] << (8u * k);
    }
    return w;
}

jointer_mode mock_mode(const mock_hw *m, unsigned s)
{
    const jointer_sniffer_desc *sd = &m->cfg->sniffers[s];
    return (jointer_mode)((m->control[sd->lmic] >> JOINTER_PROG_SHIFT(sd->index)) & 3u);
}

/* running and (filter passes): the gate of every extractor; a DCAPF without
 * a filter counts in FILTERING as in NO_FILTERING */
static int counts(const mock_hw *m, unsigned sniffer, unsigned dcapf, uint64_t data, int time_nofilter)
{
    const jointer_sniffer_desc *sd = &m->cfg->sniffers[sniffer];
    jointer_mode mode = mock_mode(m, sniffer);
    uint32_t k = first_dcapf(m->cfg, sniffer) + dcapf;
    if (!(m->control[sd->lmic] & JOINTER_CONTROL_RUN))
        return 0;
    if (mode == JOINTER_FILTERING && m->filter[k])
        return m->low[k] <= data && data <= m->high[k];
    if (mode == JOINTER_FILTERING)
        return time_nofilter ? data != 0 : 1;
    if (mode == JOINTER_NO_FILTERING)
        return time_nofilter ? data != 0 : 1;
    return 0;
}

static void sample(mock_hw *m, unsigned i, uint64_t v)
{
    const jointer_metric_desc *md = &m->cfg->metrics[i];
    uint64_t max = max_of(md->width), before = m->result[i], r = before;
    if (v > max && md->aggregator != JOINTER_AGGREGATOR_SUM) {
        v = max;
        m->overflow[i] = 1;
    }
    switch (md->aggregator) {
    case JOINTER_AGGREGATOR_SUM:
        if (v > max - r) {
            m->overflow[i] = 1;
            r = (md->flags & JOINTER_METRIC_WRAP) ? ((r + v) & max) : max;
        } else {
            r += v;
        }
        break;
    case JOINTER_AGGREGATOR_MAX:
        r = v > r ? v : r;
        break;
    case JOINTER_AGGREGATOR_MIN:
        r = v < r ? v : r;
        break;
    default:
        r = v;
        break;
    }
    m->result[i] = r;
    m->caught[i] = 1;
    if ((md->flags & JOINTER_METRIC_THRESHOLD) && md->irq_bit >= 0
        && !(before >= m->threshold[i]) && r >= m->threshold[i])
        m->lirq_status[md->lmic] |= 1u << md->irq_bit;
}

void mock_event(mock_hw *m, unsigned i, uint64_t data, uint32_t inc)
{
    const jointer_metric_desc *md = &m->cfg->metrics[i];
    if (counts(m, md->sniffer, md->dcapf, data, 0))
        sample(m, i, md->aggregator == JOINTER_AGGREGATOR_SUM ? inc : data);
}

void mock_time(mock_hw *m, unsigned i, uint32_t data, uint32_t cycles)
{
    const jointer_metric_desc *md = &m->cfg->metrics[i];
    if (cycles != 0 && counts(m, md->sniffer, md->dcapf, data, 1))
        sample(m, i, cycles);
}

void mock_trace_event(mock_hw *m, unsigned i, uint32_t data)
{
    const jointer_trace_desc *t = &m->cfg->traces[i];
    if (!counts(m, t->sniffer, t->dcapf, data, 0))
        return;
    if (m->tr_fill[i] == t->depth) {
        m->tr_status[i] |= JOINTER_TRACE_STATUS_OVERFLOW;
        if (t->relay && m->tr_lost[i] != 0xFFFFFFFFu)
            m->tr_lost[i]++;
        if (!t->ring)
            return;
    }
    uint32_t w = (t->ram_offset >> 2) + 2u * m->tr_wptr[i];
    m->ram[w] = (uint32_t)m->timestamp;
    m->ram[w + 1] = data;
    m->timestamp++; /* time passes between events */
    m->tr_wptr[i] = (m->tr_wptr[i] + 1u) % t->depth;
    uint32_t before = m->tr_fill[i];
    if (m->tr_fill[i] < t->depth)
        m->tr_fill[i]++;
    if (m->tr_fill[i] == t->depth) {
        m->tr_status[i] |= JOINTER_TRACE_STATUS_FULL;
        if (before < t->depth)
            m->lirq_status[t->lmic] |= 2u << t->irq_bit;
    }
    if (m->tr_watermark[i] != 0 && before < m->tr_watermark[i] && m->tr_fill[i] >= m->tr_watermark[i])
        m->lirq_status[t->lmic] |= 1u << t->irq_bit;
}

static uint32_t global_irq_status(const mock_hw *m)
{
    uint32_t st = 0;
    for (unsigned l = 0; l < m->cfg->num_lmics; l++)
        if (m->lirq_status[l] & m->lirq_enable[l])
            st |= 1u << l;
    return st;
}

int mock_irq(const mock_hw *m)
{
    return (global_irq_status(m) & m->irq_enable) != 0;
}

static void soft_reset(mock_hw *m, unsigned l)
{
    const jointer_cfg *cfg = m->cfg;
    for (unsigned i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *md = &cfg->metrics[i];
        if (md->lmic != l || mock_mode(m, md->sniffer) == JOINTER_IDLE)
            continue;
        m->result[i] = reset_value(md);
        m->caught[i] = m->overflow[i] = 0;
        if (md->irq_bit >= 0)
            m->lirq_status[l] &= ~(1u << md->irq_bit);
    }
    for (unsigned i = 0; i < cfg->num_traces; i++) {
        const jointer_trace_desc *t = &cfg->traces[i];
        if (t->lmic != l || mock_mode(m, t->sniffer) == JOINTER_IDLE)
            continue;
        m->tr_wptr[i] = m->tr_fill[i] = m->tr_status[i] = 0;
        m->tr_rptr[i] = m->tr_lost[i] = 0;
        m->lirq_status[l] &= ~(3u << t->irq_bit);
    }
}

/* what a word is: kinds */
enum { W_NONE, W_GLOBAL, W_LMIC, W_INIT, W_RESULT, W_THRESHOLD, W_TRACE, W_RAM };

static int decode(const mock_hw *m, uint32_t off, unsigned *lmic, unsigned *idx, unsigned *word)
{
    const jointer_cfg *cfg = m->cfg;
    if (off < cfg->window) {
        *word = off / 4u;
        return *word <= 11u ? W_GLOBAL : W_NONE;
    }
    for (unsigned l = 0; l < cfg->num_lmics; l++) {
        const jointer_lmic_desc *ld = &cfg->lmics[l];
        if (off < ld->base || off >= ld->base + cfg->window)
            continue;
        *lmic = l;
        uint32_t local = off - ld->base;
        if (local < 16u) {
            *word = local / 4u;
            return W_LMIC;
        }
        if (local < 16u + 4u * ld->num_sniffers) {
            *idx = ld->first_sniffer + (local - 16u) / 4u;
            return W_INIT;
        }
        for (unsigned i = 0; i < cfg->num_metrics; i++) {
            const jointer_metric_desc *md = &cfg->metrics[i];
            uint32_t words = (md->width + 31u) / 32u;
            if (off >= md->result_offset && off < md->result_offset + 4u * words) {
                *idx = i;
                *word = (off - md->result_offset) / 4u;
                return W_RESULT;
            }
            if (md->threshold_offset != JOINTER_NO_OFFSET && off >= md->threshold_offset
                && off < md->threshold_offset + 4u * words) {
                *idx = i;
                *word = (off - md->threshold_offset) / 4u;
                return W_THRESHOLD;
            }
        }
        for (unsigned i = 0; i < cfg->num_traces; i++) {
            const jointer_trace_desc *t = &cfg->traces[i];
            if (off >= t->reg_offset && off < t->reg_offset + (t->relay ? 32u : 20u)) {
                *idx = i;
                *word = (off - t->reg_offset) / 4u;
                return W_TRACE;
            }
            if (off >= t->ram_offset && off < t->ram_offset + 8u * t->depth) {
                *idx = i;
                return W_RAM;
            }
        }
        return W_NONE;
    }
    return W_NONE;
}

static int bus(mock_hw *m)
{
    unsigned n = m->reads + m->writes;
    m->timestamp += m->ts_step;
    if (m->tick != NULL)
        m->tick(m, m->tick_ctx);
    return m->fail_after >= 0 && n >= (unsigned)m->fail_after ? m->fail_code : 0;
}

int mock_read(void *ctx, uint32_t off, uint32_t *v)
{
    mock_hw *m = ctx;
    unsigned l = 0, idx = 0, word = 0;
    int r = bus(m);
    m->reads++;
    *v = 0;
    if (r < 0)
        return r;
    switch (decode(m, off, &l, &idx, &word)) {
    case W_GLOBAL: {
        const uint32_t g[12] = {m->id, m->version, m->config_hash, m->info, global_irq_status(m),
                                m->irq_enable, (uint32_t)m->timestamp, m->ts_hi_snap, 0, m->scratch,
                                m->rom != NULL ? m->desc_index : 0, rom_word(m)};
        if (word == 6)
            m->ts_hi_snap = (uint32_t)(m->timestamp >> 32);
        *v = g[word];
        break;
    }
    case W_LMIC:
        if (word == 0) {
            *v = m->control[l];
        } else if (word == 1) {
            uint32_t st = 0;
            for (unsigned i = 0; i < m->cfg->num_metrics; i++) {
                const jointer_metric_desc *md = &m->cfg->metrics[i];
                if (md->lmic != l)
                    continue;
                unsigned s = m->cfg->sniffers[md->sniffer].index;
                st |= (m->caught[i] ? 1u << s : 0) | (m->overflow[i] ? 1u << (16 + s) : 0);
            }
            *v = st;
        } else {
            *v = word == 2 ? m->lirq_status[l] : m->lirq_enable[l];
        }
        break;
    case W_RESULT:
        if (word == 0) {
            m->snap[idx] = (uint32_t)(m->result[idx] >> 32);
            *v = (uint32_t)m->result[idx];
        } else {
            *v = m->snap[idx];
        }
        break;
    case W_THRESHOLD:
        *v = (uint32_t)(m->threshold[idx] >> (32 * word));
        break;
    case W_TRACE: {
        const uint32_t tr[8] = {m->tr_wptr[idx], m->tr_fill[idx], m->tr_status[idx],
                                m->tr_watermark[idx], m->cfg->traces[idx].depth,
                                m->tr_rptr[idx], 0, m->tr_lost[idx]};
        *v = tr[word];
        break;
    }
    case W_RAM:
        *v = m->ram[off / 4u];
        break;
    default: /* INIT reads 0, unmapped reads 0 */
        break;
    }
    return 0;
}

static void mark(mock_hw *m, uint32_t value)
{
    m->marks++;
    m->last_mark = value;
    if (m->mark_sniffer < 0)
        return;
    for (unsigned i = 0; i < m->cfg->num_metrics; i++)
        if (m->cfg->metrics[i].sniffer == (unsigned)m->mark_sniffer)
            mock_event(m, i, value, 1);
    for (unsigned i = 0; i < m->cfg->num_traces; i++)
        if (m->cfg->traces[i].sniffer == (unsigned)m->mark_sniffer)
            mock_trace_event(m, i, value);
}

int mock_write(void *ctx, uint32_t off, uint32_t v)
{
    mock_hw *m = ctx;
    unsigned l = 0, idx = 0, word = 0;
    int r = bus(m);
    m->writes++;
    if (r < 0)
        return r;
    switch (decode(m, off, &l, &idx, &word)) {
    case W_GLOBAL:
        if (word == 5)
            m->irq_enable = v & ((1u << m->cfg->num_lmics) - 1u);
        else if (word == 8)
            mark(m, v);
        else if (word == 9 && !m->scratch_stuck)
            m->scratch = v;
        else if (word == 10 && m->rom != NULL)
            m->desc_index = v < rom_words(m) ? v : rom_words(m);
        break;
    case W_LMIC:
        if (word == 0) {
            const jointer_lmic_desc *ld = &m->cfg->lmics[l];
            m->control[l] = v & ~JOINTER_CONTROL_SOFT_RESET;
            for (unsigned s = 0; s < ld->num_sniffers; s++)
                if (((v >> JOINTER_PROG_SHIFT(s)) & 3u) == JOINTER_INIT)
                    m->init_ptr[ld->first_sniffer + s] = 0;
            if (v & JOINTER_CONTROL_SOFT_RESET)
                soft_reset(m, l);
        } else if (word == 2) {
            m->lirq_status[l] &= ~v;
        } else if (word == 3) {
            m->lirq_enable[l] = v;
        }
        break;
    case W_INIT: {
        unsigned s = idx;
        uint32_t p = m->init_ptr[s];
        unsigned w = jointer_init_words(&m->cfg->sniffers[s]); /* words per bound: 1 or 2 */
        if (mock_mode(m, s) != JOINTER_INIT || p >= 2u * w * m->cfg->sniffers[s].num_dcapfs) {
            m->init_writes_ignored++;
            break;
        }
        uint32_t k = first_dcapf(m->cfg, s) + p / (2u * w);
        unsigned shift = 32u * (p % w);
        uint64_t *bound = (p / w) & 1u ? &m->high[k] : &m->low[k];
        if (!m->filter[k])
            m->init_words_dropped++; /* no filter: the DCAPF ignores its words */
        else
            *bound = (*bound & ~((uint64_t)0xFFFFFFFFu << shift)) | ((uint64_t)v << shift);
        m->init_ptr[s] = p + 1u;
        break;
    }
    case W_THRESHOLD: {
        unsigned words = (m->cfg->metrics[idx].width + 31u) / 32u;
        if (word + 1u < words)
            m->thr_stage[idx] = v;
        else
            m->threshold[idx] = words == 2 ? ((uint64_t)v << 32) | m->thr_stage[idx] : v;
        break;
    }
    case W_TRACE:
        if (word == 3)
            m->tr_watermark[idx] = v;
        if (word == 6) { /* relay ACK: release min(v, FILL) records */
            const jointer_trace_desc *t = &m->cfg->traces[idx];
            uint32_t n = v < m->tr_fill[idx] ? v : m->tr_fill[idx];
            m->tr_fill[idx] -= n;
            m->tr_rptr[idx] = (m->tr_rptr[idx] + n) % t->depth;
            if (m->tr_fill[idx] < t->depth)
                m->tr_status[idx] &= ~JOINTER_TRACE_STATUS_FULL;
            m->tr_acks++;
        }
        break;
    default: /* results, RAM, unmapped: read-only or nothing */
        break;
    }
    return 0;
}

static int mock_wait(void *ctx, int timeout_ms)
{
    mock_hw *m = ctx;
    (void)timeout_ms;
    m->waits++;
    if (!mock_irq(m) && m->on_wait != NULL)
        m->on_wait(m, m->on_wait_ctx);
    return mock_irq(m) ? 0 : -ETIMEDOUT;
}

static const jointer_io_ops mock_ops = {mock_read, mock_write, mock_wait};
static const jointer_io_ops mock_ops_polled = {mock_read, mock_write, NULL};

jointer_io mock_io(mock_hw *m)
{
    return jointer_io_from_ops(&mock_ops, m);
}

jointer_io mock_io_polled(mock_hw *m)
{
    return jointer_io_from_ops(&mock_ops_polled, m);
}
