// SPDX-License-Identifier: MIT
/*
 * jointer_export.c - trace files to CSV, JSON, VCD and Perfetto JSON,
 * record by record (jointer_export.h): one implementation of each format
 * for the CLI and the Python package. This file: the source (a trace file
 * read defensively, its errors as messages), CSV and JSON; VCD and
 * Perfetto in jointer_export_vcd.c / _perfetto.c, formatting in _fmt.c.
 * Numbers are formatted by hand (no printf per record): a VCD or a Perfetto
 * file of millions of records is written at the speed of the disk, in the
 * memory of one source struct.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jointer_export_int.h"

#define HDR  JOINTER_TFILE_HEADER_BYTES
#define ITEM JOINTER_TFILE_RECORD_BYTES

/* ---- the source --------------------------------------------------------------- */

int jointer_export_fopen(const char *path, FILE **f)
{
    struct stat st;
    int fd, flags, e;

    if (path == NULL || f == NULL)
        return -EINVAL;
    *f = NULL;
    fd = open(path, O_RDONLY | O_NONBLOCK); /* a FIFO without a writer does not block */
    if (fd < 0)
        return -errno;
    e = fstat(fd, &st) != 0 ? -errno
        : S_ISDIR(st.st_mode) ? -EISDIR
        : S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ? -ESPIPE
        : !S_ISREG(st.st_mode) ? -ENODEV : 0;
    if (e == 0 && ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0))
        e = -errno;
    if (e == 0 && (*f = fdopen(fd, "rb")) == NULL)
        e = -errno;
    if (e != 0)
        close(fd);
    return e;
}

const char *jointer_export_open_error(int err)
{
    switch (err) {
    case -EISDIR: return "a directory, not a trace file";
    case -ESPIPE: return "a FIFO or socket, not a regular file (a trace file is read with seeks)";
    case -ENODEV: return "a device, not a regular file (a trace file is read with seeks)";
    default: return strerror(err < 0 ? -err : EIO);
    }
}

size_t jointer_export_src_size(void)
{
    return sizeof(jointer_export_src);
}

const jointer_tfile_header *jointer_export_header(const jointer_export_src *s)
{
    return s != NULL ? &s->h : NULL;
}

uint64_t jointer_export_count(const jointer_export_src *s, int what)
{
    if (s == NULL)
        return 0;
    switch (what) {
    case JOINTER_EXPORT_RECORDS: return s->records;
    case JOINTER_EXPORT_ITEMS: return s->items;
    case JOINTER_EXPORT_TAIL: return s->tail_bytes;
    case JOINTER_EXPORT_SKIPPED: return s->rd.skipped;
    case JOINTER_EXPORT_ITEMS_READ: return s->rd.items;
    case JOINTER_EXPORT_WHY: return (uint64_t)s->why;
    default: return 0;
    }
}

static int fail(jointer_export_src *s, int why, uint64_t offset, uint64_t value, int err)
{
    s->why = why;
    s->err_offset = offset;
    s->err_value = value;
    return err;
}

/* why the header did not read: magic, version or encoding */
static int bad_header(jointer_export_src *s)
{
    unsigned char b[12];

    memset(b, 0, sizeof b);
    if (fseek(s->f, 0L, SEEK_SET) != 0 || fread(b, 1, sizeof b, s->f) < 8 || memcmp(b, JOINTER_TFILE_MAGIC, 8) != 0)
        return fail(s, JOINTER_EXPORT_BAD_MAGIC, 0, 0, -EPROTO);
    if (s->size < HDR)
        return fail(s, JOINTER_EXPORT_SHORT_HEADER, s->size, s->size, -EIO);
    if ((b[8] | (unsigned)b[9] << 8) != JOINTER_TFILE_VERSION)
        return fail(s, JOINTER_EXPORT_BAD_VERSION, 8, b[8] | (unsigned)b[9] << 8, -EPROTO);
    return fail(s, JOINTER_EXPORT_BAD_ENCODING, 10, b[10] | (unsigned)b[11] << 8, -EPROTO);
}

/* the reader at the first item again */
static int src_rewind(jointer_export_src *s)
{
    if (fseek(s->f, (long)HDR, SEEK_SET) != 0)
        return fail(s, JOINTER_EXPORT_READ_ERROR, HDR, 0, -EIO);
    jointer_tfile_reader_init(&s->rd);
    jointer_cycles_reset(&s->clk);
    s->records = 0;
    s->n = s->pos = 0;
    s->have = 0;
    return 0;
}

