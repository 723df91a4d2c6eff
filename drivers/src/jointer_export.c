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
#define DATA(s) ((uint64_t)(s)->h.data_offset)   /* the first record */
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
    case JOINTER_EXPORT_SYNCED: return (uint64_t)s->synced;
    case JOINTER_EXPORT_SYNC_NS: return s->sync_ns;
    case JOINTER_EXPORT_SYNC_CYCLE: return s->sync_cycle;
    case JOINTER_EXPORT_SYNC_ERR_NS: return s->sync_err_ns;
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

/* why the header did not read: magic, version, encoding or the timeline block */
static int bad_header(jointer_export_src *s)
{
    unsigned char b[12];
    unsigned version;

    memset(b, 0, sizeof b);
    if (fseek(s->f, 0L, SEEK_SET) != 0 || fread(b, 1, sizeof b, s->f) < 8 || memcmp(b, JOINTER_TFILE_MAGIC, 8) != 0)
        return fail(s, JOINTER_EXPORT_BAD_MAGIC, 0, 0, -EPROTO);
    if (s->size < HDR)
        return fail(s, JOINTER_EXPORT_SHORT_HEADER, s->size, s->size, -EIO);
    version = b[8] | (unsigned)b[9] << 8;
    if (version < 1u || version > JOINTER_TFILE_VERSION)
        return fail(s, JOINTER_EXPORT_BAD_VERSION, 8, version, -EPROTO);
    if ((b[10] | (unsigned)b[11] << 8) > JOINTER_TFILE_ENC_COMPACT)
        return fail(s, JOINTER_EXPORT_BAD_ENCODING, 10, b[10] | (unsigned)b[11] << 8, -EPROTO);
    return fail(s, JOINTER_EXPORT_BAD_TIMELINE, HDR, 0, -EPROTO);
}

/* the reader at the first item again */
static int src_rewind(jointer_export_src *s)
{
    if (fseek(s->f, (long)DATA(s), SEEK_SET) != 0)
        return fail(s, JOINTER_EXPORT_READ_ERROR, DATA(s), 0, -EIO);
    jointer_tfile_reader_init(&s->rd);
    jointer_cycles_reset(&s->clk);
    jointer__spans_reset(s);
    s->records = 0;
    s->n = s->pos = 0;
    s->have = 0;
    s->vmask = 0;
    return 0;
}

/* the time base: the cycle of the first sync record, if the file has the
 * host's syncs (then the reader starts again) */
static int find_sync(jointer_export_src *s)
{
    jointer_trace_record rec;
    uint64_t c;
    int r;

    if (!s->h.sync || s->h.num_syncs == 0 || s->h.num_lanes == 0)
        return 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        if (jointer__sync_of(s, rec.data)) {
            const jointer_tfile_sync *y = &s->h.syncs[0];
            s->synced = 1;
            s->sync_cycle = c;
            s->sync_ns = y->before_ns + (y->after_ns - y->before_ns) / 2u;
            s->sync_err_ns = (y->after_ns - y->before_ns + 1u) / 2u;
            break;
        }
    }
    return r < 0 ? r : src_rewind(s);
}

