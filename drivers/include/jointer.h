/* SPDX-License-Identifier: MIT */
/*
 * jointer.h - libjointer, the host driver of jointer hardware monitors.
 *
 * C99, no dynamic allocation, no OS header. Every function returns 0 or a
 * negative errno (the platform's <errno.h> values); nothing is printed, log
 * messages go to the hook installed with jointer_set_log().
 *
 * A device = a descriptor (jointer_cfg, generated from the YAML) + a register
 * access seam (jointer_io: a volatile base pointer, or an ops table) + the
 * driver's state (CONTROL shadows, the filter-bounds cache). See
 * drivers/README.md for the semantics and for what the generator emits.
 *
 * Threads and processes. A jointer_dev is one driver of one device: use it
 * from one thread at a time (or under your own mutex); two threads that
 * each open the device (their own jointer_dev) are two drivers. Several
 * drivers of one device (processes: a CLI and an exporter; or two opens in
 * one process) are safe on the Linux ports (UIO, /dev/mem), which lock the
 * device (flock) around what must not interleave:
 *   - CONTROL actions (jointer_run, _stop, _reset, _set_mode,
 *     jointer_initialize): under the lock, CONTROL is read back and only
 *     this driver's change is written, so another driver's run, stop or
 *     modes are never undone (one read more than on bare metal);
 *   - jointer_irq_enable: the global IRQ_ENABLE likewise;
 *   - multi-word reads (jointer_read, _read_all, _read_threshold of a
 *     metric wider than 32 bits): the LSW read and its snapshot together.
 * Safe without a lock: single-word reads (metrics <= 32 bits, status,
 * identity, irq status/ack: w1c of your own sources), jointer_mark. Not
 * shared between drivers: the bounds cache (load one sniffer's bounds from
 * one driver: jointer_initialize of DCAPF k rewrites 0..k-1 from ITS cache),
 * trace drains (one reader per trace), jointer_get_mode (this driver's
 * shadow). Bare metal and ops seams have no lock: one driver per device,
 * each action exactly one write. jointer_strerror, jointer_version*,
 * jointer_find_* and the descriptor functions touch no device: any thread.
 */
#ifndef JOINTER_H
#define JOINTER_H

#include <stddef.h>
#include <stdint.h>
#include <errno.h>

#include "jointer_desc.h"
#include "jointer_compact.h"
#include "jointer_version.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

/* errno values the library returns (negated); fallbacks for minimal libcs */
#ifndef EIO
#define EIO 5
#endif
#ifndef EBADF
#define EBADF 9
#endif
#ifndef EACCES
#define EACCES 13
#endif
#ifndef ENODEV
#define ENODEV 19
#endif
#ifndef ENOTCONN
#define ENOTCONN 107
#endif
#ifndef ENOENT
#define ENOENT 2
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef ENOBUFS
#define ENOBUFS 105
#endif
#ifndef ENOTSUP
#define ENOTSUP 95
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT 110
#endif
#ifndef ESTALE
#define ESTALE 116
#endif
#ifndef EPROTONOSUPPORT
#define EPROTONOSUPPORT 93
#endif
#ifndef EILSEQ
#define EILSEQ 84
#endif
#ifndef EBADMSG
#define EBADMSG 74
#endif
#ifndef ENOSPC
#define ENOSPC 28
#endif
#ifndef EFBIG
#define EFBIG 27
#endif
#ifndef ENOTUNIQ
#define ENOTUNIQ 76
#endif
#ifndef EPROTO
#define EPROTO 71
#endif

#define JOINTER_MAX_LMICS   16u   /* num_lmics_g of jointer_collect_global */
#define JOINTER_MAX_SNIFFERS_PER_LMIC 15u
#define JOINTER_ALL_LMICS   0xFFFFu /* jointer_print_reg: every LMIC */

/* ---- register access seam ------------------------------------------- */

/*
 * Ops table: simulation, mock, access recorder. read32/write32 return 0 or a
 * negative errno (a simulated SLVERR is -EIO). wait_irq (optional, may be
 * NULL) blocks until the monitor's irq line is asserted: 0, or -ETIMEDOUT
 * after timeout_ms (< 0: forever). Offsets are byte offsets from the
 * monitor's base, multiples of 4.
 */
