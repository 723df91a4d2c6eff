/* SPDX-License-Identifier: MIT */
/*
 * jointer_trace_file.h - the relay trace file (hosted: stdio): what
 * `jointer trace --follow -o FILE` writes and `jointer trace --convert`
 * reads. Little-endian, a fixed header, (version 2) its timeline block, then
 * the records:
 *
 *   offset size  field
 *        0    8  magic "JNTRTRC\0"
 *        8    2  version (2; version 1 files, without the timeline block, are read too)
 *       10    2  encoding (0: raw, 8 bytes per record: timestamp u32, data u32;
 *                1: compact, 8-byte units u64 of 1..3 records, doc/trace-encoding.md)
 *       12    4  config hash of the monitor
 *       16    4  clock_hz of the timestamps (the trace's LMIC clock; 0: unknown)
 *       20    4  depth of the hardware buffer (records)
 *       24    4  flags (bit 0 COMPLETE: records and lost are final)
 *       28    4  lost: records the hardware dropped (its LOST register at the end)
 *       32    8  records in the file (compact: units)
 *       40   32  monitor name, NUL padded
 *       72   32  trace name, NUL padded
 *      104       version 2: the timeline block (ext_bytes, below); version 1: the records
 *  104+ext       version 2: records (compact: units)
 *
 * The timeline block (version 2), offsets from 104:
 *        0    4  ext_bytes: its size (a multiple of 8; the records start at 104 + ext_bytes)
 *        4    1  num_lanes (0: one lane; 1..16: the record's data word is (value << tag
 *                bits) | tag, tag bit i = lane i fired; jointer_desc.h)
 *        5    1  sync (1: tag bit num_lanes marks the host's sync records)
 *        6    1  num_spans (0..16)
 *        7    1  num_syncs: sync slots filled (the k-th sync record of the trace is slot k's)
 *        8    1  max_syncs: sync slots present (JOINTER_TFILE_MAX_SYNCS)
 *       12   32  clock: the name of the timestamps' clock (YAML clocks:), NUL padded
 *       44       num_lanes lane names, 24 bytes each, NUL padded
 *                num_spans spans, 28 bytes each: name (24), begin, end, flags, 0
 *                (jointer_span_desc: lanes by tag bit, JOINTER_SPAN_LEVEL, JOINTER_SPAN_*)
 *                max_syncs slots, 16 bytes each: the host's CLOCK_MONOTONIC (ns) just
 *                before and just after its SYNC write (jointer_sink_sync)
 *                zeros up to ext_bytes
 *
 * The relay appends records as it drains them (a compact sink: its units,
 * jointer_sink_relay_units + jointer_tfile_append_units) and rewrites the
 * header at the end (jointer_tfile_finish): a file without COMPLETE was cut short;
 * its records are still valid (the count is then taken from the size; a
 * partial record at its end, the relay stopped inside a write, is not a
 * record: the converters of jointer_export.h ignore it and count its bytes).
 * A compact file is read through the decoder (jointer_compact.h) by
 * jointer_tfile_read_records, which reads either encoding: a reader of
 * trace files gets the same records from a raw and a compact file.
 */
#ifndef JOINTER_TRACE_FILE_H
#define JOINTER_TRACE_FILE_H

#include <stdio.h>

#include "jointer.h"
#include "jointer_compact.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

#define JOINTER_TFILE_MAGIC        "JNTRTRC"  /* + its NUL: 8 bytes */
#define JOINTER_TFILE_VERSION      2u   /* written; version 1 is read too */
#define JOINTER_TFILE_HEADER_BYTES 104u /* the fixed header (then, version 2, the timeline block) */
#define JOINTER_TFILE_MAX_SYNCS    4u   /* sync slots of a file */
#define JOINTER_TFILE_NAME         24u  /* bytes of a lane or span name, NUL included */
#define JOINTER_TFILE_RECORD_BYTES 8u
#define JOINTER_TFILE_ENC_RAW      JOINTER_ENCODING_RAW
#define JOINTER_TFILE_ENC_COMPACT  JOINTER_ENCODING_COMPACT
#define JOINTER_TFILE_COMPLETE     0x1u

/* the host's clock around one SYNC write (jointer_sink_sync) */
typedef struct jointer_tfile_sync {
    uint64_t before_ns, after_ns;  /* CLOCK_MONOTONIC (or the caller's clock), ns */
} jointer_tfile_sync;

