// SPDX-License-Identifier: MIT
/*
 * jointer_names.c - find LMICs, sniffers, metrics and traces by name (the CLI
 * and hosted tools use it; optional on bare metal). No OS header.
 */
#include "jointer.h"

static int same(const char *a, const char *b, char end)
{
    if (a == NULL || b == NULL)
        return 0;
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == '\0' && (*b == '\0' || *b == end);
}

int jointer_find_lmic(const jointer_cfg *cfg, const char *name)
{
    unsigned i;
    if (cfg == NULL || name == NULL)
        return -EINVAL;
    for (i = 0; i < cfg->num_lmics; i++)
        if (same(cfg->lmics[i].name, name, '\0'))
            return (int)i;
    return -ENOENT;
}

int jointer_find_sniffer(const jointer_cfg *cfg, const char *name)
{
    const char *dot;
    unsigned i;

    if (cfg == NULL || name == NULL)
        return -EINVAL;
    for (dot = name; *dot != '\0' && *dot != '.'; dot++)
        ;
    for (i = 0; i < cfg->num_sniffers; i++) {
        const jointer_sniffer_desc *s = &cfg->sniffers[i];
        if (*dot == '.') { /* "lmic.sniffer" */
            if (s->lmic < cfg->num_lmics && same(cfg->lmics[s->lmic].name, name, '.')
                && same(s->name, dot + 1, '\0'))
                return (int)i;
        } else if (same(s->name, name, '\0')) {
            return (int)i;
        }
    }
    return -ENOENT;
}

int jointer_find_metric(const jointer_cfg *cfg, const char *name)
{
    unsigned i;
    if (cfg == NULL || name == NULL)
        return -EINVAL;
    for (i = 0; i < cfg->num_metrics; i++)
        if (same(cfg->metrics[i].name, name, '\0'))
            return (int)i;
    return -ENOENT;
}

int jointer_find_trace(const jointer_cfg *cfg, const char *name)
{
    unsigned i;
    if (cfg == NULL || name == NULL)
        return -EINVAL;
    for (i = 0; i < cfg->num_traces; i++)
        if (same(cfg->traces[i].name, name, '\0'))
            return (int)i;
    return -ENOENT;
}