typedef struct jointer_io_ops {
    int (*read32)(void *ctx, uint32_t offset, uint32_t *value);
    int (*write32)(void *ctx, uint32_t offset, uint32_t value);
    int (*wait_irq)(void *ctx, int timeout_ms);
} jointer_io_ops;

/*
 * base != NULL: direct access, one volatile load/store per register access
 * (bare metal, /dev/mem, UIO); ops may still be set for wait_irq only.
 * base == NULL: every access goes through ops->read32/write32.
 */
typedef struct jointer_io {
    volatile uint32_t *base;
    const jointer_io_ops *ops;
    void *ctx;
} jointer_io;

/* a direct seam over a mapped or physical address */
static inline jointer_io jointer_io_direct(volatile void *base)
{
    jointer_io io;
    io.base = (volatile uint32_t *)base;
    io.ops = NULL;
    io.ctx = NULL;
    return io;
}

/* an ops seam */
static inline jointer_io jointer_io_from_ops(const jointer_io_ops *ops, void *ctx)
{
    jointer_io io;
    io.base = NULL;
    io.ops = ops;
    io.ctx = ctx;
    return io;
}

/* ---- hooks ----------------------------------------------------------- */

enum { JOINTER_LOG_ERROR = 0, JOINTER_LOG_WARN = 1, JOINTER_LOG_INFO = 2 };

/* msg is a constant string; err the negative errno it explains (or 0) */
typedef void (*jointer_log_fn)(void *ctx, int level, int err, const char *msg);

/* a free-running millisecond counter (wraps modulo 2^32), for irq waits
 * without an OS (jointer_irq_wait polling) */
typedef uint32_t (*jointer_clock_fn)(void *ctx);

/* without a clock hook, a polled irq wait gives up after
 * timeout_ms * JOINTER_POLLS_PER_MS reads of IRQ_STATUS */
#ifndef JOINTER_POLLS_PER_MS
#define JOINTER_POLLS_PER_MS 1000u
#endif

/* ---- device ---------------------------------------------------------- */

/* resources of a hosted port (jointer_open); the core only calls close and lock */
typedef struct jointer_port {
    int (*close)(struct jointer_port *port);
    /* a device other processes may drive too (the Linux ports: flock on the
     * device): lock (on != 0) or unlock around a read-modify-write of a
     * shared register; NULL: this device is the only driver (bare metal) */
    int (*lock)(struct jointer_port *port, int on);
    void *map;          /* mmap'ed area */
    size_t map_len;
    int fd;             /* device (UIO, /dev/mem) */
    int irq_fd;         /* UIO: where interrupts are armed and counted */
    uint32_t irq_count; /* UIO: last interrupt count read */
} jointer_port;

/*
 * The driver's state: storage the caller provides (no allocation; the
 * generated <name>_dev holds one), set up by jointer_init / jointer_open.
 * Opaque: its fields are libjointer's own, read and written by nothing
 * else (no inline function of these headers touches them), so they may
 * change within a major release. Its size and alignment are part of the
 * ABI of libjointer.so.<major>; jointer_dev_size() gives the library's, and
 * the generated <name>_init / _init_baremetal / _open refuse to run
 * (-EPROTO) when the program was compiled with another.
 */
typedef struct jointer_dev {
    volatile uint32_t *base;        /* direct access, or NULL */
    const jointer_io_ops *ops;
    void *ctx;
    const jointer_metric_desc *metrics;
    uint32_t fast_metrics;          /* num_metrics when base != NULL, else 0 */
    const jointer_cfg *cfg;         /* NULL: not initialised */
    uint32_t *bounds;               /* filter bounds cache, 2 words per DCAPF */
    uint32_t bounds_words;
    uint32_t control[JOINTER_MAX_LMICS]; /* CONTROL shadow per LMIC (SOFT_RESET 0) */
    uint32_t pending[JOINTER_MAX_LMICS]; /* PROG fields of the shadow not yet written
                                          * (jointer_initialize's FILTERING) */
    uint32_t irq_enable;            /* shadow of the global IRQ_ENABLE */
    jointer_log_fn log;
    void *log_ctx;
    jointer_clock_fn clock;
    void *clock_ctx;
    jointer_port port;
    struct jointer_sink_ring *rings; /* sink traces' rings (jointer_sink_start) */
    const struct jointer_sink_ops *sink_ops; /* set by jointer_sink_start: only
                                              * a program that starts a sink links it */
} jointer_dev;

