/*
 * jointer_export.c - trace files to CSV, JSON, VCD and Perfetto JSON,
 * record by record (jointer_export.h): one implementation of each format
 * for the CLI and the Python package. Numbers are formatted by hand (no
 * printf per record): a VCD or a Perfetto file of millions of records is
 * written at the speed of the disk, in the memory of one source struct.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jointer_export.h"

#ifndef EPROTO
#define EPROTO 71
#endif

#define NONE UINT64_MAX
#define HDR  JOINTER_TFILE_HEADER_BYTES
#define ITEM JOINTER_TFILE_RECORD_BYTES

/* ---- formatting ----------------------------------------------------------- */

static size_t put_u64(char *p, uint64_t v)
{
    char t[20];
    size_t n = 0, i;

    do {
        t[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    for (i = 0; i < n; i++)
        p[i] = t[n - 1 - i];
    return n;
}

static size_t put_s(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return n;
}

/* cycles in microseconds, exact to the picosecond (rounded), trailing zeros
 * dropped; hz 0: 1 ns per cycle */
static size_t put_us(char *p, uint64_t cycle, uint32_t hz)
{
    uint64_t whole, frac;
    size_t n;

    if (hz == 0) {
        whole = cycle / 1000u;
        frac = (cycle % 1000u) * 1000u;
    } else {
        uint64_t rem = cycle % hz, r2 = rem * 1000000u % hz;
        whole = cycle / hz * 1000000u + rem * 1000000u / hz;
        frac = (r2 * 1000000u + hz / 2u) / hz;
        if (frac == 1000000u) {
            whole++;
            frac = 0;
        }
    }
    n = put_u64(p, whole);
    if (frac != 0) { /* six digits, trailing zeros dropped */
        char dig[6];
        size_t k, last = 6;
        for (k = 6; k > 0; k--) {
            dig[k - 1] = (char)('0' + (int)(frac % 10u));
            frac /= 10u;
        }
        while (dig[last - 1] == '0')
            last--;
        p[n++] = '.';
        memcpy(p + n, dig, last);
        n += last;
    }
    return n;
}

/* a JSON string: quotes, backslashes, control and non-ASCII bytes escaped
 * (the output is ASCII whatever the file's names hold); 6 bytes per input
 * byte + 2 at most */
static size_t put_json(char *p, const char *prefix, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    int pass;

    p[n++] = '"';
    for (pass = 0; pass < 2; pass++) {
        const unsigned char *c = (const unsigned char *)(pass == 0 ? prefix : s);
        for (; c != NULL && *c != 0; c++) {
            if (*c == '"' || *c == '\\') {
                p[n++] = '\\';
                p[n++] = (char)*c;
            } else if (*c < 0x20u || *c >= 0x7Fu) {
                n += put_s(p + n, "\\u00");
                p[n++] = hex[*c >> 4];
                p[n++] = hex[*c & 15u];
            } else {
                p[n++] = (char)*c;
            }
        }
    }
    p[n++] = '"';
    return n;
}

/* a name as a VCD identifier: [A-Za-z0-9_] kept, anything else '_' */
static void vcd_ident(char *dst, size_t size, const char *src, const char *fallback)
{
    size_t i = 0;

    if (src == NULL || *src == 0)
        src = fallback;
    for (; src[i] != 0 && i + 1 < size; i++) {
        unsigned char c = (unsigned char)src[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        dst[i] = ok ? (char)c : '_';
    }
    dst[i] = 0;
}

/* a name in a CSV comment: control bytes as '?' */
static void text_name(char *dst, const char *src)
{
    size_t i;
    for (i = 0; i < 31 && src[i] != 0; i++)
        dst[i] = ((unsigned char)src[i] < 0x20u || src[i] == 0x7F) ? '?' : src[i];
    dst[i] = 0;
}

/* the output of a loop: one fwrite per 32 KB (stdio locks each call when
 * the process has threads, as a Python interpreter with numpy does) */
typedef struct obuf {
    FILE *f;
    size_t n;
    char b[32768];
} obuf;

static void ob_flush(obuf *o)
{
    if (o->n != 0)
        (void)fwrite(o->b, 1, o->n, o->f); /* an error stays in ferror(f) */
    o->n = 0;
}

/* n < sizeof o->b */
static void ob_put(obuf *o, const char *p, size_t n)
{
    if (o->n + n > sizeof o->b)
        ob_flush(o);
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static int out_status(FILE *out)
{
    if (fflush(out) != 0 || ferror(out))
        return errno != 0 ? -errno : -EIO;
    return 0;
}

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
static int src_next(jointer_export_src *s, jointer_trace_record *rec, uint64_t *cycle)
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
    while ((r = src_next(s, &rec, &c)) == 1)
        ;
    *total = s->records;
    return r < 0 ? r : src_rewind(s);
}

int jointer_export_csv(FILE *out, jointer_export_src *s)
{
    char line[80], mon[32], tr[32];
    obuf ob;
    jointer_trace_record rec;
    uint64_t total, c, i = 0;
    int r;

    if (out == NULL || s == NULL)
        return -EINVAL;
    if ((r = count_records(s, &total)) < 0)
        return r;
    text_name(mon, s->h.monitor);
    text_name(tr, s->h.trace);
    fprintf(out, "# monitor %s, trace %s, config hash 0x%08lX, clock %lu Hz, %llu records, %lu lost%s\n"
            "index,timestamp,data\n", mon, tr, (unsigned long)s->h.config_hash, (unsigned long)s->h.clock_hz,
            (unsigned long long)total, (unsigned long)s->h.lost,
            (s->h.flags & JOINTER_TFILE_COMPLETE) ? "" : " (incomplete file)");
    ob.f = out;
    ob.n = 0;
    while ((r = src_next(s, &rec, &c)) == 1) {
        size_t n = put_u64(line, i++);
        line[n++] = ',';
        n += put_u64(line + n, rec.timestamp);
        line[n++] = ',';
        n += put_u64(line + n, rec.data);
        line[n++] = '\n';
        ob_put(&ob, line, n);
    }
    ob_flush(&ob);
    return r < 0 ? r : out_status(out);
}

int jointer_export_json(FILE *out, jointer_export_src *s)
{
    char line[200];
    obuf ob;
    jointer_trace_record rec;
    uint64_t c, i = 0;
    size_t n;
    int r;

    if (out == NULL || s == NULL)
        return -EINVAL;
    n = put_s(line, "{\"monitor\": ");
    n += put_json(line + n, "", s->h.monitor);
    fwrite(line, 1, n, out);
    n = put_s(line, ", \"trace\": ");
    n += put_json(line + n, "", s->h.trace);
    fwrite(line, 1, n, out);
    fprintf(out, ", \"config_hash\": %lu, \"clock_hz\": %lu, \"depth\": %lu, \"complete\": %s, \"lost\": %lu, "
            "\"records\": [", (unsigned long)s->h.config_hash, (unsigned long)s->h.clock_hz,
            (unsigned long)s->h.depth, (s->h.flags & JOINTER_TFILE_COMPLETE) ? "true" : "false",
            (unsigned long)s->h.lost);
    ob.f = out;
    ob.n = 0;
    while ((r = src_next(s, &rec, &c)) == 1) {
        n = put_s(line, i++ ? ", {\"timestamp\": " : "{\"timestamp\": ");
        n += put_u64(line + n, rec.timestamp);
        n += put_s(line + n, ", \"data\": ");
        n += put_u64(line + n, rec.data);
        line[n++] = '}';
        ob_put(&ob, line, n);
    }
    ob_flush(&ob);
    fputs("]}\n", out);
    return r < 0 ? r : out_status(out);
}

/* ---- VCD --------------------------------------------------------------------- */

#define VCD_ID_CHARS 94u /* '!' .. '~' */

static void vcd_id(char *dst, unsigned k)
{
    char t[4];
    unsigned n = 0, i;

    k += 1u;
    while (k != 0 && n < 3) {
        unsigned r = (k - 1u) % VCD_ID_CHARS;
        t[n++] = (char)(33u + r);
        k = (k - 1u) / VCD_ID_CHARS;
    }
    for (i = 0; i < n; i++)
        dst[i] = t[n - 1 - i];
    dst[n] = 0;
}

/* scope names (duplicates get _2, _3...), ids and the period of each source */
static void vcd_names(jointer_export_src *const *src, unsigned n)
{
    unsigned k, j;

    for (k = 0; k < n; k++) {
        jointer_export_src *s = src[k];
        unsigned same = 0;
        vcd_ident(s->scope_mon, sizeof s->scope_mon, s->h.monitor, "monitor");
        vcd_ident(s->scope_trace, sizeof s->scope_trace, s->name, "trace");
        for (j = 0; j < k; j++) {
            char t[32];
            vcd_ident(t, sizeof t, src[j]->name, "trace");
            same += strcmp(src[j]->scope_mon, s->scope_mon) == 0 && strcmp(t, s->scope_trace) == 0;
        }
        if (same != 0) { /* n <= 4096 sources: 4 digits at most */
            size_t end = strlen(s->scope_trace);
            s->scope_trace[end] = '_';
            s->scope_trace[end + 1u + put_u64(s->scope_trace + end + 1u, same)] = 0;
        }
        vcd_id(s->id_data, 2u * k);
        vcd_id(s->id_strobe, 2u * k + 1u);
        s->period_ps = s->h.clock_hz != 0 ? (1000000000000ull + s->h.clock_hz / 2u) / s->h.clock_hz : 1000u;
    }
}

static void vcd_header(FILE *out, jointer_export_src *const *src, unsigned n, const char *version)
{
    unsigned k, j;

    fprintf(out, "$date jointer trace export $end\n$version jointer %s $end\n$comment time = LMIC clock cycle x "
            "period;", version != NULL ? version : "");
    for (k = 0; k < n; k++) {
        if (src[k]->h.clock_hz != 0)
            fprintf(out, "%s %s.%s: %lu Hz, %llu ps", k ? ";" : "", src[k]->scope_mon, src[k]->scope_trace,
                    (unsigned long)src[k]->h.clock_hz, (unsigned long long)src[k]->period_ps);
        else
            fprintf(out, "%s %s.%s: clock unknown, 1 ns per cycle", k ? ";" : "", src[k]->scope_mon,
                    src[k]->scope_trace);
    }
    fputs(" $end\n$timescale 1ps $end\n", out);
    for (k = 0; k < n; k++) { /* one scope per monitor, at its first source */
        for (j = 0; j < k && strcmp(src[j]->scope_mon, src[k]->scope_mon) != 0; j++)
            ;
        if (j < k)
            continue;
        fprintf(out, "$scope module %s $end\n", src[k]->scope_mon);
        for (j = k; j < n; j++)
            if (strcmp(src[j]->scope_mon, src[k]->scope_mon) == 0)
                fprintf(out, "$scope module %s $end\n$var wire 32 %s data $end\n$var wire 1 %s strobe $end\n"
                        "$upscope $end\n", src[j]->scope_trace, src[j]->id_data, src[j]->id_strobe);
        fputs("$upscope $end\n", out);
    }
    fputs("$enddefinitions $end\n#0\n$dumpvars\n", out);
    for (k = 0; k < n; k++)
        fprintf(out, "bx %s\n0%s\n", src[k]->id_data, src[k]->id_strobe);
    fputs("$end\n", out);
}

static int vcd_peek(jointer_export_src *s)
{
    int r;
    if (s->have)
        return 1;
    r = src_next(s, &s->next, &s->next_cycle);
    s->have = r == 1;
    return r;
}

/* every record of s at time t: data, strobe high; the strobe's fall unless
 * the next record is in the next cycle */
static int vcd_records_at(obuf *out, jointer_export_src *s, uint64_t t)
{
    static const char *const nib[16] = {"0000", "0001", "0010", "0011", "0100", "0101", "0110", "0111",
                                        "1000", "1001", "1010", "1011", "1100", "1101", "1110", "1111"};
    char line[64];

    while (s->have && s->next_cycle * s->period_ps == t) {
        uint64_t c = s->next_cycle;
        size_t n = 0;
        int k, r;
        line[n++] = 'b';
        for (k = 28; k >= 0; k -= 4) {
            memcpy(line + n, nib[(s->next.data >> k) & 15u], 4);
            n += 4;
        }
        line[n++] = ' ';
        n += put_s(line + n, s->id_data);
        line[n++] = '\n';
        line[n++] = '1';
        n += put_s(line + n, s->id_strobe);
        line[n++] = '\n';
        ob_put(out, line, n);
        s->have = 0;
        if ((r = vcd_peek(s)) < 0)
            return r;
        s->clear_at = s->have && (s->next_cycle == c || s->next_cycle == c + 1u) ? NONE : (c + 1u) * s->period_ps;
    }
    return 0;
}

int jointer_export_vcd(FILE *out, jointer_export_src *const *src, unsigned n, const char *version)
{
    obuf ob;
    uint64_t last = 0;
    unsigned k;
    int r;

    if (out == NULL || src == NULL || n == 0 || n > 4096u)
        return -EINVAL;
    vcd_names(src, n);
    vcd_header(out, src, n, version);
    ob.f = out;
    ob.n = 0;
    for (k = 0; k < n; k++)
        if ((r = vcd_peek(src[k])) < 0)
            return r;
    for (;;) {
        uint64_t t = NONE;
        char line[32];
        size_t len;
        for (k = 0; k < n; k++) {
            uint64_t tk = src[k]->have ? src[k]->next_cycle * src[k]->period_ps : NONE;
            t = tk < t ? tk : t;
            t = src[k]->clear_at < t ? src[k]->clear_at : t;
        }
        if (t == NONE)
            break;
        if (t != last) {
            line[0] = '#';
            len = 1 + put_u64(line + 1, t);
            line[len++] = '\n';
            ob_put(&ob, line, len);
            last = t;
        }
        for (k = 0; k < n; k++) {
            jointer_export_src *s = src[k];
            if (s->clear_at == t) {
                line[0] = '0';
                len = 1 + put_s(line + 1, s->id_strobe);
                line[len++] = '\n';
                ob_put(&ob, line, len);
                s->clear_at = NONE;
            }
            if ((r = vcd_records_at(&ob, s, t)) < 0) {
                ob_flush(&ob);
                return r;
            }
        }
    }
    ob_flush(&ob);
    return out_status(out);
}

/* ---- Perfetto ------------------------------------------------------------------ */

/* an event, after ",\n" (the first: "\n"); through ob when given */
static void pf_event(jointer_perfetto *p, obuf *ob, const char *text, size_t n)
{
    const char *sep = p->events != 0 ? ",\n" : "\n";
    if (ob != NULL) {
        ob_put(ob, sep, strlen(sep));
        ob_put(ob, text, n);
    } else {
        fputs(sep, p->out);
        fwrite(text, 1, n, p->out);
    }
    p->events++;
}

int jointer_perfetto_begin(jointer_perfetto *p, FILE *out)
{
    if (p == NULL || out == NULL)
        return -EINVAL;
    p->out = out;
    p->events = 0;
    fputs("{\"traceEvents\": [", out);
    return ferror(out) ? -EIO : 0;
}

static int pf_meta(jointer_perfetto *p, const char *kind, unsigned pid, unsigned tid, const char *name)
{
    char line[1700];
    size_t n;

    if (p == NULL || name == NULL || strlen(name) > 250)
        return -EINVAL;
    n = put_s(line, "{\"name\": \"");
    n += put_s(line + n, kind);
    n += put_s(line + n, "\", \"ph\": \"M\", \"pid\": ");
    n += put_u64(line + n, pid);
    n += put_s(line + n, ", \"tid\": ");
    n += put_u64(line + n, tid);
    n += put_s(line + n, ", \"args\": {\"name\": ");
    n += put_json(line + n, "", name);
    n += put_s(line + n, "}}");
    pf_event(p, NULL, line, n);
    return 0;
}

int jointer_perfetto_process(jointer_perfetto *p, unsigned pid, const char *name)
{
    return pf_meta(p, "process_name", pid, 0, name);
}

int jointer_perfetto_thread(jointer_perfetto *p, unsigned pid, unsigned tid, const char *name)
{
    return pf_meta(p, "thread_name", pid, tid, name);
}

/* index -> function role: entry f, exit 256 + f, -1 none (entry-only functions: none, the instant says it) */
static int pf_roles(const jointer_export_calls *calls, int16_t *role)
{
    unsigned k, f;

    for (k = 0; k < 256u; k++)
        role[k] = -1;
    if (calls == NULL)
        return 0;
    if (calls->fn == NULL || calls->names == NULL || calls->nfn > 256u || calls->stack == NULL
        || calls->stack_depth == 0)
        return -EINVAL;
    for (f = 0; f < calls->nfn; f++) {
        const jointer_pm_function *fn = &calls->fn[f];
        if (fn->exit == JOINTER_PM_NO_INDEX)
            continue;
        if (role[fn->entry] >= 0 || role[fn->exit] >= 0 || fn->entry == fn->exit || calls->names[f] == NULL
            || strlen(calls->names[f]) > 200)
            return -EINVAL;
        role[fn->entry] = (int16_t)f;
        role[fn->exit] = (int16_t)(256 + f);
    }
    return 0;
}

/* the tail of an event: , "pid": P, "tid": T */
static size_t pf_ids(char *p, unsigned pid, unsigned tid)
{
    size_t n = put_s(p, ", \"pid\": ");
    n += put_u64(p + n, pid);
    n += put_s(p + n, ", \"tid\": ");
    n += put_u64(p + n, tid);
    return n;
}

/* a record of an exit index: the slice of the innermost open call of its
 * function (frames opened after it dropped), or an "unmatched exit" instant */
static void pf_exit(jointer_perfetto *p, obuf *ob, const jointer_export_calls *calls, unsigned *depth,
                    unsigned f, uint64_t c, uint32_t hz, const char *ids)
{
    char line[1600];
    size_t n;
    unsigned pos = *depth;

    while (pos > 0 && calls->stack[pos - 1].function != f)
        pos--;
    n = put_s(line, "{\"name\": ");
    if (pos == 0) {
        n += put_json(line + n, "unmatched exit ", calls->names[f]);
        n += put_s(line + n, ", \"cat\": \"pm\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
        n += put_us(line + n, c, hz);
        n += put_s(line + n, ids);
        line[n++] = '}';
    } else {
        uint64_t c0 = calls->stack[pos - 1].cycle;
        n += put_json(line + n, "", calls->names[f]);
        n += put_s(line + n, ", \"cat\": \"pm\", \"ph\": \"X\", \"ts\": ");
        n += put_us(line + n, c0, hz);
        n += put_s(line + n, ", \"dur\": ");
        n += put_us(line + n, c - c0, hz);
        n += put_s(line + n, ids);
        n += put_s(line + n, ", \"args\": {\"cycles\": ");
        n += put_u64(line + n, c - c0);
        n += put_s(line + n, "}}");
        *depth = pos - 1;
    }
    pf_event(p, ob, line, n);
}

static void pf_call(jointer_perfetto *p, obuf *ob, const jointer_export_calls *calls, unsigned *depth,
                    int16_t ro, uint64_t c, uint32_t hz, const char *ids)
{
    if (ro >= 256) {
        pf_exit(p, ob, calls, depth, (unsigned)(ro - 256), c, hz, ids);
        return;
    }
    if (*depth == calls->stack_depth) { /* full: the oldest frame goes */
        memmove(calls->stack, calls->stack + 1, (*depth - 1u) * sizeof calls->stack[0]);
        --*depth;
    }
    calls->stack[*depth].cycle = c;
    calls->stack[*depth].function = (uint16_t)ro;
    ++*depth;
}

int jointer_perfetto_records(jointer_perfetto *p, jointer_export_src *s, unsigned pid, unsigned tid,
                             const jointer_export_calls *calls)
{
    char head[400], ids[64], line[700];
    obuf ob;
    size_t hn, n;
    jointer_trace_record rec;
    uint64_t c;
    unsigned depth = 0;
    int16_t role[256];
    int r;

    if (p == NULL || s == NULL)
        return -EINVAL;
    r = pf_roles(calls, role);
    if (r < 0)
        return r;
    ob.f = p->out;
    ob.n = 0;
    hn = put_s(head, "{\"name\": ");
    hn += put_json(head + hn, "", s->name);
    hn += put_s(head + hn, ", \"cat\": \"record\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
    ids[pf_ids(ids, pid, tid)] = 0;
    while ((r = src_next(s, &rec, &c)) == 1) {
        memcpy(line, head, hn);
        n = hn + put_us(line + hn, c, s->h.clock_hz);
        n += put_s(line + n, ids);
        n += put_s(line + n, ", \"args\": {\"data\": ");
        n += put_u64(line + n, rec.data);
        n += put_s(line + n, ", \"cycle\": ");
        n += put_u64(line + n, c);
        n += put_s(line + n, "}}");
        pf_event(p, &ob, line, n);
        if (calls != NULL && rec.data < 256u && role[rec.data] >= 0)
            pf_call(p, &ob, calls, &depth, role[rec.data], c, s->h.clock_hz, ids);
    }
    ob_flush(&ob);
    return r < 0 ? r : (ferror(p->out) ? -EIO : 0);
}

int jointer_perfetto_counter(jointer_perfetto *p, unsigned pid, const char *name, double ts_us, int64_t value)
{
    char line[800], num[40];
    size_t n;

    if (p == NULL || name == NULL || strlen(name) > 100 || !isfinite(ts_us) || ts_us < 0)
        return -EINVAL;
    n = put_s(line, "{\"name\": ");
    n += put_json(line + n, "", name);
    n += put_s(line + n, ", \"cat\": \"watch\", \"ph\": \"C\", \"ts\": ");
    snprintf(num, sizeof num, "%.15g", ts_us);
    n += put_s(line + n, num);
    n += pf_ids(line + n, pid, 0);
    snprintf(num, sizeof num, ", \"args\": {\"value\": %lld}}", (long long)value);
    n += put_s(line + n, num);
    pf_event(p, NULL, line, n);
    return ferror(p->out) ? -EIO : 0;
}

int jointer_perfetto_end(jointer_perfetto *p, const char *generator, const char *const *sources, unsigned n)
{
    char line[1600];
    size_t len;
    unsigned k;

    if (p == NULL || generator == NULL || strlen(generator) > 200 || (sources == NULL && n != 0))
        return -EINVAL;
    len = put_s(line, "\n], \"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": ");
    len += put_json(line + len, "", generator);
    len += put_s(line + len, ", \"sources\": [");
    fwrite(line, 1, len, p->out);
    for (k = 0; k < n; k++) {
        if (sources[k] == NULL || strlen(sources[k]) > 250)
            return -EINVAL;
        len = put_s(line, k ? ", " : "");
        len += put_json(line + len, "", sources[k]);
        fwrite(line, 1, len, p->out);
    }
    fputs("]}}\n", p->out);
    return out_status(p->out);
}
