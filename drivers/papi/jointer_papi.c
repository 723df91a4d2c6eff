/*
 * jointer_papi.c - the metrics of a jointer monitor as PAPI SDE counters
 * (see jointer_papi.h). Hosted: POSIX threads, malloc, libsde (PAPI 7).
 *
 * libsde 7.0 cannot take an event back: papi_sde_unregister_counter frees
 * the event's name but leaves it in the library's hash table, so the next
 * registration or lookup in that bucket reads freed memory (ASan:
 * heap-use-after-free in strcmp under papi_sde_register_counter_cb). Hence
 * an SDE library, once registered, stays: one entry per monitor name, never
 * freed, whose events keep pointing at its metric states. Unregistering a
 * device detaches it from its entry (the events then report their last
 * value); registering a device of that monitor again re-attaches it, and
 * registering an event that libsde already has is a no-op there.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sde_lib.h>

#include "jointer_papi.h"

#define JP_PREFIX "sde:::"      /* PAPI's component prefix of SDE events */
#define JP_LIB    "jointer_"    /* SDE library = JP_LIB <monitor> */
#define JP_LOST_SUFFIX "_lost"  /* LOST event = <sniffer>.<trace> JP_LOST_SUFFIX */

enum {
    JP_EXTEND = 0,   /* sum, wrap mode, narrower than 64 bits: extended */
    JP_COUNTER = 1,  /* sum, saturating or 64 bits: as read (+ rebase) */
    JP_INSTANT = 2,  /* max, min, last: as read, PAPI_SDE_INSTANT */
    JP_LOST = 3      /* LOST of a relay/sink trace: as read, PAPI_SDE_INSTANT */
};

typedef struct jp_entry jp_entry;

typedef struct jp_metric {
    jp_entry *entry;
    unsigned index;       /* into cfg->metrics; JP_LOST: into cfg->traces */
    int kind;             /* JP_* */
    int described;        /* libsde has its description (set once: a second
                             papi_sde_describe_counter leaks the first) */
    uint64_t modulus;     /* 2^width (JP_EXTEND) */
    uint64_t last_raw;    /* the register at the last read */
    uint64_t wraps;       /* sum of the 2^width added since the last rebase */
    uint64_t base;        /* value reported at the last rebase */
    uint64_t value;       /* last value computed */
} jp_metric;

/* one SDE library "jointer_<monitor>"; lives until the process ends */
struct jp_entry {
    char *monitor;                          /* cfg->name, copied */
    jointer_dev *dev;                       /* attached device, or NULL */
    const jointer_cfg *cfg;                 /* dev->cfg while attached */
    void *sde;                              /* libsde library handle */
    pthread_mutex_t lock;                   /* dev, cfg, the metric states, error */
    int error;                              /* first callback error */
    unsigned n;                             /* metrics: m[0 .. n-1] */
    unsigned nl;                            /* LOST events: m[n .. n+nl-1] */
    jp_metric *m;
    char (*names)[JOINTER_PAPI_NAME_MAX];   /* "<sniffer>.<metric>", "<sniffer>.<trace>_lost" */
};

static jp_entry *jp_table[JOINTER_PAPI_MAX_DEVICES];
static pthread_mutex_t jp_table_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- names ------------------------------------------------------------- */

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
static int jp_loses(const jointer_trace_desc *t)
{
    return t->relay != 0 || t->sink_bytes != 0;
}

/* every name of cfg usable and every full event name short enough */
static int jp_check_cfg(const jointer_cfg *cfg)
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
        if (!jp_loses(td))
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
static unsigned jp_num_lost(const jointer_cfg *cfg)
{
    unsigned n = 0;
    for (unsigned t = 0; t < cfg->num_traces; t++)
        n += (unsigned)jp_loses(&cfg->traces[t]);
    return n;
}

/* the trace of LOST event k (k < jp_num_lost(cfg)) */
static unsigned jp_lost_trace(const jointer_cfg *cfg, unsigned k)
{
    unsigned t = 0;
    for (;; t++)
        if (jp_loses(&cfg->traces[t]) && k-- == 0)
            return t;
}

/* event ev: metric ev, or LOST event ev - num_metrics: "<sniffer>.<metric>"
 * or "<sniffer>.<trace>_lost" (checked by jp_check_cfg: it fits) */