/*
 * Bind a device to its descriptor and register seam (XAxiPmon's
 * CfgInitialize). Clears *dev (install hooks afterwards), validates the
 * descriptor and the seam, then reads each LMIC's CONTROL once and the
 * global IRQ_ENABLE to sync the shadows: a running monitor keeps running.
 * Checks no identity (call jointer_selftest). Then attach the bounds cache
 * (jointer_attach_bounds); the generated <name>_init() does both.
 */
int jointer_init(jointer_dev *dev, const jointer_cfg *cfg, const jointer_io *io);

/* sizeof(jointer_dev) as libjointer was compiled: a program compiled with
 * another size (headers of another major) must not use it */
size_t jointer_dev_size(void);
/* the descriptor a device was bound to (NULL: not initialised) */
const jointer_cfg *jointer_dev_cfg(const jointer_dev *dev);

/*
 * Give the device the storage of its filter-bounds cache: at least
 * jointer_bounds_words(cfg) words (2 per DCAPF; 4 per DCAPF of a sniffer
 * whose event data is wider than 32 bits), filled here with the descriptor's
 * reset values. Needed by jointer_initialize (INIT writes of DCAPF k rewrite
 * DCAPFs 0..k-1). The generated <name>_dev holds <NAME>_BOUNDS_WORDS.
 */
int jointer_attach_bounds(jointer_dev *dev, uint32_t *bounds, uint32_t words);

/* the words of a bounds cache for cfg (0 for NULL) */
uint32_t jointer_bounds_words(const jointer_cfg *cfg);

/* bare metal (jointer_port_baremetal.c): the monitor at physical address
 * base (0: cfg->base_address), direct access; then attach the bounds */
int jointer_init_baremetal(jointer_dev *dev, const jointer_cfg *cfg, uintptr_t base);

/* install after jointer_init / jointer_open (they clear the device) */
void jointer_set_log(jointer_dev *dev, jointer_log_fn fn, void *ctx);
void jointer_set_clock(jointer_dev *dev, jointer_clock_fn fn, void *ctx);

/* flags of jointer_open_ex / jointer_selftest */
#define JOINTER_FORCE           0x1u  /* a VERSION / CONFIG_HASH / INFO mismatch is a warning */
#define JOINTER_SELFTEST_NO_WRITE 0x2u /* selftest: skip the SCRATCH write test */

/*
 * Hosted Linux (drivers/src/jointer_open.c): spec "uio:/dev/uio0" or
 * "devmem:0x43C00000" ("devmem" alone: cfg->base_address). Maps the monitor,
 * jointer_init()s the device and checks ID, VERSION and CONFIG_HASH
 * (jointer_selftest with JOINTER_SELFTEST_NO_WRITE): a mismatch fails the
 * open (-ENODEV, -EPROTONOSUPPORT, -ESTALE) unless flags has JOINTER_FORCE.
 */
int jointer_open(jointer_dev *dev, const jointer_cfg *cfg, const char *spec);
int jointer_open_ex(jointer_dev *dev, const jointer_cfg *cfg, const char *spec, unsigned flags);

/* release the port (unmap, close) and forget the device; 0 or -errno */
int jointer_close(jointer_dev *dev);

/* ---- control (doc/design.md, "Control") ----------------------------------- */

