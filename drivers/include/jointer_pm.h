/* SPDX-License-Identifier: MIT */
/*
 * jointer_pm.h - the program monitor (YAML `interfacer: {type: pc}`): program
 * its address table, and turn its trace into per-function statistics.
 *
 * A program monitor sniffer compares the PC of a processor with up to 32
 * addresses; each match of an enabled address emits one event whose data is
 * the address's index (a trace DCAPF stores {timestamp, index}). The table
 * is written through the sniffer's INIT register after its DCAPFs' bounds
 * (jointer_sniffer_desc.pm_addresses, doc/internals/program-monitor.md).
 * C99, no allocation, no OS header; every function returns 0 or -errno.
 */
#ifndef JOINTER_PM_H
#define JOINTER_PM_H

#include <stdint.h>

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

#define JOINTER_PM_MAX_ADDRESSES 32u

/*
 * Program the table of program monitor `sniffer` (index inside LMIC `lmic`):
 * addresses[0..count-1] into entries 0..count-1, then the enable mask (bit i
 * enables entry i; entries from count on keep their old address). Bus
 * sequence: CONTROL with the sniffer in INIT (restarts its INIT pointer), its
 * DCAPFs' bounds from the bounds cache (2 words each, as jointer_initialize),
 * the mask, the count addresses, then CONTROL with the sniffer's previous
 * mode again (RUN as it was). While the sniffer is in INIT it records
 * nothing. Errors: -EINVAL (bad device, LMIC, sniffer, NULL addresses with
 * count > 0), -ENOTSUP (not a program monitor), -ERANGE (count above the
 * table, an address >= 2^pc_width, a mask bit beyond the table), -ENOBUFS (a
 * sniffer with DCAPFs and no bounds cache), or the bus error.
 */
int jointer_pm_program(jointer_dev *dev, unsigned lmic, unsigned sniffer,
                       const uint32_t *addresses, unsigned count, uint32_t enable);

/* Only the enable mask (the addresses stay): the same sequence with count 0. */
int jointer_pm_enable(jointer_dev *dev, unsigned lmic, unsigned sniffer, uint32_t enable);

/* ---- profile: per-function statistics from {timestamp, index} records --- */

#define JOINTER_PM_NO_INDEX 0xFFu

/* One function: the table indices of its entry and exit addresses (exit
 * JOINTER_PM_NO_INDEX: calls are counted at entries, no time). */
typedef struct jointer_pm_function {
    uint8_t entry;
    uint8_t exit;
} jointer_pm_function;

typedef struct jointer_pm_stats {
    uint32_t calls;             /* completed calls (entry then exit), or entries without exit index */
    uint32_t unmatched_entries; /* entries never closed (lost exit, trace ended, an outer exit) */
    uint32_t unmatched_exits;   /* exits without an open call (trace started inside the function) */
    uint64_t total;             /* sum of the calls' cycles (inclusive; recursion counts nested calls again) */
    uint32_t min, max;          /* cycles of the shortest / longest call (at most 2^32 - 1: longer
                                   calls count 2^32 - 1 here, exactly in total); 0 without calls */
} jointer_pm_stats;

/* A call stack frame, storage given by the caller. */
typedef struct jointer_pm_frame {
    uint32_t timestamp;  /* bits 0..31 of the entry's cycle (jointer_cycles.h) */
    uint16_t function;
    uint16_t epoch;      /* bits 32..47 of the entry's cycle */
} jointer_pm_frame;

/*
 * Per-function statistics from n trace records (oldest first, data = index).
 * An entry record opens a call (pushes a frame); an exit record closes the
 * innermost open call of its function: frames opened after it are dropped
 * and count as unmatched entries of their functions; its cycles = the exit
 * record's cycle - the entry record's cycle (jointer_cycles.h: every wrap of
 * the 32-bit timestamps between them counts; calls up to 2^48 cycles) go to
 * calls, total, min, max. An exit without an open call is an unmatched
 * exit; calls still open at the end are unmatched entries; records with
 * other indices are ignored. When the stack is full the oldest frame is
 * dropped (an unmatched entry). stats[0..nfn-1] are cleared first.
 * -EINVAL: NULL pointers (records may be NULL when n = 0), nfn 0 or above
 * 256, stack_depth 0, an index used twice (two roles or two functions).
 */
int jointer_pm_profile(const jointer_trace_record *records, uint32_t n,
                       const jointer_pm_function *fn, unsigned nfn,
                       jointer_pm_frame *stack, unsigned stack_depth,
                       jointer_pm_stats *stats);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_PM_H */
