// SPDX-License-Identifier: MIT
/*
 * cosim_app.c - helpers of the co-simulation test applications (cosim_app.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cosim_app.h"

static uint32_t cosim_bounds[2u * COSIM_MAX_DCAPFS];

int cosim_open(jointer_dev *dev)
{
    jointer_io io;
    int r = platform_monitor_io(&io);

    if (r == 0)
        r = jointer_init(dev, cosim_cfg, &io);
    if (r == 0 && cosim_cfg->num_dcapfs > COSIM_MAX_DCAPFS)
        r = -ENOBUFS;
    if (r == 0)
        r = jointer_attach_bounds(dev, cosim_bounds, 2u * COSIM_MAX_DCAPFS);
    if (r == 0)
        r = jointer_selftest(dev, 0, NULL);
    if (r < 0)
        fprintf(stderr, "app: cannot open monitor %s: %s\n", cosim_cfg->name, jointer_strerror(r));
    return r;
}

const char *cosim_arg(int argc, char **argv, const char *key)
{
    size_t n = strlen(key);
    int i;

    for (i = 1; i < argc; ++i)
        if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
            return argv[i] + n + 1;
    return NULL;
}

uint64_t cosim_arg_u64(int argc, char **argv, const char *key, uint64_t dflt)
{
    const char *v = cosim_arg(argc, argv, key);
    return v != NULL ? (uint64_t)strtoull(v, NULL, 0) : dflt;
}

static int parse_mode(const char *s, jointer_mode *m)
{
    static const char *const names[4] = {"idle", "init", "filtering", "no_filtering"};
    int i;

    for (i = 0; i < 4; ++i)
        if (strcmp(s, names[i]) == 0) {
            *m = (jointer_mode)i;
            return 0;
        }
    return -EINVAL;
}

/* "prefix:name=rest": copy name, return rest (or NULL) */
static const char *split(const char *arg, const char *prefix, char *name, size_t size)
{
    size_t n = strlen(prefix);
    const char *eq;

    if (strncmp(arg, prefix, n) != 0)
        return NULL;
    eq = strchr(arg + n, '=');
    if (eq == NULL || (size_t)(eq - (arg + n)) >= size)
        return NULL;
    memcpy(name, arg + n, (size_t)(eq - (arg + n)));
    name[eq - (arg + n)] = '\0';
    return eq + 1;
}

int cosim_setup(jointer_dev *dev, int argc, char **argv)
{
    const jointer_cfg *cfg = cosim_cfg;
    char name[96];
    const char *rest;
    unsigned s;
    int i, r;

    for (i = 1; i < argc; ++i) { /* every mode argument names a sniffer and a mode */
        jointer_mode m;
        rest = split(argv[i], "mode:", name, sizeof name);
        if (rest != NULL && (jointer_find_sniffer(cfg, name) < 0 || parse_mode(rest, &m) < 0)) {
            fprintf(stderr, "app: bad argument %s\n", argv[i]);
            return -EINVAL;
        }
    }
    for (s = 0; s < cfg->num_sniffers; ++s) {
        jointer_mode m = JOINTER_NO_FILTERING;
        for (i = 1; i < argc; ++i) {
            rest = split(argv[i], "mode:", name, sizeof name);
            if (rest != NULL && jointer_find_sniffer(cfg, name) == (int)s)
                (void)parse_mode(rest, &m);
        }
        r = jointer_set_mode(dev, cfg->sniffers[s].lmic, cfg->sniffers[s].index, m);
        if (r < 0)
            return r;
    }
    for (i = 1; i < argc; ++i) {
        if ((rest = split(argv[i], "bounds:", name, sizeof name)) != NULL) {
            char *end;
            unsigned long long lo = strtoull(rest, &end, 0), hi;
            int mi = jointer_find_metric(cfg, name);
            const jointer_metric_desc *md;
            if (mi < 0 || *end != ':') {
                fprintf(stderr, "app: bad argument %s\n", argv[i]);
                return -EINVAL;
            }
            hi = strtoull(end + 1, NULL, 0);
            md = &cfg->metrics[mi];
            r = jointer_initialize(dev, md->lmic, cfg->sniffers[md->sniffer].index, md->dcapf,
                                   (uint64_t)lo, (uint64_t)hi);
            if (r < 0)
                return r;
        } else if ((rest = split(argv[i], "threshold:", name, sizeof name)) != NULL) {
            int mi = jointer_find_metric(cfg, name);
            if (mi < 0) {
                fprintf(stderr, "app: bad argument %s\n", argv[i]);
                return -EINVAL;
            }
            r = jointer_set_threshold(dev, (unsigned)mi, strtoull(rest, NULL, 0));
            if (r < 0)
                return r;
        }
    }
    return 0;
}