/*
 * Load the filter bounds of DCAPF `dcapf` of sniffer `sniffer` (index inside
 * LMIC `lmic`): one CONTROL write that puts the sniffer in INIT (restarting
 * its INIT pointer), then 2*w*(dcapf+1) INIT writes (DCAPFs 0..dcapf-1 from
 * the bounds cache; w = 1, or 2 for a sniffer whose event data is wider than
 * 32 bits: bits 31..0 then 63..32 of each bound). The sniffer is LEFT IN
 * INIT on the bus; its shadow mode becomes FILTERING, which the next CONTROL
 * write (jointer_run, _stop, _set_mode, _reset of that LMIC) carries: call
 * jointer_run to start it filtering. low <= high (inclusive range), and high
 * fits the sniffer's event data (32 bits, or its data_width: an address
 * above 4 GB), else -ERANGE (a bound the hardware would cut). A DCAPF without a filter
 * (YAML filter: none; JOINTER_METRIC_FILTER clear, jointer_trace_desc.filter
 * 0) has no bounds: -ENOTSUP, no bus access. Its 2 INIT words are still part
 * of the sequence when a later DCAPF of the sniffer is loaded (the hardware
 * ignores them).
 */
int jointer_initialize(jointer_dev *dev, unsigned lmic, unsigned sniffer,
                       unsigned dcapf, uint64_t low, uint64_t high);

/* one CONTROL write: PROG of the sniffer = mode, the rest from the shadow */
int jointer_set_mode(jointer_dev *dev, unsigned lmic, unsigned sniffer, jointer_mode mode);
/* the shadow mode (what the next CONTROL write carries) */
int jointer_get_mode(const jointer_dev *dev, unsigned lmic, unsigned sniffer, jointer_mode *mode);
/* one CONTROL write each: RUN=1 / RUN=0 / SOFT_RESET pulse (results of the
 * non-IDLE sniffers cleared; RUN and PROG unchanged) */
int jointer_run(jointer_dev *dev, unsigned lmic);
int jointer_stop(jointer_dev *dev, unsigned lmic);
int jointer_reset(jointer_dev *dev, unsigned lmic);
/* the LMIC's STATUS register (VALID bit s, OVERFLOW bit 16+s) */
int jointer_status(jointer_dev *dev, unsigned lmic, uint32_t *status);

/* ---- results ---------------------------------------------------------- */

/*
 * Read metric `metric` (index into cfg->metrics). Torn-free: the least
 * significant word is read first and snapshots the upper words. A metric of
 * width <= 32 on a direct seam costs one volatile load after three checks.
 * (Not inline: no code outside libjointer reads jointer_dev's fields.)
 */
int jointer_read(jointer_dev *dev, unsigned metric, uint64_t *value);

/* every metric, in descriptor order, one bus read per result word;
 * n >= cfg->num_metrics */
int jointer_read_all(jointer_dev *dev, uint64_t *values, size_t n);

/* THRESHOLD of a metric with JOINTER_METRIC_THRESHOLD: lower words first,
 * the most significant word commits. value < 2^width (else -ERANGE) */
int jointer_set_threshold(jointer_dev *dev, unsigned metric, uint64_t value);
int jointer_read_threshold(jointer_dev *dev, unsigned metric, uint64_t *value);

/* ---- histograms (drivers/src/jointer_histogram.c) ------ */

/*
 * A histogram metric (aggregator JOINTER_AGGREGATOR_HISTOGRAM) counts its
 * samples in N buckets: bucket 0 = [0, b(1)), bucket k = [b(k), b(k+1)),
 * bucket N-1 = [b(N-1), 2^64), with b(k) = 2^(k-1) (YAML boundaries: pow2)
 * or the listed boundaries. jointer_read() of it returns bucket 0 only.
 */
/* N (>= 2); -ENOTSUP: not a histogram; -EINVAL: no such metric */
int jointer_histogram_buckets(const jointer_dev *dev, unsigned metric);
/* bucket `bucket`'s range [*low, *high); the last bucket has no upper bound:
 * *high = UINT64_MAX (and the bucket includes UINT64_MAX) */
int jointer_histogram_bucket(const jointer_dev *dev, unsigned metric, unsigned bucket,
                             uint64_t *low, uint64_t *high);
