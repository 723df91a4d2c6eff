// SPDX-License-Identifier: MIT
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
#include "jointer_papi_int.h"

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
    e->nl = jointer__papi_num_lost(cfg);
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
        e->m[i].kind = jointer__papi_kind(md);
        e->m[i].modulus = e->m[i].kind == JP_EXTEND ? (uint64_t)1 << md->width : 0;
        jointer__papi_short_name(cfg, i, e->names[i], sizeof e->names[i]);
    }
    for (unsigned k = 0; k < e->nl; k++) {
        jp_metric *m = &e->m[e->n + k];
        m->entry = e;
        m->index = jointer__papi_lost_trace(cfg, k);
        m->kind = JP_LOST;
        jointer__papi_short_name(cfg, e->n + k, e->names[e->n + k], sizeof e->names[e->n + k]);
    }
    return e;
}

/* cfg has the events of entry e (same names, same kinds) */
static int jp_same_events(const jp_entry *e, const jointer_cfg *cfg)
{
    char name[JOINTER_PAPI_NAME_MAX];
    if (cfg->num_metrics != e->n || jointer__papi_num_lost(cfg) != e->nl)
        return 0;
    for (unsigned i = 0; i < e->n + e->nl; i++) {
        jointer__papi_short_name(cfg, i, name, sizeof name);
        if (strcmp(name, e->names[i]) != 0 || jointer__papi_event_kind(cfg, i) != e->m[i].kind
            || (e->m[i].kind == JP_EXTEND && e->m[i].modulus != (uint64_t)1 << cfg->metrics[i].width)
            || (e->m[i].kind == JP_LOST && e->m[i].index != jointer__papi_lost_trace(cfg, i - e->n)))
            return 0;
    }
    return 1;
}

/* make libsde know every event of e (again: a no-op for those it has) */
static int jp_sde_register(jp_entry *e, const jointer_cfg *cfg)
{
    char lib[JOINTER_PAPI_NAME_MAX], desc[256];
    if (e->sde == NULL) {
        jointer__papi_lib_name(cfg, lib, sizeof lib);
        e->sde = papi_sde_init(lib);
        if (e->sde == NULL)
            return -ENOTSUP;
    }
    for (unsigned i = 0; i < e->n + e->nl; i++) {
        int err = jp_sde_err(papi_sde_register_counter_cb(e->sde, e->names[i], jointer__papi_sde_mode(e->m[i].kind),
                                                          PAPI_SDE_long_long, jp_callback, &e->m[i]));
        if (err == 0 && !e->m[i].described) {
            jointer__papi_describe(cfg, i, desc, sizeof desc);
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

    if (jointer_dev_cfg(dev) == NULL)
        return -EINVAL;
    cfg = jointer_dev_cfg(dev);
    err = jointer__papi_check_cfg(cfg);
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
    total = cfg->num_metrics + jointer__papi_num_lost(cfg);
    if (total > 0) {
        raw = (uint64_t *)calloc(total, sizeof *raw);
        if (raw == NULL) {
            err = -ENOMEM;
            goto out;
        }
    }
    for (unsigned i = 0; i < total && err == 0; i++) {
        jp_metric probe;
        probe.kind = jointer__papi_event_kind(cfg, i);
        probe.index = i < cfg->num_metrics ? i : jointer__papi_lost_trace(cfg, i - cfg->num_metrics);
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
        if (jointer__papi_check_cfg(cfg) != 0)
            return NULL;
        jointer__papi_lib_name(cfg, lib, sizeof lib);
        h = f->init(lib);
        if (h == NULL)
            return NULL;
        for (unsigned i = 0; i < cfg->num_metrics + jointer__papi_num_lost(cfg); i++) {
            jointer__papi_short_name(cfg, i, name, sizeof name);
            if (f->register_counter_cb(h, name, jointer__papi_sde_mode(jointer__papi_event_kind(cfg, i)),
                                       PAPI_SDE_long_long, jp_listed, NULL) != SDE_OK)
                return NULL;
            if (f->describe_counter != NULL) {
                jointer__papi_describe(cfg, i, desc, sizeof desc);
                (void)f->describe_counter(h, name, desc);
            }
        }
    }
    return h;
}