typedef struct jointer_tfile_span {
    char name[JOINTER_TFILE_NAME];
    uint8_t begin, end, flags;     /* as jointer_span_desc */
} jointer_tfile_span;

typedef struct jointer_tfile_header {
    uint16_t version, encoding;
    uint32_t config_hash, clock_hz, depth, flags, lost;
    uint64_t records;
    char monitor[32], trace[32];   /* NUL terminated (31 characters at most) */
    /* version 2: the timeline block (zeros from a version 1 file) */
    uint32_t data_offset;          /* byte offset of the first record (version 1: 104) */
    char clock[32];                /* the timestamps' clock name, "" unknown */
    uint8_t num_lanes, sync, num_spans, num_syncs;
    char lane_names[JOINTER_MAX_LANES][JOINTER_TFILE_NAME];
    jointer_tfile_span spans[JOINTER_MAX_SPANS];
    jointer_tfile_sync syncs[JOINTER_TFILE_MAX_SYNCS];
} jointer_tfile_header;

/* tag bits of a record's data word (jointer_trace_tag_bits of the header) */
static inline unsigned jointer_tfile_tag_bits(const jointer_tfile_header *h)
{
    return h->num_lanes != 0u ? (unsigned)h->num_lanes + (h->sync != 0u ? 1u : 0u) : 0u;
}

/* reading state of jointer_tfile_read_records; all zeros (or
 * jointer_tfile_reader_init) right after the header */
typedef struct jointer_tfile_reader {
    jointer_compact_state st;  /* compact: the decoder */
    uint64_t items;            /* 8-byte items read so far (records or units) */
    uint64_t skipped;          /* compact: units before the first SYNC (no record) */
} jointer_tfile_reader;

/* a header for trace `trace` of cfg: raw encoding, 0 records, not complete,
 * its clock, lanes and spans. -EINVAL for a bad trace index */
int jointer_tfile_header_init(jointer_tfile_header *h, const jointer_cfg *cfg, unsigned trace);
/* the next sync slot (written with the header): -ENOSPC when all are used */
int jointer_tfile_add_sync(jointer_tfile_header *h, uint64_t before_ns, uint64_t after_ns);
/* write h at the start of f (seeks there, then back to the end). 0 or -errno */
int jointer_tfile_write_header(FILE *f, const jointer_tfile_header *h);
/* append n records; h->records += n. 0 or -EIO */
int jointer_tfile_append(FILE *f, jointer_tfile_header *h, const jointer_trace_record *rec, uint32_t n);
/* append n compact units (h->encoding must be JOINTER_TFILE_ENC_COMPACT);
 * h->records += n. 0, -EINVAL or -EIO */
int jointer_tfile_append_units(FILE *f, jointer_tfile_header *h, const uint64_t *units, uint32_t n);
/* lost = the hardware's LOST; sets COMPLETE and rewrites the header */
int jointer_tfile_finish(FILE *f, jointer_tfile_header *h, uint32_t lost);
/* read and check the header (magic, version, encoding raw or compact, the
 * timeline block): -EPROTO when it is not a jointer trace file of a known
 * version and encoding (or its timeline block is malformed), -EIO when short;
 * a header without COMPLETE gets records from the file size (f must be
 * seekable). f is left at the first record (h->data_offset) */
int jointer_tfile_read_header(FILE *f, jointer_tfile_header *h);
/* up to max records from the current position of a raw file; *n = records
 * read (0 at the end); -EPROTO for a partial record at the end */
int jointer_tfile_read(FILE *f, jointer_trace_record *rec, uint32_t max, uint32_t *n);
void jointer_tfile_reader_init(jointer_tfile_reader *r);
/* records of a file of either encoding (h from jointer_tfile_read_header),
 * from the current position: raw records as they are, compact units decoded
 * (whole units only: a compact file needs max >= 3, else -EINVAL; fewer
 * than max records come back when the next unit may not fit). *n = records
 * (0 at the end). -EPROTO for a partial item at the end, -EILSEQ for a
 * malformed unit (it is consumed; the *n records before it are in rec) */
int jointer_tfile_read_records(FILE *f, const jointer_tfile_header *h, jointer_tfile_reader *r,
                               jointer_trace_record *rec, uint32_t max, uint32_t *n);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_TRACE_FILE_H */