/*
 * Every bucket of a histogram into buckets[0..N-1] (n >= N, else -ENOSPC):
 * bucket 0's first word first (the LMIC snapshots all the others in that
 * cycle), then the others in order: one consistent histogram.
 */
int jointer_read_histogram(jointer_dev *dev, unsigned metric, uint64_t *buckets, size_t n);
/*
 * A mean metric (aggregator JOINTER_AGGREGATOR_MEAN: YAML aggregator: mean):
 * the sum and the count of its samples from one snapshot (the sum's first
 * word first), so *sum / *count is a consistent mean. -ENOTSUP: not a mean.
 * jointer_read() of it returns the sum.
 */
int jointer_read_mean(jointer_dev *dev, unsigned metric, uint64_t *sum, uint64_t *count);

/* bus-clock cycles since reset, torn-free (LO snapshots HI); -ENOTSUP when the
 * monitor has no TIMESTAMP (INFO[17], monitor.global.timestamp) */
int jointer_timestamp(jointer_dev *dev, uint64_t *ts);

/* exactly one bus write: MARK = value (an event for the host sniffer);
 * -ENOTSUP when the monitor has no mark sniffer (INFO[18]) */
int jointer_mark(jointer_dev *dev, uint32_t value);

/* ---- trace buffers ---------------------------------------------------- */

typedef struct jointer_trace_record {
    uint32_t timestamp;
    uint32_t data;
} jointer_trace_record;

/* up to max records, oldest first (ring mode when full: from WPTR on;
 * relay: from RPTR on, nothing released);
 * *count = records stored. Stop the LMIC first for a consistent copy */
int jointer_trace_read(jointer_dev *dev, unsigned trace, jointer_trace_record *out,
                       uint32_t max, uint32_t *count);
/* FILL (records) and STATUS (JOINTER_TRACE_STATUS_*) */
int jointer_trace_status(jointer_dev *dev, unsigned trace, uint32_t *fill, uint32_t *status);
/* watermark IRQ when FILL rises to >= records (0: off); records <= depth */
int jointer_trace_set_watermark(jointer_dev *dev, unsigned trace, uint32_t records);

/*
 * Relay traces (YAML mode: relay, jointer_trace_desc.relay): the host drains
 * the buffer while the hardware keeps recording, without losing a record
 * (doc/internals/trace.md "Relay traces"). -ENOTSUP for other traces.
 *
 * jointer_trace_drain: reads FILL and RPTR, copies min(FILL, max) records
 * oldest first from RPTR on, then releases exactly those with one ACK write
 * (the hardware never overwrites an unreleased record, so the copy is exact
 * while it records). *count = records copied. A failed read releases
 * nothing (the records stay for the next drain). Bus accesses: 2 + 2 per
 * record + 1 (none when FILL is 0).
 */
int jointer_trace_drain(jointer_dev *dev, unsigned trace, jointer_trace_record *out,
                        uint32_t max, uint32_t *count);
/* LOST: records dropped because the buffer was full, since the last clear */
int jointer_trace_lost(jointer_dev *dev, unsigned trace, uint32_t *lost);
/* called with each chunk of drained records, oldest first; non-zero stops */
typedef int (*jointer_trace_sink)(void *ctx, const jointer_trace_record *rec, uint32_t n);
/*
 * One relay step: wait (jointer_irq_wait, timeout_ms) for the trace's
 * watermark or full interrupt, acknowledge both sources, then drain (through
 * buf, max records at a time, each chunk to sink) until a drain finds FILL 0
 * (or 4 x depth records were drained: a producer faster than the drain; the
 * next step's wait then times out and drains again).
 * Acknowledging before draining to empty never misses a wake-up: the next
 * rising edge of FILL >= WATERMARK sets the source again. A timeout is not an
 * error: it drains what is there (a poll). Enable the sources first
 * (jointer_trace_set_watermark, jointer_irq_enable with the trace's
 * watermark and full bits). *drained += records passed to sink.
 */
