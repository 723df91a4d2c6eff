// SPDX-License-Identifier: MIT
/*
 * jointer_check.c - the descriptor check of jointer_init: everything the
 * driver relies on to stay inside its arrays, its shifts and the mapped span.
 */
#include "jointer_internal.h"

static int fits(const jointer_cfg *cfg, uint32_t off, uint32_t bytes)
{
    return (off & 3u) == 0 && off < cfg->span && bytes <= cfg->span - off;
}

/* a trace's lanes and spans: the names exist, every span's lanes are the trace's */
static int lanes_ok(const jointer_trace_desc *t)
{
    unsigned k;

    if (t->num_lanes > JOINTER_MAX_LANES || t->num_spans > JOINTER_MAX_SPANS
        || (t->num_lanes != 0u && t->lane_names == NULL) || (t->num_spans != 0u && t->spans == NULL)
        || (t->sync != 0u && t->num_lanes == 0u))
        return 0;
    for (k = 0; k < t->num_spans; k++) {
        const jointer_span_desc *sp = &t->spans[k];
        int level = sp->begin == JOINTER_SPAN_LEVEL;
        if (sp->name == NULL || level != (sp->end == JOINTER_SPAN_LEVEL)
            || (!level && (sp->begin >= t->num_lanes || sp->end >= t->num_lanes)))
            return 0;
    }
    return 1;
}

/* What the driver relies on to stay inside its arrays, its shifts and the
 * mapped span (widths need no check: at most 2 words are ever accessed and
 * fits() covers ceil(width/32) of them). */
int jointer__check_cfg(const jointer_cfg *cfg)
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
            || !fits(cfg, t->ram_offset, 8u * t->depth) || !lanes_ok(t))
            return -EINVAL;
    }
    return 0;
}