int cosim_run_all(jointer_dev *dev)
{
    unsigned l;
    int r = 0;

    for (l = 0; r == 0 && l < cosim_cfg->num_lmics; ++l)
        r = jointer_run(dev, l);
    return r;
}

int cosim_stop_all(jointer_dev *dev)
{
    unsigned l;
    int r = 0;

    for (l = 0; r == 0 && l < cosim_cfg->num_lmics; ++l)
        r = jointer_stop(dev, l);
    return r;
}

/* "<a><b>" reported (or expected) with value v */
static void put(int expect, const char *a, const char *b, uint64_t v)
{
    char name[128];

    snprintf(name, sizeof name, "%s%s", a, b);
    if (expect)
        platform_expect(name, v);
    else
        platform_report(name, v);
}

/* a histogram's buckets, one snapshot: "<metric>.bucket<k>" */
static int report_buckets(jointer_dev *dev, unsigned metric)
{
    uint64_t b[64];
    char k[16];
    int i, n, r;

    if (cosim_cfg->metrics[metric].aggregator != JOINTER_AGGREGATOR_HISTOGRAM)
        return 0;
    n = jointer_histogram_buckets(dev, metric);
    r = n < 0 ? n : jointer_read_histogram(dev, metric, b, 64);
    for (i = 0; r == 0 && i < n; ++i) {
        snprintf(k, sizeof k, ".bucket%d", i);
        put(0, cosim_cfg->metrics[metric].name, k, b[i]);
    }
    return r;
}

int cosim_report_all(jointer_dev *dev)
{
    const jointer_cfg *cfg = cosim_cfg;
    unsigned i;
    int r;

    for (i = 0; i < cfg->num_metrics; ++i) {
        uint64_t v;
        r = jointer_read(dev, i, &v);
        if (r < 0)
            return r;
        platform_report(cfg->metrics[i].name, v);
        r = report_buckets(dev, i);
        if (r < 0)
            return r;
    }
    for (i = 0; i < cfg->num_lmics; ++i) {
        uint32_t st;
        r = jointer_status(dev, i, &st);
        if (r < 0)
            return r;
        put(0, "status.", cfg->lmics[i].name, st);
    }
    for (i = 0; i < cfg->num_traces; ++i) {
        const char *t = cfg->traces[i].name;
        uint32_t fill, st, lost;
        if (cfg->traces[i].sink_bytes != 0) {
            /* a sink trace: its registers (no ring attached here) */
            r = jointer_sink_status(dev, i, &st, &fill, &lost);
            if (r < 0)
                return r;
            put(0, t, ".wptr", fill);
            put(0, t, ".lost", lost);
        } else {
            r = jointer_trace_status(dev, i, &fill, &st);
            if (r < 0)
                return r;
            put(0, t, ".fill", fill);
        }
        put(0, t, ".status", st);
    }
    return 0;
}

void cosim_expect_idle(void)
{
    const jointer_cfg *cfg = cosim_cfg;
    unsigned i;

    for (i = 0; i < cfg->num_metrics; ++i) {
        const jointer_metric_desc *m = &cfg->metrics[i];
        uint64_t ones = m->width >= 64u ? UINT64_MAX : (UINT64_C(1) << m->width) - 1u;
        platform_expect(m->name, m->aggregator == JOINTER_AGGREGATOR_MIN ? ones : 0u);
    }
    for (i = 0; i < cfg->num_lmics; ++i)
        put(1, "status.", cfg->lmics[i].name, 0);
    for (i = 0; i < cfg->num_traces; ++i) {
        const char *t = cfg->traces[i].name;
        if (cfg->traces[i].sink_bytes != 0) {
            /* STATUS not expected: CONFIG_ERROR until the host sets BASE/SIZE */
            put(1, t, ".wptr", 0);
            put(1, t, ".lost", 0);
        } else {
            put(1, t, ".fill", 0);
            put(1, t, ".status", 0);
        }
    }
}
