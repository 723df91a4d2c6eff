// SPDX-License-Identifier: MIT
/*
 * jointer_papi_names.c - the names, kinds and descriptions of the PAPI SDE
 * events of a jointer monitor (see jointer_papi.h): which metrics and LOST
 * counters a descriptor has, what PAPI calls them, and the two public name
 * functions. No state, no locks: jointer_papi.c registers and reads.
 */
#include <stdio.h>
#include <string.h>

#include <sde_lib.h>

#include "jointer_papi_int.h"

/* a C identifier: what PAPI's event-name parser takes as one word */
static int jp_ident(const char *s)
{
    if (s == NULL || *s == '\0')
        return 0;
    for (; *s != '\0'; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

/* a trace that drops records when full has a LOST register: relay, sink */
int jointer__papi_loses(const jointer_trace_desc *t)
{
    return t->relay != 0 || t->sink_bytes != 0;
}

/* every name of cfg usable and every full event name short enough */
int jointer__papi_check_cfg(const jointer_cfg *cfg)
{
    size_t fixed;
    if (cfg == NULL || !jp_ident(cfg->name) || (cfg->num_metrics > 0 && cfg->metrics == NULL)
        || (cfg->num_sniffers > 0 && cfg->sniffers == NULL))
        return -EINVAL;
    fixed = strlen(JP_PREFIX JP_LIB) + strlen(cfg->name) + 2u;   /* "::" */
    for (unsigned i = 0; i < cfg->num_metrics; i++) {
        const jointer_metric_desc *md = &cfg->metrics[i];
        const char *sn;
        if (md->sniffer >= cfg->num_sniffers || md->width < 1u || md->width > 64u)
            return -EINVAL;
        sn = cfg->sniffers[md->sniffer].name;
        if (!jp_ident(sn) || !jp_ident(md->name))
            return -EINVAL;
        if (fixed + strlen(sn) + 1u + strlen(md->name) >= JOINTER_PAPI_NAME_MAX)
            return -ENAMETOOLONG;
    }
    if (cfg->num_traces > 0 && cfg->traces == NULL)
        return -EINVAL;
    for (unsigned t = 0; t < cfg->num_traces; t++) {
        const jointer_trace_desc *td = &cfg->traces[t];
        const char *sn;
        if (!jointer__papi_loses(td))
            continue;
        if (td->sniffer >= cfg->num_sniffers || !jp_ident(td->name))
            return -EINVAL;
        sn = cfg->sniffers[td->sniffer].name;
        if (!jp_ident(sn))
            return -EINVAL;
        if (fixed + strlen(sn) + 1u + strlen(td->name) + strlen(JP_LOST_SUFFIX) >= JOINTER_PAPI_NAME_MAX)
            return -ENAMETOOLONG;
        /* "<trace>_lost" must not be a metric of the same sniffer */
        for (unsigned i = 0; i < cfg->num_metrics; i++) {
            const char *mn = cfg->metrics[i].name;
            size_t tl = strlen(td->name);
            if (cfg->metrics[i].sniffer == td->sniffer && strncmp(mn, td->name, tl) == 0
                && strcmp(mn + tl, JP_LOST_SUFFIX) == 0)
                return -EINVAL;
        }
    }
    return 0;
}

/* the number of LOST events of cfg: its relay and sink traces */
unsigned jointer__papi_num_lost(const jointer_cfg *cfg)
{
    unsigned n = 0;
    for (unsigned t = 0; t < cfg->num_traces; t++)
        n += (unsigned)jointer__papi_loses(&cfg->traces[t]);
    return n;
}

/* the trace of LOST event k (k < jointer__papi_num_lost(cfg)) */
unsigned jointer__papi_lost_trace(const jointer_cfg *cfg, unsigned k)
{
    unsigned t = 0;
    for (;; t++)
        if (jointer__papi_loses(&cfg->traces[t]) && k-- == 0)
            return t;
}

/* event ev: metric ev, or LOST event ev - num_metrics: "<sniffer>.<metric>"
 * or "<sniffer>.<trace>_lost" (checked by jointer__papi_check_cfg: it fits) */
void jointer__papi_short_name(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size)
{
    if (ev < cfg->num_metrics) {
        const jointer_metric_desc *md = &cfg->metrics[ev];
        (void)snprintf(buf, size, "%s.%s", cfg->sniffers[md->sniffer].name, md->name);
    } else {
        const jointer_trace_desc *td = &cfg->traces[jointer__papi_lost_trace(cfg, ev - cfg->num_metrics)];
        (void)snprintf(buf, size, "%s.%s" JP_LOST_SUFFIX, cfg->sniffers[td->sniffer].name, td->name);
    }
}

void jointer__papi_lib_name(const jointer_cfg *cfg, char *buf, size_t size)
{
    (void)snprintf(buf, size, JP_LIB "%s", cfg->name);
}

int jointer__papi_kind(const jointer_metric_desc *md)
{
    if (md->aggregator != JOINTER_AGGREGATOR_SUM)
        return JP_INSTANT;
    if ((md->flags & JOINTER_METRIC_WRAP) && md->width < 64u)
        return JP_EXTEND;
    return JP_COUNTER;
}

/* the kind of event ev (see jointer__papi_short_name) */
int jointer__papi_event_kind(const jointer_cfg *cfg, unsigned ev)
{
    return ev < cfg->num_metrics ? jointer__papi_kind(&cfg->metrics[ev]) : JP_LOST;
}

int jointer__papi_sde_mode(int kind)
{
    return PAPI_SDE_RO | (kind == JP_INSTANT || kind == JP_LOST ? PAPI_SDE_INSTANT : PAPI_SDE_DELTA);
}

void jointer__papi_describe(const jointer_cfg *cfg, unsigned i, char *buf, size_t size)
{
    static const char *const aggregators[] = {"sum", "max", "min", "last"};
    const jointer_metric_desc *md;
    const char *what, *how;
    if (i >= cfg->num_metrics) {
        (void)snprintf(buf, size, "jointer monitor %s: records dropped by trace %s (buffer/FIFO full), saturating",
                       cfg->name, cfg->traces[jointer__papi_lost_trace(cfg, i - cfg->num_metrics)].name);
        return;
    }
    md = &cfg->metrics[i];
    if (md->extractor == JOINTER_EXTRACTOR_TIME)
        what = "busy cycles";
    else
        what = md->aggregator == JOINTER_AGGREGATOR_SUM ? "event count" : "event data";
    switch (jointer__papi_kind(md)) {
    case JP_EXTEND:
        how = "wraps in hardware, extended to 64 bits";
        break;
    case JP_COUNTER:
        how = "saturates";
        break;
    default:
        how = "instantaneous value";
        break;
    }
    (void)snprintf(buf, size, "jointer monitor %s, LMIC %s: %s (%s), %u bits, %s", cfg->name,
                   md->lmic < cfg->num_lmics && cfg->lmics != NULL ? cfg->lmics[md->lmic].name : "?", what,
                   md->aggregator < 4u ? aggregators[md->aggregator] : "?", (unsigned)md->width, how);
}

/* "sde:::jointer_<monitor>::" + the short name of event ev; cfg checked */
int jointer__papi_full_name(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size)
{
    char name[JOINTER_PAPI_NAME_MAX];
    int len;
    jointer__papi_short_name(cfg, ev, name, sizeof name);
    len = snprintf(buf, size, JP_PREFIX JP_LIB "%s::%s", cfg->name, name);
    if (len < 0)
        return -EINVAL;
    if ((size_t)len >= size)
        return -ERANGE;
    return len;
}

int jointer_papi_event_name(const jointer_cfg *cfg, unsigned metric, char *buf, size_t size)
{
    int err;
    if (buf == NULL || cfg == NULL || metric >= cfg->num_metrics)
        return -EINVAL;
    err = jointer__papi_check_cfg(cfg);
    if (err != 0)
        return err;
    return jointer__papi_full_name(cfg, metric, buf, size);
}

int jointer_papi_lost_event_name(const jointer_cfg *cfg, unsigned trace, char *buf, size_t size)
{
    int err;
    unsigned k = 0;
    if (buf == NULL || cfg == NULL || trace >= cfg->num_traces || cfg->traces == NULL)
        return -EINVAL;
    err = jointer__papi_check_cfg(cfg);
    if (err != 0)
        return err;
    if (!jointer__papi_loses(&cfg->traces[trace]))
        return -ENOTSUP;
    for (unsigned t = 0; t < trace; t++)
        k += (unsigned)jointer__papi_loses(&cfg->traces[t]);
    return jointer__papi_full_name(cfg, cfg->num_metrics + k, buf, size);
}