int jointer_trace_relay(jointer_dev *dev, unsigned trace, jointer_trace_record *buf,
                        uint32_t max, int timeout_ms, jointer_trace_sink sink, void *ctx,
                        uint64_t *drained);

/* ---- sink traces ------------------------------------------------------- */

/*
 * A sink trace (YAML mode: sink, jointer_trace_desc.sink_bytes != 0) writes
 * its records through an AXI4 master into a ring in memory the host owns
 * (doc/integration.md "Trace sinks"). The application provides the ring (no
 * allocation here): on Linux jointer_uio_ring_open (jointer_hosted.h) maps
 * the reserved-memory region of the device tree; on bare metal any buffer the
 * master can reach (uncached, or coherent with the CPU). The device keeps a
 * pointer to the ring until jointer_sink_stop: keep it alive until then.
 * Once started, jointer_trace_drain, jointer_trace_relay, jointer_trace_lost
 * and jointer_trace_status work on the sink as on a relay trace; compact
 * records (jointer_trace_desc.encoding) are decoded on the way.
 */
typedef struct jointer_sink_ring {
    const volatile uint8_t *mem;  /* the ring as the CPU sees it */
    uint32_t bus_addr;            /* its address for the sink (BASE): 4 KB aligned */
    uint32_t size;                /* bytes: a non-zero multiple of 4096 */
    uint32_t rptr;                /* offset of the next unit to read */
    unsigned trace;
    jointer_compact_state compact;
    struct jointer_sink_ring *next;
} jointer_sink_ring;

/*
 * Stop the sink, clear it (its bursts end, WPTR = LOST = 0), program BASE,
 * SIZE, RPTR = 0 and WATERMARK (bytes, 0 off), enable it, and attach ring to
 * dev. -ENOTSUP: not a sink trace; -EINVAL: bad ring; -EIO: the sink refused
 * the ring (STATUS.CONFIG_ERROR); -ETIMEDOUT: its bursts never ended.
 */
int jointer_sink_start(jointer_dev *dev, unsigned trace, jointer_sink_ring *ring,
                       const volatile void *mem, uint32_t bus_addr, uint32_t size,
                       uint32_t watermark);
/* disable the sink (no new record; what it holds still reaches the ring) and
 * wait until no burst is outstanding; the ring stays attached for a last drain */
int jointer_sink_stop(jointer_dev *dev, unsigned trace);
/* detach the trace's ring from dev (after the last drain) */
int jointer_sink_detach(jointer_dev *dev, unsigned trace);
/* STATUS (JOINTER_SINK_STATUS_*), WPTR and LOST in one call */
int jointer_sink_status(jointer_dev *dev, unsigned trace, uint32_t *status, uint32_t *wptr,
                        uint32_t *lost);

/*
 * The host's synchronisation (a sink generated with `sync: true`,
 * jointer_trace_desc.sync): reads CONTROL, takes now_ns(ctx) (the host's
 * clock: CLOCK_MONOTONIC on Linux, jointer_monotonic_ns of
 * jointer_hosted.h), writes CONTROL with SYNC (ENABLE kept), takes
 * now_ns(ctx) again. The sink records a sync record (its tag bit) at the
 * LMIC cycle the write reaches it, between *before_ns and *after_ns: a trace
 * file keeps the pair (jointer_tfile_add_sync) and the converters put the
 * hardware's cycles on the host's clock with it. 2 bus accesses.
 * -ENOTSUP: not a sink, or a sink without sync; -EINVAL: arguments.
 */
int jointer_sink_sync(jointer_dev *dev, unsigned trace, uint64_t (*now_ns)(void *ctx), void *ctx,
                      uint64_t *before_ns, uint64_t *after_ns);

/*
 * The units themselves, not decoded (a trace file of encoding 1 stores the
 * compact units: `jointer trace --follow` on a compact sink). A unit is the
 * 64-bit word of the ring (bits 31..0 at the lower address): 1..3 compact
 * records (jointer_compact.h), or a raw record {timestamp = bits 31..0,
 * data = bits 63..32}. jointer_sink_drain_units: like jointer_trace_drain,
 * copies up to max units of [RPTR, WPTR) and releases them with one RPTR
 * write; *count = units. The ring's decoder state restarts: a decoded drain
 * after it begins at the next SYNC. jointer_sink_relay_units: the relay step
 * of jointer_trace_relay with units (*units += units passed to sink). The
 * same errors as jointer_trace_drain (-ENOTCONN before jointer_sink_start).
 */
