/* SPDX-License-Identifier: MIT */
/*
 * jointer_export.h - trace files (jointer_trace_file.h) converted record by
 * record, in constant memory, to
 *   - CSV and JSON (what `jointer trace --convert` prints),
 *   - VCD: per trace a 32-bit `data` and a 1-bit `strobe` (high during each
 *     record's cycle) in scope <monitor>.<trace>, timescale 1 ps, time =
 *     cycle x the LMIC clock period (clock_hz 0, unknown: 1 ns per cycle);
 *     several files are merged in time order,
 *   - Chrome/Perfetto JSON trace events: records as instant events on one
 *     thread per trace, program-monitor calls as complete ("X") slices,
 *     counter ("C") samples; ts in microseconds.
 * Cycles and durations follow the one wrap rule of jointer_cycles.h.
 * The CLI (`jointer trace --convert`) and the Python package (ctypes) call
 * the same functions: one implementation of each format.
 *
 * An input file must be seekable (a regular file: the size is checked
 * against the header before anything is written). A file without COMPLETE
 * (the recording was cut short) converts its whole records; a partial record
 * at its end is ignored and counted in tail_bytes. Every function returns 0
 * or -errno; jointer_export_message() says what is wrong in one line (the
 * byte offset where it applies). Hosted (stdio), no allocation.
 */
#ifndef JOINTER_EXPORT_H
#define JOINTER_EXPORT_H

#include <stdio.h>

#include "jointer_cycles.h"
#include "jointer_pm.h"
#include "jointer_trace_file.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

#define JOINTER_EXPORT_BUF 1024u     /* records read at a time */

/* why a source stopped (jointer_export_message) */
enum jointer_export_why {
    JOINTER_EXPORT_OK = 0,
    JOINTER_EXPORT_NOT_SEEKABLE,   /* not a regular file */
    JOINTER_EXPORT_EMPTY,          /* 0 bytes */
    JOINTER_EXPORT_BAD_MAGIC,      /* offset 0 */
    JOINTER_EXPORT_BAD_VERSION,    /* offset 8 */
    JOINTER_EXPORT_BAD_ENCODING,   /* offset 10 */
    JOINTER_EXPORT_SHORT_HEADER,   /* fewer than 104 bytes */
    JOINTER_EXPORT_TRUNCATED,      /* COMPLETE, fewer items than the header counts */
    JOINTER_EXPORT_TRAILING,       /* COMPLETE, bytes after the items the header counts */
    JOINTER_EXPORT_MALFORMED,      /* a malformed compact unit */
    JOINTER_EXPORT_READ_ERROR,     /* the read failed */
    JOINTER_EXPORT_WRITE_ERROR,    /* the output failed */
    JOINTER_EXPORT_BAD_TIMELINE    /* version 2: a malformed timeline block (offset 104) */
};

#define JOINTER_EXPORT_OPEN 64u      /* spans open at once per trace (more: the oldest is
                                      * closed as "no end", said so) */

/* a span opened and not yet closed (the spans' state of a source) */
typedef struct jointer_export_open_span {
    uint64_t cycle;        /* its begin */
    uint32_t value;        /* its event value */
    uint8_t span;          /* index into the header's spans */
} jointer_export_open_span;

/* one input trace file; all state inside (the caller gives the storage) */
typedef struct jointer_export_src {
    FILE *f;
    jointer_tfile_header h;
    jointer_tfile_reader rd;
    jointer_cycles clk;
    uint64_t size;         /* bytes of the file */
    uint64_t items;        /* 8-byte items (records or units) to read */
    uint64_t records;      /* records delivered so far */
    uint32_t tail_bytes;   /* a file without COMPLETE: bytes of a partial item at its end, ignored */
    int why;               /* enum jointer_export_why of the error, 0 */
    uint64_t err_offset;   /* byte offset of the error */
    uint64_t err_value;    /* what was found there (version, encoding, items, bytes) */
    char name[32];         /* the trace's name, else the caller's fallback */
    /* time: the host's clock when the file holds a sync and its sync record */
    int synced;            /* 1: times are the host's clock (CLOCK_MONOTONIC) */
    uint64_t sync_cycle;   /* the cycle of the first sync record */
    uint64_t sync_ns;      /* the host's time at it: the middle of sync slot 0 */
    uint64_t sync_err_ns;  /* half that slot: how far the host's time may be off */
    unsigned tag_bits;     /* low bits of a record's data that tag its lanes (0: one lane) */
    /* spans (Perfetto slices, the spans CSV) */
    jointer_export_open_span open[JOINTER_EXPORT_OPEN];
    unsigned nopen;
    int seen;                           /* a record was given to the spans */
    uint64_t first_cycle, last_cycle;   /* of the records so far */
    /* VCD state */
    char scope_mon[32], scope_trace[40], id_data[4], id_strobe[4];
    char id_lane[JOINTER_MAX_LANES + 1u][4];   /* a trace with lanes: a wire per lane, then sync */
    uint32_t vmask;                 /* its lane wires that are high */
    int64_t offset_ps;              /* time of cycle 0 (synced: the host's clock) */
    uint64_t period_ps, clear_at;   /* clear_at: time of the strobe's fall, UINT64_MAX none */
    int have;                       /* 1: next/next_cycle hold the next record */
    jointer_trace_record next;
    uint64_t next_cycle;
    uint32_t n, pos;                /* buf: records held, next one */
    jointer_trace_record buf[JOINTER_EXPORT_BUF];
} jointer_export_src;

