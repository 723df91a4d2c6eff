/*
 * jointer_cli_trace.c - the jointer trace command: dump a trace buffer
 * (table, CSV, JSON), drain a relay trace into a trace file (--follow), and
 * print a trace file as text (--convert).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jointer_cli.h"

/* ---- relay: trace --follow, trace --convert ------------------------------- */

typedef struct follow_sink {
    FILE *f;
    jointer_tfile_header *h;
    uint64_t records; /* records in the file (compact: from the units' kinds) */
} follow_sink;

static int follow_write(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    follow_sink *s = ctx;
    s->records += n;
    return jointer_tfile_append(s->f, s->h, rec, n);
}

/* a compact sink's units, stored as they are (the file's encoding 1) */
static int follow_units(void *ctx, const uint64_t *units, uint32_t n)
{
    follow_sink *s = ctx;
    uint32_t i;

    for (i = 0; i < n; i++)
        s->records += jointer_compact_unit_records(units[i]);
    return jointer_tfile_append_units(s->f, s->h, units, n);
}

int cli_cmd_trace_follow(int argc, char **argv)
{
    static jointer_trace_record buf[1024];
    static uint64_t ubuf[1024];
    jointer_tfile_header h;
    follow_sink sink = {NULL, NULL, 0};
    const char *path = NULL, *ring_spec = NULL;
    uint32_t wm = 0, timeout = 100, records = 0, duration = 0, lost = 0;
    uint64_t drained = 0;
    const jointer_trace_desc *t;
    int i, tr = -1, r = 0, decode = 0, units;
    double t0;
    FILE *f;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--follow") == 0)
            continue;
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "--decode") == 0)
            decode = 1;
        else if (strcmp(argv[i], "--watermark") == 0 && i + 1 < argc && cli_parse_u32(argv[i + 1], &wm) == 0)
            i++;
        else if (strcmp(argv[i], "--ring") == 0 && i + 1 < argc)
            ring_spec = argv[++i];
        else if (strcmp(argv[i], "--timeout-ms") == 0 && i + 1 < argc && cli_parse_u32(argv[i + 1], &timeout) == 0)
            i++;
        else if (strcmp(argv[i], "--records") == 0 && i + 1 < argc && cli_parse_u32(argv[i + 1], &records) == 0)
            i++;
        else if (strcmp(argv[i], "--duration-ms") == 0 && i + 1 < argc && cli_parse_u32(argv[i + 1], &duration) == 0)
            i++;
        else if (tr < 0 && (tr = jointer_find_trace(CFG, argv[i])) >= 0)
            continue;
        else {
            fprintf(stderr, "jointer: trace --follow: bad argument \"%s\" (see jointer --help)\n", argv[i]);
            return 2;
        }
    }
    if (tr < 0 || path == NULL || timeout > 0x7FFFFFFFu) {
        fprintf(stderr, "usage: jointer trace TRACE --follow -o FILE [--watermark N] [--timeout-ms MS]"
                        " [--records N] [--duration-ms MS] [--ring ADDR:SIZE] [--decode]\n");
        return 2;
    }
    t = &CFG->traces[tr];
    if (!t->relay && t->sink_bytes == 0) {
        fprintf(stderr, "jointer: trace %s is not a relay or sink trace (YAML mode: relay | sink)\n", t->name);
        return 2;
    }
    /* a compact sink: its units go to the file as they are, unless --decode */
    units = t->sink_bytes != 0 && t->encoding == JOINTER_ENCODING_COMPACT && !decode;
    if (wm == 0 && t->relay)
        wm = t->depth / 2u;
    if (t->relay && wm > t->depth) {
        fprintf(stderr, "jointer: --watermark %" PRIu32 " beyond the depth %" PRIu32 "\n", wm, t->depth);
        return 2;
    }
    if (cli_open_device() < 0)
        return 1;
    if (t->sink_bytes != 0 && (r = cli_sink_begin((unsigned)tr, ring_spec, wm)) != 0)
        return r;
    f = fopen(path, "w+b");
    if (f == NULL) {
        fprintf(stderr, "jointer: cannot write %s: %s\n", path, strerror(errno));
        if (t->sink_bytes != 0)
            (void)cli_sink_end((unsigned)tr, buf, ubuf, 0, follow_write, NULL, NULL, &drained);
        return 1;
    }
    r = jointer_tfile_header_init(&h, CFG, (unsigned)tr);
    h.encoding = units ? JOINTER_TFILE_ENC_COMPACT : JOINTER_TFILE_ENC_RAW;
    if (r == 0)
        r = jointer_tfile_write_header(f, &h);
    if (r == 0 && t->relay)
        r = jointer_trace_set_watermark(&cli_dev, (unsigned)tr, wm);
    if (r == 0 && t->irq_bit >= 0)
        r = jointer_irq_enable(&cli_dev, t->lmic, 3u << (unsigned)t->irq_bit);
    sink.f = f;
    sink.h = &h;
    signal(SIGINT, cli_on_signal);
    signal(SIGTERM, cli_on_signal);
    t0 = cli_now_ms();
    while (r == 0 && !cli_stop_requested && (records == 0 || sink.records < records)
           && (duration == 0 || cli_now_ms() - t0 < (double)duration))
        r = units ? jointer_sink_relay_units(&cli_dev, (unsigned)tr, ubuf, sizeof ubuf / sizeof ubuf[0],
                                             (int)timeout, follow_units, &sink, &drained)
                  : jointer_trace_relay(&cli_dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], (int)timeout,
                                        follow_write, &sink, &drained);
    if (t->sink_bytes != 0) { /* stop, drain the rest, unmap the ring */
        int e = cli_sink_end((unsigned)tr, buf, ubuf, sizeof buf / sizeof buf[0], follow_write,
                             units ? follow_units : NULL, &sink, &drained);
        r = r == 0 ? e : r;
    }
    if (r == 0)
        r = jointer_trace_lost(&cli_dev, (unsigned)tr, &lost);
    if (r == 0)
        r = jointer_tfile_finish(f, &h, lost);
    if (t->irq_bit >= 0)
        (void)jointer_irq_enable(&cli_dev, t->lmic, 0);
    if (fclose(f) != 0 && r == 0)
        r = -EIO;
    if (r < 0)
        return cli_fail(r, "trace --follow");
    if (units)
        printf("trace %s: %" PRIu64 " records in %" PRIu64 " compact units to %s, %" PRIu32 " lost\n", t->name,
               sink.records, h.records, path, lost);
    else
        printf("trace %s: %" PRIu64 " records to %s, %" PRIu32 " lost\n", t->name, h.records, path, lost);
    return 0;
}

