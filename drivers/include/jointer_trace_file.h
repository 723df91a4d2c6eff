/* SPDX-License-Identifier: MIT */
/*
 * jointer_trace_file.h - the relay trace file (hosted: stdio): what
 * `jointer trace --follow -o FILE` writes and `jointer trace --convert`
 * reads. Little-endian, a fixed header then the records:
 *
 *   offset size  field
 *        0    8  magic "JNTRTRC\0"
 *        8    2  version (1)
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
 *      104       records (compact: units)
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
#define JOINTER_TFILE_VERSION      1u
#define JOINTER_TFILE_HEADER_BYTES 104u
#define JOINTER_TFILE_RECORD_BYTES 8u
#define JOINTER_TFILE_ENC_RAW      JOINTER_ENCODING_RAW
#define JOINTER_TFILE_ENC_COMPACT  JOINTER_ENCODING_COMPACT
#define JOINTER_TFILE_COMPLETE     0x1u

typedef struct jointer_tfile_header {
    uint16_t version, encoding;
    uint32_t config_hash, clock_hz, depth, flags, lost;
    uint64_t records;
    char monitor[32], trace[32];   /* NUL terminated (31 characters at most) */
} jointer_tfile_header;

/* reading state of jointer_tfile_read_records; all zeros (or
 * jointer_tfile_reader_init) right after the header */
typedef struct jointer_tfile_reader {
    jointer_compact_state st;  /* compact: the decoder */
    uint64_t items;            /* 8-byte items read so far (records or units) */
    uint64_t skipped;          /* compact: units before the first SYNC (no record) */
} jointer_tfile_reader;

/* a header for trace `trace` of cfg: raw encoding, 0 records, not complete.
 * -EINVAL for a bad trace index */
int jointer_tfile_header_init(jointer_tfile_header *h, const jointer_cfg *cfg, unsigned trace);
/* write h at the start of f (seeks there, then back to the end). 0 or -errno */
int jointer_tfile_write_header(FILE *f, const jointer_tfile_header *h);
/* append n records; h->records += n. 0 or -EIO */
int jointer_tfile_append(FILE *f, jointer_tfile_header *h, const jointer_trace_record *rec, uint32_t n);
/* append n compact units (h->encoding must be JOINTER_TFILE_ENC_COMPACT);
 * h->records += n. 0, -EINVAL or -EIO */
int jointer_tfile_append_units(FILE *f, jointer_tfile_header *h, const uint64_t *units, uint32_t n);
/* lost = the hardware's LOST; sets COMPLETE and rewrites the header */
int jointer_tfile_finish(FILE *f, jointer_tfile_header *h, uint32_t lost);
/* read and check the header (magic, version, encoding raw or compact):
 * -EPROTO when it is not a jointer trace file of a known version and
 * encoding, -EIO when short; a header
 * without COMPLETE gets records from the file size (f must be seekable) */
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