/* open path for reading without blocking (O_NONBLOCK: a FIFO without a
 * writer) and only when it is a regular file: -EISDIR, -ESPIPE (a FIFO or a
 * socket), -ENODEV (a device), or open's -errno */
int jointer_export_fopen(const char *path, FILE **f);
/* what jointer_export_fopen's error means, one line */
const char *jointer_export_open_error(int err);
/* read and check the header of f (at its start); name_fallback names a
 * trace without a name (may be NULL). A file with the host's syncs is read
 * up to its first sync record (then from its start again): the time base.
 * -EPROTO (not a trace file, bad size), -ESPIPE (not seekable), -EIO */
int jointer_export_open(jointer_export_src *s, FILE *f, const char *name_fallback);
/* the clock's real frequency (Hz, > 0) instead of the file's: every time
 * and duration after it. -EINVAL */
int jointer_export_set_clock(jointer_export_src *s, uint32_t hz);
/* up to max records (max >= 3) from where the source is: *n = 0 at the end */
int jointer_export_read(jointer_export_src *s, jointer_trace_record *rec, uint32_t max, uint32_t *n);
/* cycles[i] of ts[0..n-1] continuing the source's clock (jointer_cycles.h) */
void jointer_export_cycles(jointer_export_src *s, const uint32_t *ts, uint32_t n, uint64_t *cycles);
/* one line (no file name, no newline) saying why s stopped, for err */
void jointer_export_message(const jointer_export_src *s, int err, char *buf, size_t size);

/* `jointer trace --convert` CSV / JSON of one file (a compact file is read
 * twice: the header line counts its records) */
int jointer_export_csv(FILE *out, jointer_export_src *s);
int jointer_export_json(FILE *out, jointer_export_src *s);
/* the spans of one file (its header's), one row each:
 * span,id,track,begin_cycle,end_cycle,begin_s,end_s,duration_s,status
 * (status: ok, "no end" for a span still open at the end of the trace or
 * beyond JOINTER_EXPORT_OPEN open ones, "no begin" for an end without an
 * open span: such rows start at the trace's first record or end at its
 * last one). -ENOENT when the trace has no spans */
int jointer_export_spans_csv(FILE *out, jointer_export_src *s);
/* VCD of n files merged in time order; version: the generator's, in $version */
int jointer_export_vcd(FILE *out, jointer_export_src *const *src, unsigned n, const char *version);

/* ---- Perfetto: begin, processes and threads, sources, counters, end ----- */
typedef struct jointer_perfetto {
    FILE *out;
    uint64_t events;
} jointer_perfetto;

/* program-monitor calls: the functions (jointer_pm.h roles, names) and a
 * call stack (the oldest frame is dropped when it is full) */
typedef struct jointer_export_frame {
    uint64_t cycle;
    uint16_t function;
} jointer_export_frame;

typedef struct jointer_export_calls {
    const jointer_pm_function *fn;
    const char *const *names;
    unsigned nfn;
    jointer_export_frame *stack;
    unsigned stack_depth;
} jointer_export_calls;

int jointer_perfetto_begin(jointer_perfetto *p, FILE *out);
int jointer_perfetto_process(jointer_perfetto *p, unsigned pid, const char *name);
int jointer_perfetto_thread(jointer_perfetto *p, unsigned pid, unsigned tid, const char *name);
/* every record of s as an instant on (pid, tid) (a trace with lanes: one
 * per lane that fired, named after it; sync records: "sync"); calls (may be
 * NULL) as slices; the trace's spans as slices on their own threads of pid:
 * 65536 x tid + 61440 + span (track: trace) or 65536 x tid + span x 3840 +
 * value mod 3840 (track: value), named "<trace>: <span>" / "<span> <value>" */
int jointer_perfetto_records(jointer_perfetto *p, jointer_export_src *s, unsigned pid, unsigned tid,
                             const jointer_export_calls *calls);
int jointer_perfetto_counter(jointer_perfetto *p, unsigned pid, const char *name, double ts_us, int64_t value);
/* closes the array; generator and the sources' names in otherData */
int jointer_perfetto_end(jointer_perfetto *p, const char *generator, const char *const *sources, unsigned n);

/* for the Python binding (no struct mirror): sizeof (jointer_export_src),
 * its header, and its counts */
size_t jointer_export_src_size(void);
const jointer_tfile_header *jointer_export_header(const jointer_export_src *s);
enum { JOINTER_EXPORT_RECORDS, JOINTER_EXPORT_ITEMS, JOINTER_EXPORT_TAIL, JOINTER_EXPORT_SKIPPED,
       JOINTER_EXPORT_ITEMS_READ, JOINTER_EXPORT_WHY, JOINTER_EXPORT_SYNCED, JOINTER_EXPORT_SYNC_NS,
       JOINTER_EXPORT_SYNC_CYCLE, JOINTER_EXPORT_SYNC_ERR_NS };
uint64_t jointer_export_count(const jointer_export_src *s, int what);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_EXPORT_H */