static void jp_short_name(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size)
{
    if (ev < cfg->num_metrics) {
        const jointer_metric_desc *md = &cfg->metrics[ev];
        (void)snprintf(buf, size, "%s.%s", cfg->sniffers[md->sniffer].name, md->name);
    } else {
        const jointer_trace_desc *td = &cfg->traces[jp_lost_trace(cfg, ev - cfg->num_metrics)];
        (void)snprintf(buf, size, "%s.%s" JP_LOST_SUFFIX, cfg->sniffers[td->sniffer].name, td->name);
    }
}

static void jp_lib_name(const jointer_cfg *cfg, char *buf, size_t size)
{
    (void)snprintf(buf, size, JP_LIB "%s", cfg->name);
}

static int jp_kind(const jointer_metric_desc *md)
{
    if (md->aggregator != JOINTER_AGGREGATOR_SUM)
        return JP_INSTANT;
    if ((md->flags & JOINTER_METRIC_WRAP) && md->width < 64u)
        return JP_EXTEND;
    return JP_COUNTER;
}

/* the kind of event ev (see jp_short_name) */
static int jp_event_kind(const jointer_cfg *cfg, unsigned ev)
{
    return ev < cfg->num_metrics ? jp_kind(&cfg->metrics[ev]) : JP_LOST;
}

static int jp_sde_mode(int kind)
{
    return PAPI_SDE_RO | (kind == JP_INSTANT || kind == JP_LOST ? PAPI_SDE_INSTANT : PAPI_SDE_DELTA);
}