int jointer_export_open(jointer_export_src *s, FILE *f, const char *name_fallback)
{
    long end;
    uint64_t whole;
    int r;

    if (s == NULL || f == NULL)
        return -EINVAL;
    memset(s, 0, sizeof *s);
    s->f = f;
    s->clear_at = NONE;
    if (fseek(f, 0L, SEEK_END) != 0 || (end = ftell(f)) < 0 || fseek(f, 0L, SEEK_SET) != 0)
        return fail(s, JOINTER_EXPORT_NOT_SEEKABLE, 0, 0, -ESPIPE);
    s->size = (uint64_t)end;
    if (s->size == 0)
        return fail(s, JOINTER_EXPORT_EMPTY, 0, 0, -EPROTO);
    r = jointer_tfile_read_header(f, &s->h);
    if (r < 0)
        return bad_header(s);
    whole = (s->size - HDR) / ITEM;
    if (s->h.flags & JOINTER_TFILE_COMPLETE) {
        if (s->h.records > whole)
            return fail(s, JOINTER_EXPORT_TRUNCATED, HDR + whole * ITEM, whole, -EPROTO);
        if (s->size > HDR + s->h.records * ITEM)
            return fail(s, JOINTER_EXPORT_TRAILING, HDR + s->h.records * ITEM,
                        s->size - HDR - s->h.records * ITEM, -EPROTO);
    }
    s->items = whole;
    s->tail_bytes = (uint32_t)((s->size - HDR) % ITEM);
    if (s->h.trace[0] != 0)
        memcpy(s->name, s->h.trace, sizeof s->name);
    else
        strncpy(s->name, name_fallback != NULL && *name_fallback ? name_fallback : "trace", sizeof s->name - 1u);
    return src_rewind(s);
}

/* up to max records into rec (max >= 3): raw items up to the count, a
 * partial item at the end of a file without COMPLETE ignored */
static int src_fill(jointer_export_src *s, jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    int r;

    *n = 0;
    if (s->why != 0)
        return -EPROTO;
    if (s->rd.items >= s->items)
        return 0;
    if (s->h.encoding == JOINTER_TFILE_ENC_RAW && s->items - s->rd.items < max)
        max = (uint32_t)(s->items - s->rd.items);
    r = jointer_tfile_read_records(s->f, &s->h, &s->rd, rec, max, n);
    if (r == -EPROTO && s->rd.items == s->items)
        r = 0; /* the partial unit at the end of an incomplete file */
    s->records += *n;
    if (r == -EILSEQ)
        return fail(s, JOINTER_EXPORT_MALFORMED, HDR + (s->rd.items - 1u) * ITEM, s->rd.items - 1u, r);
    if (r < 0)
        return fail(s, JOINTER_EXPORT_READ_ERROR, HDR + s->rd.items * ITEM, 0, r == -EPROTO ? -EIO : r);
    return 0;
}

int jointer_export_read(jointer_export_src *s, jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    if (s == NULL || rec == NULL || n == NULL || max < 3u)
        return -EINVAL;
    return src_fill(s, rec, max, n);
}

void jointer_export_cycles(jointer_export_src *s, const uint32_t *ts, uint32_t n, uint64_t *cycles)
{
    uint32_t i;
    for (i = 0; s != NULL && i < n; i++)
        cycles[i] = jointer_cycles_next(&s->clk, ts[i]);
}

/* the next record and its cycle: 1, 0 at the end, or -errno */
int jointer__src_next(jointer_export_src *s, jointer_trace_record *rec, uint64_t *cycle)
{
    if (s->pos == s->n) {
        int r = src_fill(s, s->buf, JOINTER_EXPORT_BUF, &s->n);
        s->pos = 0;
        if (r < 0)
            return r;
        if (s->n == 0)
            return 0;
    }
    *rec = s->buf[s->pos++];
    *cycle = jointer_cycles_next(&s->clk, rec->timestamp);
    return 1;
}