int jointer_export_set_clock(jointer_export_src *s, uint32_t hz)
{
    if (s == NULL || hz == 0)
        return -EINVAL;
    s->h.clock_hz = hz;
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
    if (s->size < DATA(s))
        return fail(s, JOINTER_EXPORT_SHORT_HEADER, s->size, s->size, -EIO);
    whole = (s->size - DATA(s)) / ITEM;
    if (s->h.flags & JOINTER_TFILE_COMPLETE) {
        if (s->h.records > whole)
            return fail(s, JOINTER_EXPORT_TRUNCATED, DATA(s) + whole * ITEM, whole, -EPROTO);
        if (s->size > DATA(s) + s->h.records * ITEM)
            return fail(s, JOINTER_EXPORT_TRAILING, DATA(s) + s->h.records * ITEM,
                        s->size - DATA(s) - s->h.records * ITEM, -EPROTO);
    }
    s->items = whole;
    s->tail_bytes = (uint32_t)((s->size - DATA(s)) % ITEM);
    s->tag_bits = jointer_tfile_tag_bits(&s->h);
    if (s->h.trace[0] != 0)
        memcpy(s->name, s->h.trace, sizeof s->name);
    else
        strncpy(s->name, name_fallback != NULL && *name_fallback ? name_fallback : "trace", sizeof s->name - 1u);
    r = src_rewind(s);
    return r < 0 ? r : find_sync(s);
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
        return fail(s, JOINTER_EXPORT_MALFORMED, DATA(s) + (s->rd.items - 1u) * ITEM, s->rd.items - 1u, r);
    if (r < 0)
        return fail(s, JOINTER_EXPORT_READ_ERROR, DATA(s) + s->rd.items * ITEM, 0, r == -EPROTO ? -EIO : r);
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
                 "(this reader: 1 and 2)", val);
        break;
    case JOINTER_EXPORT_BAD_ENCODING:
        snprintf(buf, size, "not a jointer trace file of a known version: byte offset 10: encoding %llu "
                 "(0 raw, 1 compact)", val);
        break;
    case JOINTER_EXPORT_SHORT_HEADER:
        snprintf(buf, size, "truncated header: %llu bytes (a trace file starts with %llu header bytes)", val,
                 (unsigned long long)(s->h.data_offset > HDR ? s->h.data_offset : HDR));
        break;
    case JOINTER_EXPORT_BAD_TIMELINE:
        snprintf(buf, size, "byte offset %u: a malformed timeline block (version 2: lanes, spans, syncs; "
                 "more than 16 lanes or spans, a span beyond the lanes, or its size)", HDR);
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

/* the time comment line of CSV outputs */
static void time_comment(FILE *out, const jointer_export_src *s)
{
    char clock[32];

    jointer__text_name(clock, s->h.clock);
    if (s->synced)
        fprintf(out, "# time_s: seconds on the host's clock (CLOCK_MONOTONIC): the sync record at cycle %llu is "
                "%llu ns (+-%llu ns); clock %s%s%lu Hz\n", (unsigned long long)s->sync_cycle,
                (unsigned long long)s->sync_ns, (unsigned long long)s->sync_err_ns, clock, clock[0] ? " " : "",
                (unsigned long)s->h.clock_hz);
    else
        fprintf(out, "# time_s: seconds since cycle 0 (the first edge of clock %s%s%lu Hz after its LMIC's reset)\n",
                clock, clock[0] ? " " : "", (unsigned long)s->h.clock_hz);
}

/* one CSV row: index,timestamp,data,cycle,time_s[,lane,value] */
static size_t csv_row(char *line, const jointer_export_src *s, uint64_t i, const jointer_trace_record *rec,
                      uint64_t c, const char *lane)
{
    jointer__time t;
    size_t n = jointer__put_u64(line, i);

    jointer__time_of(s, c, &t);
    line[n++] = ',';
    n += jointer__put_u64(line + n, rec->timestamp);
    line[n++] = ',';
    n += jointer__put_u64(line + n, rec->data);
    line[n++] = ',';
    n += jointer__put_u64(line + n, c);
    line[n++] = ',';
    n += jointer__put_time_s(line + n, &t);
    if (lane != NULL) {
        line[n++] = ',';
        n += jointer__put_s(line + n, lane);
        line[n++] = ',';
        n += jointer__put_u64(line + n, jointer__value_of(s, rec->data));
    }
    line[n++] = '\n';
    return n;
}

/* the rows of a record of a trace with lanes: one per lane that fired, and the sync */
static void csv_lane_rows(jointer__obuf *ob, const jointer_export_src *s, uint64_t i,
                          const jointer_trace_record *rec, uint64_t c)
{
    char line[200], lane[JOINTER_TFILE_NAME];
    uint32_t lanes = jointer__lanes_of(s, rec->data);
    unsigned k;

    for (k = 0; k < s->h.num_lanes; k++)
        if (lanes & (1u << k)) {
            jointer__vcd_ident(lane, sizeof lane, s->h.lane_names[k], "lane");
            jointer__ob_put(ob, line, csv_row(line, s, i, rec, c, lane));
        }
    if (jointer__sync_of(s, rec->data))
        jointer__ob_put(ob, line, csv_row(line, s, i, rec, c, "sync"));
}