static void jp_describe(const jointer_cfg *cfg, unsigned i, char *buf, size_t size)
{
    static const char *const aggregators[] = {"sum", "max", "min", "last"};
    const jointer_metric_desc *md;
    const char *what, *how;
    if (i >= cfg->num_metrics) {
        (void)snprintf(buf, size, "jointer monitor %s: records dropped by trace %s (buffer/FIFO full), saturating",
                       cfg->name, cfg->traces[jp_lost_trace(cfg, i - cfg->num_metrics)].name);
        return;
    }
    md = &cfg->metrics[i];
    if (md->extractor == JOINTER_EXTRACTOR_TIME)
        what = "busy cycles";
    else
        what = md->aggregator == JOINTER_AGGREGATOR_SUM ? "event count" : "event data";
    switch (jp_kind(md)) {
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
static int jp_full_name(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size)
{
    char name[JOINTER_PAPI_NAME_MAX];
    int len;
    jp_short_name(cfg, ev, name, sizeof name);
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
    err = jp_check_cfg(cfg);
    if (err != 0)
        return err;
    return jp_full_name(cfg, metric, buf, size);
}

int jointer_papi_lost_event_name(const jointer_cfg *cfg, unsigned trace, char *buf, size_t size)
{
    int err;
    unsigned k = 0;
    if (buf == NULL || cfg == NULL || trace >= cfg->num_traces || cfg->traces == NULL)
        return -EINVAL;
    err = jp_check_cfg(cfg);
    if (err != 0)
        return err;
    if (!jp_loses(&cfg->traces[trace]))
        return -ENOTSUP;
    for (unsigned t = 0; t < trace; t++)
        k += (unsigned)jp_loses(&cfg->traces[t]);
    return jp_full_name(cfg, cfg->num_metrics + k, buf, size);
}

/* libsde's error codes (SDE_*) as errno */
static int jp_sde_err(int rc)
{
    switch (rc) {
    case SDE_OK:
        return 0;
    case SDE_ENOMEM:
        return -ENOMEM;
    default:
        return -EIO;
    }
}

/* two's complement, without an out-of-range conversion */
static long long jp_to_ll(uint64_t v)
{
    if (v <= (uint64_t)LLONG_MAX)
        return (long long)v;
    return -(long long)(~v) - 1;
}

/* ---- the value of one metric --------------------------------------------- */

/* a new raw value: extend, rebase */
static void jp_advance(jp_metric *m, uint64_t raw)
{
    switch (m->kind) {
    case JP_EXTEND:
        if (raw < m->last_raw)
            m->wraps += m->modulus;
        m->value = m->base + m->wraps + raw;
        break;
    case JP_COUNTER:
        m->value = m->base + raw;
        break;
    default:
        m->value = raw;
        break;
    }
    m->last_raw = raw;
}

/* one read of event m's register (a metric, or the LOST of a trace) */
static int jp_read_raw(jointer_dev *dev, const jp_metric *m, uint64_t *raw)
{
    uint32_t lost;
    int err;
    if (m->kind != JP_LOST)
        return jointer_read(dev, m->index, raw);
    err = jointer_trace_lost(dev, m->index, &lost);
    if (err == 0)
        *raw = lost;
    return err;
}

/* read the register, extend; entry->lock held, a device attached */
static int jp_update(jp_metric *m)
{
    uint64_t raw;
    int err = jp_read_raw(m->entry->dev, m, &raw);
    if (err == 0)
        jp_advance(m, raw);
    return err;
}

/* libsde calls this on PAPI_start/read/stop/accum */
static long long jp_callback(void *param)
{
    jp_metric *m = (jp_metric *)param;
    jp_entry *e = m->entry;
    uint64_t v;
    (void)pthread_mutex_lock(&e->lock);
    if (e->dev != NULL) {
        int err = jp_update(m);
        if (err != 0 && e->error == 0)
            e->error = err;
    }
    v = m->value;   /* the last good value after an error; frozen while detached */
    (void)pthread_mutex_unlock(&e->lock);
    return jp_to_ll(v);
}

static void jp_rebase_metric(jp_metric *m)
{
    if (m->kind == JP_INSTANT || m->kind == JP_LOST) {
        m->last_raw = 0;
        return;
    }
    m->base = m->value;
    m->wraps = 0;
    m->last_raw = 0;
}

/* ---- registration ---------------------------------------------------------- */

/* the entry dev is attached to; jp_table_lock held */
static jp_entry *jp_find_dev(const jointer_dev *dev)
{
    for (unsigned i = 0; i < JOINTER_PAPI_MAX_DEVICES; i++)
        if (jp_table[i] != NULL && dev != NULL && jp_table[i]->dev == dev)
            return jp_table[i];
    return NULL;
}

/* the entry of a monitor name; jp_table_lock held */
static jp_entry *jp_find_monitor(const char *monitor, unsigned *free_slot)
{
    *free_slot = JOINTER_PAPI_MAX_DEVICES;
    for (unsigned i = 0; i < JOINTER_PAPI_MAX_DEVICES; i++) {
        if (jp_table[i] == NULL) {
            if (*free_slot == JOINTER_PAPI_MAX_DEVICES)
                *free_slot = i;
        } else if (strcmp(jp_table[i]->monitor, monitor) == 0) {
            return jp_table[i];
        }
    }
    return NULL;
}

/* a new, detached entry for cfg's monitor (not yet in libsde) */
static jp_entry *jp_entry_new(const jointer_cfg *cfg)
{
    size_t len = strlen(cfg->name) + 1u;
    jp_entry *e = (jp_entry *)calloc(1, sizeof *e);
    unsigned total;
    if (e == NULL)
        return NULL;
    e->n = cfg->num_metrics;
    e->nl = jp_num_lost(cfg);
    total = e->n + e->nl;
    e->monitor = (char *)malloc(len);
    if (total > 0) {
        e->m = (jp_metric *)calloc(total, sizeof *e->m);
        e->names = (char (*)[JOINTER_PAPI_NAME_MAX])calloc(total, sizeof *e->names);
    }
    if (e->monitor == NULL || (total > 0 && (e->m == NULL || e->names == NULL))
        || pthread_mutex_init(&e->lock, NULL) != 0) {
        free(e->monitor);
        free(e->m);
        free(e->names);
        free(e);
        return NULL;
    }
    memcpy(e->monitor, cfg->name, len);
    for (unsigned i = 0; i < e->n; i++) {
        const jointer_metric_desc *md = &cfg->metrics[i];
        e->m[i].entry = e;
        e->m[i].index = i;
        e->m[i].kind = jp_kind(md);
        e->m[i].modulus = e->m[i].kind == JP_EXTEND ? (uint64_t)1 << md->width : 0;
        jp_short_name(cfg, i, e->names[i], sizeof e->names[i]);
    }
    for (unsigned k = 0; k < e->nl; k++) {
        jp_metric *m = &e->m[e->n + k];
        m->entry = e;
        m->index = jp_lost_trace(cfg, k);
        m->kind = JP_LOST;
        jp_short_name(cfg, e->n + k, e->names[e->n + k], sizeof e->names[e->n + k]);
    }
    return e;
}

/* cfg has the events of entry e (same names, same kinds) */
static int jp_same_events(const jp_entry *e, const jointer_cfg *cfg)
{
    char name[JOINTER_PAPI_NAME_MAX];
    if (cfg->num_metrics != e->n || jp_num_lost(cfg) != e->nl)
        return 0;
    for (unsigned i = 0; i < e->n + e->nl; i++) {
        jp_short_name(cfg, i, name, sizeof name);
        if (strcmp(name, e->names[i]) != 0 || jp_event_kind(cfg, i) != e->m[i].kind
            || (e->m[i].kind == JP_EXTEND && e->m[i].modulus != (uint64_t)1 << cfg->metrics[i].width)
            || (e->m[i].kind == JP_LOST && e->m[i].index != jp_lost_trace(cfg, i - e->n)))
            return 0;
    }
    return 1;
}

/* make libsde know every event of e (again: a no-op for those it has) */
static int jp_sde_register(jp_entry *e, const jointer_cfg *cfg)
{
    char lib[JOINTER_PAPI_NAME_MAX], desc[256];
    if (e->sde == NULL) {
        jp_lib_name(cfg, lib, sizeof lib);
        e->sde = papi_sde_init(lib);
        if (e->sde == NULL)
            return -ENOTSUP;
    }
    for (unsigned i = 0; i < e->n + e->nl; i++) {
        int err = jp_sde_err(papi_sde_register_counter_cb(e->sde, e->names[i], jp_sde_mode(e->m[i].kind),
                                                          PAPI_SDE_long_long, jp_callback, &e->m[i]));
        if (err == 0 && !e->m[i].described) {
            jp_describe(cfg, i, desc, sizeof desc);
            err = jp_sde_err(papi_sde_describe_counter(e->sde, e->names[i], desc));
            e->m[i].described = err == 0;
        }
        if (err != 0)
            return err;
    }
    return 0;
}

int jointer_papi_register(jointer_dev *dev)
{
    const jointer_cfg *cfg;
    unsigned slot;
    uint64_t *raw = NULL;
    jp_entry *e;
    unsigned total;
    int err = 0;

    if (dev == NULL || dev->cfg == NULL)
        return -EINVAL;
    cfg = dev->cfg;
    err = jp_check_cfg(cfg);
    if (err != 0)
        return err;

    (void)pthread_mutex_lock(&jp_table_lock);
    e = jp_find_monitor(cfg->name, &slot);
    if (jp_find_dev(dev) != NULL || (e != NULL && (e->dev != NULL || !jp_same_events(e, cfg)))) {
        err = -EEXIST;
        goto out;
    }
    if (e == NULL && slot == JOINTER_PAPI_MAX_DEVICES) {
        err = -ENOSPC;
        goto out;
    }
    /* the starting points: one read of each metric and LOST register */
    total = cfg->num_metrics + jp_num_lost(cfg);
    if (total > 0) {
        raw = (uint64_t *)calloc(total, sizeof *raw);
        if (raw == NULL) {
            err = -ENOMEM;
            goto out;
        }
    }
    for (unsigned i = 0; i < total && err == 0; i++) {
        jp_metric probe;
        probe.kind = jp_event_kind(cfg, i);
        probe.index = i < cfg->num_metrics ? i : jp_lost_trace(cfg, i - cfg->num_metrics);
        err = jp_read_raw(dev, &probe, &raw[i]);
    }
    if (err != 0)
        goto out;
    if (e == NULL) {
        e = jp_entry_new(cfg);
        if (e == NULL) {
            err = -ENOMEM;
            goto out;
        }
        jp_table[slot] = e;   /* from now on for good (see the top) */
    }
    err = jp_sde_register(e, cfg);
    if (err != 0)
        goto out;
    (void)pthread_mutex_lock(&e->lock);
    for (unsigned i = 0; i < e->n + e->nl; i++) {
        jp_metric *m = &e->m[i];
        m->base = m->wraps = 0;
        m->last_raw = m->value = raw[i];
    }
    e->error = 0;
    e->cfg = cfg;
    e->dev = dev;
    (void)pthread_mutex_unlock(&e->lock);
out:
    (void)pthread_mutex_unlock(&jp_table_lock);
    free(raw);
    return err;
}

int jointer_papi_unregister(jointer_dev *dev)
{
    jp_entry *e;
    (void)pthread_mutex_lock(&jp_table_lock);
    e = jp_find_dev(dev);
    if (e != NULL) {
        (void)pthread_mutex_lock(&e->lock);
        e->dev = NULL;
        e->cfg = NULL;
        (void)pthread_mutex_unlock(&e->lock);
    }
    (void)pthread_mutex_unlock(&jp_table_lock);
    return e != NULL ? 0 : -ENOENT;
}

/* rebase the sum metrics of one LMIC (or all); e->lock held */
static void jp_rebase_lmic(jp_entry *e, unsigned lmic)
{
    for (unsigned i = 0; i < e->n; i++)
        if (lmic == JOINTER_ALL_LMICS || e->cfg->metrics[i].lmic == lmic)
            jp_rebase_metric(&e->m[i]);
}

/* the entry dev is attached to, with both locks taken, or an error */
static int jp_enter(jointer_dev *dev, jp_entry **out)
{
    jp_entry *e;
    (void)pthread_mutex_lock(&jp_table_lock);
    e = jp_find_dev(dev);
    if (e == NULL) {
        (void)pthread_mutex_unlock(&jp_table_lock);
        return -ENOENT;
    }
    (void)pthread_mutex_lock(&e->lock);
    *out = e;
    return 0;
}

static void jp_leave(jp_entry *e)
{
    (void)pthread_mutex_unlock(&e->lock);
    (void)pthread_mutex_unlock(&jp_table_lock);
}

int jointer_papi_reset(jointer_dev *dev, unsigned lmic)
{
    jp_entry *e;
    int err = jp_enter(dev, &e);
    if (err != 0)
        return err;
    if (lmic != JOINTER_ALL_LMICS && lmic >= e->cfg->num_lmics) {
        err = -EINVAL;
        goto out;
    }
    for (unsigned l = 0; l < e->cfg->num_lmics && err == 0; l++) {
        if (lmic != JOINTER_ALL_LMICS && l != lmic)
            continue;
        /* the last values before the pulse ... */
        for (unsigned i = 0; i < e->n && err == 0; i++)
            if (e->cfg->metrics[i].lmic == l && e->m[i].kind != JP_INSTANT)
                err = jp_update(&e->m[i]);
        if (err == 0)
            err = jointer_reset(dev, l);
        /* ... are where the counters continue from */
        if (err == 0)
            jp_rebase_lmic(e, l);
    }
out:
    jp_leave(e);
    return err;
}

int jointer_papi_rebase(jointer_dev *dev, unsigned lmic)
{
    jp_entry *e;
    int err = jp_enter(dev, &e);
    if (err != 0)
        return err;
    if (lmic != JOINTER_ALL_LMICS && lmic >= e->cfg->num_lmics)
        err = -EINVAL;
    else
        jp_rebase_lmic(e, lmic);
    jp_leave(e);
    return err;
}

int jointer_papi_value(jointer_dev *dev, unsigned metric, uint64_t *value)
{
    jp_entry *e;
    int err;
    if (value == NULL)
        return -EINVAL;
    err = jp_enter(dev, &e);
    if (err != 0)
        return err;
    if (metric >= e->n)
        err = -EINVAL;
    else
        err = jp_update(&e->m[metric]);
    if (err == 0)
        *value = e->m[metric].value;
    jp_leave(e);
    return err;
}

int jointer_papi_error(jointer_dev *dev)
{
    jp_entry *e;
    int err = jp_enter(dev, &e);
    if (err != 0)
        return err;
    err = e->error;
    e->error = 0;
    jp_leave(e);
    return err;
}

/* ---- papi_native_avail -sde ------------------------------------------------ */

/* the events listed for papi_native_avail are never read */
static long long jp_listed(void *param)
{
    (void)param;
    return 0;
}

void *jointer_papi_list_events(struct papi_sde_fptr_struct_s *fptr,
                               const jointer_cfg *const *cfgs, size_t n)
{
    papi_sde_fptr_struct_t *f = (papi_sde_fptr_struct_t *)fptr;
    char lib[JOINTER_PAPI_NAME_MAX], name[JOINTER_PAPI_NAME_MAX], desc[256];
    void *h = NULL;

    if (f == NULL || f->init == NULL || f->register_counter_cb == NULL || cfgs == NULL)
        return NULL;
    for (size_t c = 0; c < n; c++) {
        const jointer_cfg *cfg = cfgs[c];
        if (jp_check_cfg(cfg) != 0)
            return NULL;
        jp_lib_name(cfg, lib, sizeof lib);
        h = f->init(lib);
        if (h == NULL)
            return NULL;
        for (unsigned i = 0; i < cfg->num_metrics + jp_num_lost(cfg); i++) {
            jp_short_name(cfg, i, name, sizeof name);
            if (f->register_counter_cb(h, name, jp_sde_mode(jp_event_kind(cfg, i)),
                                       PAPI_SDE_long_long, jp_listed, NULL) != SDE_OK)
                return NULL;
            if (f->describe_counter != NULL) {
                jp_describe(cfg, i, desc, sizeof desc);
                (void)f->describe_counter(h, name, desc);
            }
        }
    }
    return h;
}
