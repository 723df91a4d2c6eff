/*
 * jointer_trace_file.h - the relay trace file (hosted: stdio): what
 * `jointer trace --follow -o FILE` writes and `jointer trace --convert`
 * reads. Little-endian, a fixed header then the records:
 *
 *   offset size  field
 *        0    8  magic "JNTRTRC\0"
 *        8    2  version (1)
 *       10    2  encoding (0: raw, 8 bytes per record: timestamp u32, data u32)
 *       12    4  config hash of the monitor
 *       16    4  clock_hz of the timestamps (the trace's LMIC clock; 0: unknown)
 *       20    4  depth of the hardware buffer (records)
 *       24    4  flags (bit 0 COMPLETE: records and lost are final)
 *       28    4  lost: records the hardware dropped (its LOST register at the end)
 *       32    8  records in the file
 *       40   32  monitor name, NUL padded
 *       72   32  trace name, NUL padded
 *      104       records
 *
 * The relay appends records as it drains them and rewrites the header at
 * the end (jointer_tfile_finish): a file without COMPLETE was cut short;
 * its records are still valid (the count is then taken from the size).
 */
#ifndef JOINTER_TRACE_FILE_H
#define JOINTER_TRACE_FILE_H

#include <stdio.h>

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JOINTER_TFILE_MAGIC        "JNTRTRC"  /* + its NUL: 8 bytes */
#define JOINTER_TFILE_VERSION      1u
#define JOINTER_TFILE_HEADER_BYTES 104u
#define JOINTER_TFILE_RECORD_BYTES 8u
#define JOINTER_TFILE_ENC_RAW      0u
#define JOINTER_TFILE_COMPLETE     0x1u

typedef struct jointer_tfile_header {
    uint16_t version, encoding;
    uint32_t config_hash, clock_hz, depth, flags, lost;
    uint64_t records;
    char monitor[32], trace[32];   /* NUL terminated (31 characters at most) */
} jointer_tfile_header;

/* a header for trace `trace` of cfg: raw encoding, 0 records, not complete.
 * -EINVAL for a bad trace index */
int jointer_tfile_header_init(jointer_tfile_header *h, const jointer_cfg *cfg, unsigned trace);
/* write h at the start of f (seeks there, then back to the end). 0 or -errno */
int jointer_tfile_write_header(FILE *f, const jointer_tfile_header *h);
/* append n records; h->records += n. 0 or -EIO */
int jointer_tfile_append(FILE *f, jointer_tfile_header *h, const jointer_trace_record *rec, uint32_t n);
/* lost = the hardware's LOST; sets COMPLETE and rewrites the header */
int jointer_tfile_finish(FILE *f, jointer_tfile_header *h, uint32_t lost);
/* read and check the header (magic, version, encoding): -EPROTO when it is
 * not a jointer trace file of a known version, -EIO when short; a header
 * without COMPLETE gets records from the file size (f must be seekable) */
int jointer_tfile_read_header(FILE *f, jointer_tfile_header *h);
/* up to max records from the current position; *n = records read (0 at the
 * end); -EPROTO for a partial record at the end */
int jointer_tfile_read(FILE *f, jointer_trace_record *rec, uint32_t max, uint32_t *n);

#ifdef __cplusplus
}
#endif

#endif /* JOINTER_TRACE_FILE_H */