int jointer_export_csv(FILE *out, jointer_export_src *s)
{
    char line[200], mon[32], tr[32];
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
    fprintf(out, "# monitor %s, trace %s, config hash 0x%08lX, clock %lu Hz, %llu records, %lu lost%s\n",
            mon, tr, (unsigned long)s->h.config_hash, (unsigned long)s->h.clock_hz,
            (unsigned long long)total, (unsigned long)s->h.lost,
            (s->h.flags & JOINTER_TFILE_COMPLETE) ? "" : " (incomplete file)");
    time_comment(out, s);
    fputs(s->h.num_lanes ? "index,timestamp,data,cycle,time_s,lane,value\n" : "index,timestamp,data,cycle,time_s\n",
          out);
    ob.f = out;
    ob.n = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        if (s->h.num_lanes)
            csv_lane_rows(&ob, s, i++, &rec, c);
        else
            jointer__ob_put(&ob, line, csv_row(line, s, i++, &rec, c, NULL));
    }
    jointer__ob_flush(&ob);
    return r < 0 ? r : jointer__out_status(out);
}

/* "lanes": [...] and "value" of a record of a trace with lanes (JSON) */
static size_t json_lanes(char *p, const jointer_export_src *s, uint32_t data)
{
    uint32_t lanes = jointer__lanes_of(s, data);
    size_t n = jointer__put_s(p, ", \"lanes\": [");
    unsigned k, first = 1;

    for (k = 0; k < s->h.num_lanes; k++)
        if (lanes & (1u << k)) {
            n += jointer__put_s(p + n, first ? "" : ", ");
            n += jointer__put_json(p + n, "", s->h.lane_names[k]);
            first = 0;
        }
    n += jointer__put_s(p + n, "], \"value\": ");
    n += jointer__put_u64(p + n, jointer__value_of(s, data));
    if (jointer__sync_of(s, data))
        n += jointer__put_s(p + n, ", \"sync\": true");
    return n;
}

/* the header's clock, time base, lanes and spans (JSON) */
static void json_timeline(FILE *out, const jointer_export_src *s)
{
    char line[2400];
    size_t n = jointer__put_s(line, ", \"clock\": ");
    unsigned k;

    n += jointer__put_json(line + n, "", s->h.clock);
    if (s->synced) {
        n += jointer__put_s(line + n, ", \"time\": {\"base\": \"CLOCK_MONOTONIC\", \"sync_cycle\": ");
        n += jointer__put_u64(line + n, s->sync_cycle);
        n += jointer__put_s(line + n, ", \"sync_ns\": ");
        n += jointer__put_u64(line + n, s->sync_ns);
        n += jointer__put_s(line + n, ", \"sync_err_ns\": ");
        n += jointer__put_u64(line + n, s->sync_err_ns);
        n += jointer__put_s(line + n, "}");
    } else {
        n += jointer__put_s(line + n, ", \"time\": {\"base\": \"cycle 0\"}");
    }
    n += jointer__put_s(line + n, ", \"lanes\": [");
    for (k = 0; k < s->h.num_lanes; k++) {
        n += jointer__put_s(line + n, k ? ", " : "");
        n += jointer__put_json(line + n, "", s->h.lane_names[k]);
    }
    n += jointer__put_s(line + n, "], \"spans\": [");
    for (k = 0; k < s->h.num_spans; k++) {
        n += jointer__put_s(line + n, k ? ", " : "");
        n += jointer__put_json(line + n, "", s->h.spans[k].name);
    }
    n += jointer__put_s(line + n, "]");
    fwrite(line, 1, n, out);
}

