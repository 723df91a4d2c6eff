/* SPDX-License-Identifier: MIT */
/*
 * jointer_papi.h - export the metrics of a jointer monitor as PAPI software
 * defined events (SDE), through libsde (PAPI 7).
 *
 * Hosted only (POSIX threads, malloc), not part of the bare-metal core.
 * Link: jointer_papi.c + libjointer + the generated <name>.c, then
 * -lpapi -lsde -pthread (pkg-config papi gives only -lpapi: libsde must be
 * linked into the process that reads the events).
 *
 * Every metric of the device becomes the PAPI event
 *
 *     sde:::jointer_<monitor>::<sniffer>.<metric>
 *
 * (SDE library "jointer_<monitor>", event "<sniffer>.<metric>") whose value a
 * callback computes on each PAPI_start / PAPI_read / PAPI_stop:
 *
 *   - sum metrics (event counters, busy-time counters) are PAPI_SDE_DELTA
 *     counters: PAPI reports the change since PAPI_start;
 *       - wrap mode (on_overflow: wrap) and narrower than 64 bits: extended
 *         to 64 bits in software: a read below the previous one of the same
 *         metric means the register wrapped, and 2^width is added. Correct
 *         while the metric is read at least once per wrap period (at most
 *         2^width - 1 counts between two reads of that metric; every
 *         PAPI_read of an event set holding it is a read);
 *       - saturating (the default) or 64 bits wide: reported as read;
 *   - max / min / last metrics are PAPI_SDE_INSTANT: the value as read.
 *
 * Every trace that can drop records - a relay trace (jointer_trace_desc.relay)
 * or a sink trace (sink_bytes != 0) - adds the event
 *
 *     sde:::jointer_<monitor>::<sniffer>.<trace>_lost
 *
 * a PAPI_SDE_INSTANT counter: its LOST register as read
 * (jointer_trace_lost), records dropped because the buffer/FIFO was full,
 * saturating at 2^32 - 1, cleared with the trace. Monitors without such a
 * trace have no such event.
 *
 * Soft reset: a SOFT_RESET clears the results, which the extension cannot
 * tell from a wrap. Reset through jointer_papi_reset() (reads the LMIC's
 * counters, pulses SOFT_RESET, rebases), or call jointer_papi_rebase() right
 * after a reset made elsewhere and before the next PAPI read: the counters
 * continue from the last value PAPI saw (a running PAPI delta neither drops
 * nor jumps), max/min/last metrics show the cleared values.
 *
 * Errors: functions return 0 or a negative errno. A callback cannot return
 * one to PAPI: when jointer_read (jointer_trace_lost) fails it reports the
 * last good value and keeps the error for jointer_papi_error().
 *
 * Thread safety: register/unregister/reset/rebase/value/error and the
 * callbacks may run in any thread (one lock per monitor, one for the table).
 * The callbacks read the device from the thread that calls PAPI_read: its
 * seam must allow that (a direct seam does; an ops seam must be thread-safe
 * if the application uses the device from other threads meanwhile). Do not
 * close the device, nor change its seam, while it is registered.
 */
#ifndef JOINTER_PAPI_H
#define JOINTER_PAPI_H

#include <stddef.h>

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* monitor names a process can register (each keeps its place: see
 * jointer_papi_register); a compile-time option */
#ifndef JOINTER_PAPI_MAX_DEVICES
#define JOINTER_PAPI_MAX_DEVICES 16u
#endif

/* the longest full event name, with its NUL (PAPI_MAX_STR_LEN) */
#define JOINTER_PAPI_NAME_MAX 128u

/*
 * Register every metric of dev (initialised, on any seam) with libsde. Reads
 * each metric once, as the starting point of the wrap extension. dev must
 * stay valid until jointer_papi_unregister(dev).
 * -EINVAL (dev NULL or not initialised, a name that is not a C identifier,
 * a metric named like a LOST event),
 * -EEXIST (dev already registered; another device of the same monitor name
 * registered; or that name was registered before with other events),
 * -ENOSPC (JOINTER_PAPI_MAX_DEVICES monitor names: see below),
 * -ENAMETOOLONG (a full event name of JOINTER_PAPI_NAME_MAX characters or
 * more), -ENOMEM, -ENOTSUP (SDE disabled: PAPI's sde component is off), the
 * error of the first jointer_read, -EIO (libsde refused an event). On an
 * error dev is not registered.
 *
 * Lifetime: libsde 7.0 cannot unregister an event safely (its
 * papi_sde_unregister_counter leaves the freed name in its hash table), so
 * the SDE library "jointer_<monitor>" and its events, once registered, stay
 * for the life of the process, with the module's state behind them (a few
 * hundred bytes per metric). A monitor name takes one of the
 * JOINTER_PAPI_MAX_DEVICES places for good; registering a device of the same
 * monitor again takes no new place.
 */