void jointer_export_message(const jointer_export_src *s, int err, char *buf, size_t size)
{
    const char *what = s != NULL && s->h.encoding == JOINTER_TFILE_ENC_COMPACT ? "units" : "records";
    unsigned long long off = s != NULL ? (unsigned long long)s->err_offset : 0;
    unsigned long long val = s != NULL ? (unsigned long long)s->err_value : 0;

    if (buf == NULL || size == 0)
        return;
    switch (s != NULL ? s->why : JOINTER_EXPORT_OK) {
    case JOINTER_EXPORT_NOT_SEEKABLE:
        snprintf(buf, size, "not a regular file (a trace file is read with seeks)");
        break;
    case JOINTER_EXPORT_EMPTY:
        snprintf(buf, size, "empty file, not a jointer trace file");
        break;
    case JOINTER_EXPORT_BAD_MAGIC:
        snprintf(buf, size, "not a jointer trace file of a known version: byte offset 0: no magic \"JNTRTRC\"");
        break;
    case JOINTER_EXPORT_BAD_VERSION:
        snprintf(buf, size, "not a jointer trace file of a known version: byte offset 8: version %llu "
                 "(this reader: 1)", val);
        break;
    case JOINTER_EXPORT_BAD_ENCODING:
        snprintf(buf, size, "not a jointer trace file of a known version: byte offset 10: encoding %llu "
                 "(0 raw, 1 compact)", val);
        break;
    case JOINTER_EXPORT_SHORT_HEADER:
        snprintf(buf, size, "truncated header: %llu bytes (a trace file starts with %u header bytes)", val, HDR);
        break;
    case JOINTER_EXPORT_TRUNCATED:
        snprintf(buf, size, "the header says %llu %s, the file holds %llu (truncated at byte offset %llu)",
                 (unsigned long long)s->h.records, what, val, off);
        break;
    case JOINTER_EXPORT_TRAILING:
        snprintf(buf, size, "%llu bytes after the %llu %s the header counts (corrupted), from byte offset %llu",
                 val, (unsigned long long)s->h.records, what, off);
        break;
    case JOINTER_EXPORT_MALFORMED:
        snprintf(buf, size, "unit %llu: malformed compact unit at byte offset %llu", val, off);
        break;
    case JOINTER_EXPORT_READ_ERROR:
        snprintf(buf, size, "read error at byte offset %llu: %s", off, strerror(err < 0 ? -err : EIO));
        break;
    default:
        snprintf(buf, size, "%s", strerror(err < 0 ? -err : EIO));
        break;
    }
}

/* ---- CSV and JSON (jointer trace --convert) ------------------------------------ */

/* records of a compact file: one pass, then back to the first unit */
static int count_records(jointer_export_src *s, uint64_t *total)
{
    jointer_trace_record rec;
    uint64_t c;
    int r;

    if (s->h.encoding != JOINTER_TFILE_ENC_COMPACT) {
        *total = s->items;
        return 0;
    }
    while ((r = jointer__src_next(s, &rec, &c)) == 1)
        ;
    *total = s->records;
    return r < 0 ? r : src_rewind(s);
}

int jointer_export_csv(FILE *out, jointer_export_src *s)
{
    char line[80], mon[32], tr[32];
    jointer__obuf ob;
    jointer_trace_record rec;
    uint64_t total, c, i = 0;
    int r;

    if (out == NULL || s == NULL)
        return -EINVAL;
    if ((r = count_records(s, &total)) < 0)
        return r;
    jointer__text_name(mon, s->h.monitor);
    jointer__text_name(tr, s->h.trace);
    fprintf(out, "# monitor %s, trace %s, config hash 0x%08lX, clock %lu Hz, %llu records, %lu lost%s\n"
            "index,timestamp,data\n", mon, tr, (unsigned long)s->h.config_hash, (unsigned long)s->h.clock_hz,
            (unsigned long long)total, (unsigned long)s->h.lost,
            (s->h.flags & JOINTER_TFILE_COMPLETE) ? "" : " (incomplete file)");
    ob.f = out;
    ob.n = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        size_t n = jointer__put_u64(line, i++);
        line[n++] = ',';
        n += jointer__put_u64(line + n, rec.timestamp);
        line[n++] = ',';
        n += jointer__put_u64(line + n, rec.data);
        line[n++] = '\n';
        jointer__ob_put(&ob, line, n);
    }
    jointer__ob_flush(&ob);
    return r < 0 ? r : jointer__out_status(out);
}

int jointer_export_json(FILE *out, jointer_export_src *s)
{
    char line[200];
    jointer__obuf ob;
    jointer_trace_record rec;
    uint64_t c, i = 0;
    size_t n;
    int r;

    if (out == NULL || s == NULL)
        return -EINVAL;
    n = jointer__put_s(line, "{\"monitor\": ");
    n += jointer__put_json(line + n, "", s->h.monitor);
    fwrite(line, 1, n, out);
    n = jointer__put_s(line, ", \"trace\": ");
    n += jointer__put_json(line + n, "", s->h.trace);
    fwrite(line, 1, n, out);
    fprintf(out, ", \"config_hash\": %lu, \"clock_hz\": %lu, \"depth\": %lu, \"complete\": %s, \"lost\": %lu, "
            "\"records\": [", (unsigned long)s->h.config_hash, (unsigned long)s->h.clock_hz,
            (unsigned long)s->h.depth, (s->h.flags & JOINTER_TFILE_COMPLETE) ? "true" : "false",
            (unsigned long)s->h.lost);
    ob.f = out;
    ob.n = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        n = jointer__put_s(line, i++ ? ", {\"timestamp\": " : "{\"timestamp\": ");
        n += jointer__put_u64(line + n, rec.timestamp);
        n += jointer__put_s(line + n, ", \"data\": ");
        n += jointer__put_u64(line + n, rec.data);
        line[n++] = '}';
        jointer__ob_put(&ob, line, n);
    }
    jointer__ob_flush(&ob);
    fputs("]}\n", out);
    return r < 0 ? r : jointer__out_status(out);
}
