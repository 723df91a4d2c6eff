/* SPDX-License-Identifier: MIT */
/*
 * jointer_papi_int.h - what jointer_papi.c (registration, reads) and
 * jointer_papi_names.c (event names, kinds, descriptions) share. Internal:
 * not installed, not part of the API (that is jointer_papi.h); the
 * jointer__ prefix keeps these names out of an application's way.
 */
#ifndef JOINTER_PAPI_INT_H
#define JOINTER_PAPI_INT_H

#include <stddef.h>

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

/* event ev of cfg is metric ev (ev < num_metrics), or the LOST counter of
 * the (ev - num_metrics)-th relay/sink trace */
int jointer__papi_loses(const jointer_trace_desc *t);        /* the trace has LOST */
int jointer__papi_check_cfg(const jointer_cfg *cfg);         /* names usable, fit: 0 or -errno */
unsigned jointer__papi_num_lost(const jointer_cfg *cfg);     /* LOST events of cfg */
unsigned jointer__papi_lost_trace(const jointer_cfg *cfg, unsigned k);
void jointer__papi_short_name(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size);
void jointer__papi_lib_name(const jointer_cfg *cfg, char *buf, size_t size);
int jointer__papi_kind(const jointer_metric_desc *md);       /* JP_* of a metric */
int jointer__papi_event_kind(const jointer_cfg *cfg, unsigned ev);
int jointer__papi_sde_mode(int kind);                        /* PAPI_SDE_* flags */
void jointer__papi_describe(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size);
int jointer__papi_full_name(const jointer_cfg *cfg, unsigned ev, char *buf, size_t size);

#endif