int jointer_export_json(FILE *out, jointer_export_src *s)
{
    char line[1600];
    jointer__obuf ob;
    jointer_trace_record rec;
    jointer__time t;
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
    fprintf(out, ", \"config_hash\": %lu, \"clock_hz\": %lu, \"depth\": %lu, \"complete\": %s, \"lost\": %lu",
            (unsigned long)s->h.config_hash, (unsigned long)s->h.clock_hz, (unsigned long)s->h.depth,
            (s->h.flags & JOINTER_TFILE_COMPLETE) ? "true" : "false", (unsigned long)s->h.lost);
    json_timeline(out, s);
    fputs(", \"records\": [", out);
    ob.f = out;
    ob.n = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        jointer__time_of(s, c, &t);
        n = jointer__put_s(line, i++ ? ", {\"timestamp\": " : "{\"timestamp\": ");
        n += jointer__put_u64(line + n, rec.timestamp);
        n += jointer__put_s(line + n, ", \"data\": ");
        n += jointer__put_u64(line + n, rec.data);
        n += jointer__put_s(line + n, ", \"cycle\": ");
        n += jointer__put_u64(line + n, c);
        n += jointer__put_s(line + n, ", \"time_s\": ");
        n += jointer__put_time_s(line + n, &t);
        if (s->h.num_lanes)
            n += json_lanes(line + n, s, rec.data);
        line[n++] = '}';
        jointer__ob_put(&ob, line, n);
    }
    jointer__ob_flush(&ob);
    fputs("]}\n", out);
    return r < 0 ? r : jointer__out_status(out);
}

/* ---- the spans CSV ---------------------------------------------------------------- */

static const char *const STATUS[] = {"ok", "no end", "no begin"};

static void csv_span(void *ctx, jointer_export_src *s, const jointer__span_ev *e)
{
    jointer__obuf *ob = (jointer__obuf *)ctx;
    const jointer_tfile_span *d = &s->h.spans[e->span];
    char line[400], name[JOINTER_TFILE_NAME];
    jointer__time t;
    size_t n;

    jointer__vcd_ident(name, sizeof name, d->name, "span");
    n = jointer__put_s(line, name);
    line[n++] = ',';
    n += jointer__put_u64(line + n, e->value);
    n += jointer__put_s(line + n, (d->flags & JOINTER_SPAN_TRACK_VALUE) ? ",value," : ",trace,");
    n += jointer__put_u64(line + n, e->begin);
    line[n++] = ',';
    n += jointer__put_u64(line + n, e->end);
    line[n++] = ',';
    jointer__time_of(s, e->begin, &t);
    n += jointer__put_time_s(line + n, &t);
    line[n++] = ',';
    jointer__time_of(s, e->end, &t);
    n += jointer__put_time_s(line + n, &t);
    line[n++] = ',';
    n += jointer__put_cycles_s(line + n, e->end - e->begin, s->h.clock_hz);
    line[n++] = ',';
    n += jointer__put_s(line + n, STATUS[e->status]);
    line[n++] = '\n';
    jointer__ob_put(ob, line, n);
}

int jointer_export_spans_csv(FILE *out, jointer_export_src *s)
{
    char mon[32], tr[32];
    jointer__obuf ob;
    jointer_trace_record rec;
    uint64_t c;
    int r;

    if (out == NULL || s == NULL)
        return -EINVAL;
    if (s->h.num_spans == 0)
        return -ENOENT;
    jointer__text_name(mon, s->h.monitor);
    jointer__text_name(tr, s->h.trace);
    fprintf(out, "# spans of monitor %s, trace %s, clock %lu Hz%s\n", mon, tr, (unsigned long)s->h.clock_hz,
            (s->h.flags & JOINTER_TFILE_COMPLETE) ? "" : " (incomplete file)");
    time_comment(out, s);
    fputs("span,id,track,begin_cycle,end_cycle,begin_s,end_s,duration_s,status\n", out);
    ob.f = out;
    ob.n = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1)
        jointer__spans_record(s, rec.data, c, csv_span, &ob);
    if (r == 0)
        jointer__spans_end(s, csv_span, &ob);
    jointer__ob_flush(&ob);
    return r < 0 ? r : jointer__out_status(out);
}