/* records of the file from the current position, through the reader of
 * either encoding; *total = records, *rd = the reader at the end */
static int convert_pass(FILE *in, const jointer_tfile_header *h, jointer_tfile_reader *rd,
                        jointer_trace_record *rec, uint32_t max, enum fmt f, int print, uint64_t *total)
{
    uint32_t n, j;
    int r;

    jointer_tfile_reader_init(rd);
    *total = 0;
    do {
        r = jointer_tfile_read_records(in, h, rd, rec, max, &n);
        for (j = 0; print && j < n; j++, ++*total) {
            if (f == FMT_CSV)
                printf("%" PRIu64 ",%" PRIu32 ",%" PRIu32 "\n", *total, rec[j].timestamp, rec[j].data);
            else
                printf("%s{\"timestamp\": %" PRIu32 ", \"data\": %" PRIu32 "}", *total ? ", " : "",
                       rec[j].timestamp, rec[j].data);
        }
        if (!print)
            *total += n;
    } while (r == 0 && n != 0);
    return r;
}

int cli_cmd_trace_convert(int argc, char **argv)
{
    static jointer_trace_record rec[1024];
    jointer_tfile_header h;
    jointer_tfile_reader rd;
    enum fmt f = FMT_CSV;
    const char *path = NULL;
    uint64_t records = 0, index = 0;
    int i, r;
    FILE *in;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--convert") == 0 && i + 1 < argc && path == NULL) {
            path = argv[++i];
        } else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc && cli_parse_format(argv[i + 1], &f) == 0
                   && f != FMT_TABLE) {
            i++;
        } else {
            fprintf(stderr, "usage: jointer trace --convert FILE [--format csv|json]\n");
            return 2;
        }
    }
    if (path == NULL) {
        fprintf(stderr, "usage: jointer trace --convert FILE [--format csv|json]\n");
        return 2;
    }
    in = fopen(path, "rb");
    if (in == NULL) {
        fprintf(stderr, "jointer: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    r = jointer_tfile_read_header(in, &h);
    if (r < 0) {
        fprintf(stderr, "jointer: %s: %s\n", path, r == -EIO ? "short header" :
                "not a jointer trace file (magic, version 1, raw or compact encoding)");
        fclose(in);
        return 1;
    }
    records = h.records;
    if (h.encoding == JOINTER_TFILE_ENC_COMPACT) { /* units in the header: count the records first */
        r = convert_pass(in, &h, &rd, rec, sizeof rec / sizeof rec[0], f, 0, &records);
        if (r == 0 && fseek(in, (long)JOINTER_TFILE_HEADER_BYTES, SEEK_SET) != 0)
            r = -EIO;
        if (r < 0)
            goto out;
    }
    if (f == FMT_CSV) {
        printf("# monitor %s, trace %s, config hash 0x%08" PRIX32 ", clock %" PRIu32 " Hz, %" PRIu64
               " records, %" PRIu32 " lost%s\n", h.monitor, h.trace, h.config_hash, h.clock_hz, records, h.lost,
               (h.flags & JOINTER_TFILE_COMPLETE) ? "" : " (incomplete file)");
        printf("index,timestamp,data\n");
    } else {
        printf("{\"monitor\": \"%s\", \"trace\": \"%s\", \"config_hash\": %" PRIu32 ", \"clock_hz\": %" PRIu32
               ", \"depth\": %" PRIu32 ", \"complete\": %s, \"lost\": %" PRIu32 ", \"records\": [",
               h.monitor, h.trace, h.config_hash, h.clock_hz, h.depth,
               (h.flags & JOINTER_TFILE_COMPLETE) ? "true" : "false", h.lost);
    }
    r = convert_pass(in, &h, &rd, rec, sizeof rec / sizeof rec[0], f, 1, &index);
    if (f == FMT_JSON)
        printf("]}\n");
    if (r == 0 && rd.items != h.records)
        r = -EPROTO;
    if (r == 0 && rd.skipped != 0)
        fprintf(stderr, "jointer: %s: %" PRIu64 " units before the first SYNC skipped\n", path, rd.skipped);
out:
    fclose(in);
    if (r < 0) {
        fprintf(stderr, "jointer: %s: %s\n", path, r == -EPROTO ? "truncated record or count mismatch"
                                              : r == -EILSEQ ? "malformed compact unit" : "read error");
        return 1;
    }
    return 0;
}

int cli_cmd_trace(int argc, char **argv)
{
    static jointer_trace_record rec[65536];
    enum fmt f = FMT_TABLE;
    int i, only = -1, first = 1;
    unsigned t;
    for (i = 0; i < argc; i++) { /* the relay commands */
        if (strcmp(argv[i], "--convert") == 0)
            return cli_cmd_trace_convert(argc, argv);
        if (strcmp(argv[i], "--follow") == 0)
            return cli_cmd_trace_follow(argc, argv);
    }
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            if (cli_parse_format(argv[++i], &f) != 0) {
                fprintf(stderr, "jointer: --format table|csv|json\n");
                return 2;
            }
        } else if (only < 0 && (only = jointer_find_trace(CFG, argv[i])) >= 0) {
            continue;
        } else {
            fprintf(stderr, "jointer: no trace \"%s\" in %s (see jointer info)\n", argv[i], CFG->name);
            return 2;
        }
    }
    if (CFG->num_traces == 0) {
        fprintf(stderr, "jointer: %s has no trace buffer\n", CFG->name);
        return 2;
    }
    if (cli_open_device() < 0)
        return 1;
    if (f == FMT_CSV)
        printf("trace,index,timestamp,data\n");
    if (f == FMT_JSON)
        printf("{\"monitor\": \"%s\", \"traces\": {", CFG->name);
    for (t = 0; t < CFG->num_traces; t++) {
        uint32_t n, j, fill, st;
        int r;
        if (only >= 0 && (unsigned)only != t)
            continue;
        r = jointer_trace_status(&cli_dev, t, &fill, &st);
        if (r == 0)
            r = jointer_trace_read(&cli_dev, t, rec, sizeof rec / sizeof rec[0], &n);
        if (r < 0)
            return cli_fail(r, "trace");
        if (f == FMT_TABLE)
            printf("trace %s: %" PRIu32 " records%s%s\n", CFG->traces[t].name, n,
                   (st & JOINTER_TRACE_STATUS_FULL) ? ", full" : "",
                   (st & JOINTER_TRACE_STATUS_OVERFLOW) ? ", overflowed" : "");
        if (f == FMT_JSON)
            printf("%s\"%s\": [", first ? "" : ", ", CFG->traces[t].name);
        first = 0;
        for (j = 0; j < n; j++) {
            if (f == FMT_TABLE)
                printf("  %6" PRIu32 "  %10" PRIu32 "  0x%08" PRIX32 "\n", j, rec[j].timestamp, rec[j].data);
            else if (f == FMT_CSV)
                printf("%s,%" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n", CFG->traces[t].name, j, rec[j].timestamp, rec[j].data);
            else
                printf("%s{\"timestamp\": %" PRIu32 ", \"data\": %" PRIu32 "}", j ? ", " : "", rec[j].timestamp,
                       rec[j].data);
        }
        if (f == FMT_JSON)
            printf("]");
    }
    if (f == FMT_JSON)
        printf("}}\n");
    return 0;
}