typedef int (*jointer_unit_sink)(void *ctx, const uint64_t *units, uint32_t n);
int jointer_sink_drain_units(jointer_dev *dev, unsigned trace, uint64_t *out, uint32_t max,
                             uint32_t *count);
int jointer_sink_relay_units(jointer_dev *dev, unsigned trace, uint64_t *buf, uint32_t max,
                             int timeout_ms, jointer_unit_sink sink, void *ctx, uint64_t *units);

/* ---- interrupts --------------------------------------------------------- */

/* LMIC IRQ_ENABLE = mask (bits < num_irq of the LMIC), and the LMIC's bit of
 * the global IRQ_ENABLE = (mask != 0): two writes */
int jointer_irq_enable(jointer_dev *dev, unsigned lmic, uint32_t mask);
/* the LMIC's IRQ_STATUS (pending sources, enabled or not) */
int jointer_irq_status(jointer_dev *dev, unsigned lmic, uint32_t *status);
/* write-1-to-clear the sources in mask */
int jointer_irq_ack(jointer_dev *dev, unsigned lmic, uint32_t mask);
/*
 * Wait until the irq line is asserted; *lmics (may be NULL) = global
 * IRQ_STATUS masked by the global IRQ_ENABLE (bit i: LMIC i). timeout_ms < 0
 * waits forever, 0 checks once. With an ops->wait_irq (UIO, simulation) it
 * blocks there; otherwise it polls IRQ_STATUS, timed by the clock hook
 * (jointer_set_clock) or, without one, by counting polls. -ETIMEDOUT.
 * A spurious wake-up (UIO: an old interrupt count) returns 0 with *lmics 0.
 */
int jointer_irq_wait(jointer_dev *dev, int timeout_ms, uint32_t *lmics);

/* ---- identity and self-test --------------------------------------------- */

typedef struct jointer_ident {
    uint32_t id, version, config_hash, info;
} jointer_ident;

/* four reads: ID, VERSION, CONFIG_HASH, INFO */
int jointer_identify(jointer_dev *dev, jointer_ident *found);

/*
 * ID must be JOINTER_ID_VALUE (-ENODEV); VERSION's major must equal the
 * descriptor's (-EPROTONOSUPPORT); CONFIG_HASH and INFO (LMIC count, window,
 * optional registers: JOINTER_INFO_FEATURES) must match the descriptor
 * (-ESTALE); with JOINTER_FORCE the last two are only logged. Then (unless
 * JOINTER_SELFTEST_NO_WRITE, or the monitor has no SCRATCH) SCRATCH must hold
 * two patterns (-EIO); its value is restored. found (may be NULL) = what was read.
 */
int jointer_selftest(jointer_dev *dev, unsigned flags, jointer_ident *found);

/* text of a (negative or positive) error code; never NULL */
const char *jointer_strerror(int err);

/* ---- version (jointer_version.h) ------------------------------------------ */

/* the library's release at run time, JOINTER_VERSION_NUMBER's form
 * (major << 16 | minor << 8 | patch), and as "1.0.0": a program built
 * against one release's headers checks what it runs with */
uint32_t jointer_version(void);
const char *jointer_version_string(void);

/* ---- names (drivers/src/jointer_names.c, optional) ------------------------ */

/* index of the LMIC / sniffer (into cfg->sniffers) / metric / trace of that
 * name (a sniffer may also be named "lmic.sniffer"), or -ENOENT */
int jointer_find_lmic(const jointer_cfg *cfg, const char *name);
int jointer_find_sniffer(const jointer_cfg *cfg, const char *name);
int jointer_find_metric(const jointer_cfg *cfg, const char *name);
int jointer_find_trace(const jointer_cfg *cfg, const char *name);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_H */