int jointer_papi_register(jointer_dev *dev);

/*
 * Detach dev: its events stay in PAPI but no longer read the device; they
 * report the last value read, until a device of the same monitor is
 * registered again (the counters then restart from that device's registers:
 * stop the event sets holding them first, PAPI_stop, or their deltas jump).
 * -ENOENT when dev is not registered.
 */
int jointer_papi_unregister(jointer_dev *dev);

/*
 * jointer_reset(dev, lmic) with the PAPI values kept consistent: reads the
 * sum metrics of that LMIC (JOINTER_ALL_LMICS: every LMIC), pulses
 * SOFT_RESET, then rebases them (see jointer_papi_rebase). Counts between
 * that read and the pulse are lost; stop the LMIC first to lose none.
 * -ENOENT (not registered), -EINVAL (lmic), errors of jointer_read/_reset
 * (then nothing is rebased).
 */
int jointer_papi_reset(jointer_dev *dev, unsigned lmic);

/*
 * After a soft reset made without jointer_papi_reset (another process, the
 * CLI): each sum metric of that LMIC (JOINTER_ALL_LMICS: every LMIC)
 * continues from the last value a PAPI read reported, counting what the
 * register holds from now on. No bus access. Call it before the next PAPI
 * read of those events: a read in between takes the drop for a wrap (wrap
 * mode) or reports it (saturating). -ENOENT, -EINVAL (lmic).
 */
int jointer_papi_rebase(jointer_dev *dev, unsigned lmic);

/*
 * The value a PAPI read of metric `metric` would report (extended, rebased),
 * read now: 0 or the jointer_read error. -ENOENT, -EINVAL.
 */
int jointer_papi_value(jointer_dev *dev, unsigned metric, uint64_t *value);

/* the first error a callback met since the last call (then cleared), 0 if
 * none; -ENOENT when dev is not registered */
int jointer_papi_error(jointer_dev *dev);

/*
 * The full PAPI name of metric `metric` of cfg,
 * "sde:::jointer_<monitor>::<sniffer>.<metric>", into buf (size bytes).
 * Returns its length, -EINVAL, -ENAMETOOLONG (>= JOINTER_PAPI_NAME_MAX) or
 * -ERANGE (buf too small).
 */
int jointer_papi_event_name(const jointer_cfg *cfg, unsigned metric, char *buf, size_t size);

/*
 * The full PAPI name of the LOST event of trace `trace` of cfg,
 * "sde:::jointer_<monitor>::<sniffer>.<trace>_lost". Returns its length,
 * -EINVAL (also: a metric of that sniffer is named "<trace>_lost"),
 * -ENOTSUP (neither a relay nor a sink trace: no LOST event),
 * -ENAMETOOLONG or -ERANGE.
 */
int jointer_papi_lost_event_name(const jointer_cfg *cfg, unsigned trace, char *buf, size_t size);

/*
 * papi_native_avail -sde FILE: the utility dlopens FILE and every library
 * ldd lists for it, calls their papi_sde_hook_list_events(), then lists the
 * events registered. jointer_papi_list_events registers the events (metrics, LOST) of the n
 * descriptors through fptr (libsde's functions in the utility's process)
 * with a callback that reads nothing; it returns the last SDE handle (NULL
 * on an error). JOINTER_PAPI_LISTABLE(&a_cfg, &b_cfg ...) defines the hook.
 *
 * glibc (>= 2.30) cannot dlopen an executable: put the hook into a shared
 * library (with the descriptors, jointer_papi.c and libjointer) that the
 * application links; `papi_native_avail -sde APP` finds it through ldd.
 * drivers/papi/jointer_papi_hook.c is such a file for one descriptor
 * (-DJOINTER_PAPI_CFG=<name>_cfg).
 */
struct papi_sde_fptr_struct_s;
void *jointer_papi_list_events(struct papi_sde_fptr_struct_s *fptr,
                               const jointer_cfg *const *cfgs, size_t n);

#define JOINTER_PAPI_LISTABLE(...)                                                  \
    void *papi_sde_hook_list_events(struct papi_sde_fptr_struct_s *fptr);           \
    void *papi_sde_hook_list_events(struct papi_sde_fptr_struct_s *fptr)            \
    {                                                                               \
        static const jointer_cfg *const jointer_papi_listed_[] = {__VA_ARGS__};    \
        return jointer_papi_list_events(fptr, jointer_papi_listed_,                 \
                   sizeof jointer_papi_listed_ / sizeof jointer_papi_listed_[0]);   \
    }

#ifdef __cplusplus
}
#endif

#endif /* JOINTER_PAPI_H */
