/* SPDX-License-Identifier: MIT */
/*
 * jointer_cycles.h - the one rule for 32-bit cycle timestamps that wrap,
 * used by every tool that turns trace records into times or durations (the
 * profile, jointer_pm_profile, and the VCD / Perfetto / CSV exporters,
 * jointer_export.h; the Python package calls them through ctypes).
 *
 * A record's timestamp is the low 32 bits of its LMIC's cycle counter. The
 * records of one trace are in time order, so from one record to the next
 * (timestamp - previous timestamp) modulo 2^32 cycles pass: a record's
 * cycle is the previous record's cycle plus that difference, the first
 * record's cycle is its timestamp. The duration between two records (a
 * call, entry to exit) is the difference of their cycles: it counts every
 * wrap between them. What cannot be told apart: two consecutive records
 * 2^32 cycles or more apart (42.9 s at 100 MHz) lose multiples of 2^32.
 * C99, no allocation, no OS header.
 */
#ifndef JOINTER_CYCLES_H
#define JOINTER_CYCLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

typedef struct jointer_cycles {
    uint64_t cycle;   /* the cycle of the last record */
    uint32_t last;    /* its timestamp */
    uint8_t started;  /* 0 before the first record */
} jointer_cycles;

static inline void jointer_cycles_reset(jointer_cycles *c)
{
    c->cycle = 0;
    c->last = 0;
    c->started = 0;
}

/* the cycle of the next record of timestamp ts (the rule above) */
static inline uint64_t jointer_cycles_next(jointer_cycles *c, uint32_t ts)
{
    c->cycle = c->started ? c->cycle + (uint32_t)(ts - c->last) : (uint64_t)ts;
    c->last = ts;
    c->started = 1;
    return c->cycle;
}

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_CYCLES_H */
