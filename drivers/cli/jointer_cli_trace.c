// SPDX-License-Identifier: MIT
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
#include "jointer_export.h"

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

/* a sink with sync: its sync record and the host's CLOCK_MONOTONIC around it, in the header */
static int follow_sync(unsigned tr, jointer_tfile_header *h)
{
    uint64_t before, after;
    int r = jointer_sink_sync(&cli_dev, tr, jointer_monotonic_ns, NULL, &before, &after);
    return r == 0 ? jointer_tfile_add_sync(h, before, after) : r;
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
    if (r == 0 && t->sink_bytes != 0 && t->sync) /* the host's clock at a known cycle of the trace */
        r = follow_sync((unsigned)tr, &h);
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

#define CONVERT_MAX_FILES 64
#define CONVERT_MAX_CLOCKS 16
#define CONVERT_USAGE "usage: jointer trace --convert FILE [FILE...] [--format csv|json|spans|vcd|perfetto]" \
                      " [--clock [NAME=]FREQ]...\n"

/* --clock NAME=FREQ or FREQ: Hz, with an optional k, M or G and "Hz" (200MHz, 200e6, 200000000) */
typedef struct convert_clock {
    const char *name;      /* NULL: every file */
    size_t len;
    uint32_t hz;
} convert_clock;

static int parse_clock(const char *arg, convert_clock *c)
{
    const char *eq = strchr(arg, '='), *num = eq != NULL ? eq + 1 : arg;
    char *end;
    double v;

    c->name = eq != NULL ? arg : NULL;
    c->len = eq != NULL ? (size_t)(eq - arg) : 0;
    errno = 0;
    v = strtod(num, &end);
    if (*end == 'k' || *end == 'M' || *end == 'G') {
        v *= *end == 'k' ? 1e3 : *end == 'M' ? 1e6 : 1e9;
        end++;
    }
    if (strcmp(end, "Hz") == 0)
        end += 2;
    if (errno != 0 || end == num || *end != '\0' || !(v >= 1.0 && v <= 4294967295.0) || (eq != NULL && c->len == 0)) {
        fprintf(stderr, "jointer: --clock %s: expected [NAME=]FREQ, FREQ in Hz (200000000, 200e6, 200MHz; at "
                        "most 4.29 GHz), NAME the clock of the YAML (clocks:)\n", arg);
        return -1;
    }
    c->hz = (uint32_t)(v + 0.5);
    return 0;
}

/* the --clock options on the files: a name matches the file's clock; a name no file has is an error */
static int convert_clocks(const char **paths, jointer_export_src *src, unsigned n, const convert_clock *c,
                          unsigned nc)
{
    unsigned k, j;

    for (j = 0; j < nc; j++) {
        unsigned used = 0;
        for (k = 0; k < n; k++)
            if (c[j].name == NULL || (strlen(src[k].h.clock) == c[j].len
                                      && strncmp(src[k].h.clock, c[j].name, c[j].len) == 0)) {
                (void)jointer_export_set_clock(&src[k], c[j].hz);
                used++;
            }
        if (used == 0) {
            fprintf(stderr, "jointer: --clock %.*s=...: no file's timestamps are on clock \"%.*s\" (", (int)c[j].len,
                    c[j].name, (int)c[j].len, c[j].name);
            for (k = 0; k < n; k++)
                fprintf(stderr, "%s%s: %s", k ? ", " : "", paths[k], src[k].h.clock[0] ? src[k].h.clock
                        : "unknown, a version 1 file: use --clock FREQ");
            fprintf(stderr, ")\n");
            return -1;
        }
    }
    return 0;
}

/* the sources: each opened, its header checked; the first error said */
static int convert_open(const char **paths, unsigned n, jointer_export_src *src, FILE **in)
{
    unsigned k;

    for (k = 0; k < n; k++) {
        const char *base = strrchr(paths[k], '/');
        char msg[200];
        int r = jointer_export_fopen(paths[k], &in[k]);
        if (r < 0) {
            fprintf(stderr, "jointer: %s: cannot read: %s\n", paths[k], jointer_export_open_error(r));
            return r;
        }
        r = jointer_export_open(&src[k], in[k], base != NULL ? base + 1 : paths[k]);
        if (r < 0) {
            jointer_export_message(&src[k], r, msg, sizeof msg);
            fprintf(stderr, "jointer: %s: %s\n", paths[k], msg);
            return r;
        }
    }
    return 0;
}

/* Perfetto of the sources: a process per monitor (in order of appearance), a thread per file */
static int convert_perfetto(FILE *out, jointer_export_src *src, unsigned n, const char **paths)
{
    jointer_perfetto p;
    unsigned k, j, pid[CONVERT_MAX_FILES], procs = 0;
    int r = jointer_perfetto_begin(&p, out);

    for (k = 0; r == 0 && k < n; k++) {
        for (j = 0; j < k && strcmp(src[j].h.monitor, src[k].h.monitor) != 0; j++)
            ;
        pid[k] = j < k ? pid[j] : ++procs;
        if (j == k)
            r = jointer_perfetto_process(&p, pid[k], src[k].h.monitor[0] ? src[k].h.monitor : "monitor");
        if (r == 0)
            r = jointer_perfetto_thread(&p, pid[k], k + 1u, src[k].name);
    }
    for (k = 0; r == 0 && k < n; k++)
        r = jointer_perfetto_records(&p, &src[k], pid[k], k + 1u, NULL);
    if (r == 0) {
        const char *names[CONVERT_MAX_FILES];
        for (k = 0; k < n; k++) {
            const char *b = strrchr(paths[k], '/');
            names[k] = b != NULL ? b + 1 : paths[k];
        }
        r = jointer_perfetto_end(&p, "jointer cli", names, n);
    }
    return r;
}

/* the first source that stopped on its input, said; else the output's error */
static int convert_fail(const char **paths, jointer_export_src *src, unsigned n, int r)
{
    char msg[200];
    unsigned k;

    for (k = 0; k < n; k++)
        if (src[k].why != JOINTER_EXPORT_OK) {
            jointer_export_message(&src[k], r, msg, sizeof msg);
            fprintf(stderr, "jointer: %s: %s\n", paths[k], msg);
            return 1;
        }
    fprintf(stderr, "jointer: trace --convert: cannot write the output: %s\n", strerror(r < 0 ? -r : EIO));
    return 1;
}

static int convert_warn(const char **paths, jointer_export_src *src, unsigned n)
{
    unsigned k;

    for (k = 0; k < n; k++) {
        uint64_t tail = jointer_export_count(&src[k], JOINTER_EXPORT_TAIL);
        uint64_t skipped = jointer_export_count(&src[k], JOINTER_EXPORT_SKIPPED);
        if (tail != 0)
            fprintf(stderr, "jointer: %s: incomplete file (the recording was cut short): the %" PRIu64
                    " bytes of a partial item at byte offset %" PRIu64 " ignored\n", paths[k], tail,
                    (uint64_t)src[k].size - tail);
        if (skipped != 0)
            fprintf(stderr, "jointer: %s: %" PRIu64 " units before the first SYNC skipped\n", paths[k], skipped);
    }
    return 0;
}

/* the format is known, and one file for the formats of one file */
static int convert_check(const char *fmt, unsigned n)
{
    static const char *const fmts[] = {"csv", "json", "spans", "vcd", "perfetto"};
    unsigned k;

    for (k = 0; k < 5u && strcmp(fmt, fmts[k]) != 0; k++)
        ;
    if (k == 5u) {
        fprintf(stderr, "jointer: trace --convert: unknown --format \"%s\" (expected csv, json, spans, vcd or "
                        "perfetto)\n", fmt);
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "jointer: trace --convert: no trace file given\n" CONVERT_USAGE);
        return 2;
    }
    if (n > 1 && k < 3u) {
        fprintf(stderr, "jointer: trace --convert: --format %s converts one file (%u given); vcd and perfetto "
                        "merge several\n", fmt, n);
        return 2;
    }
    return 0;
}

int cli_cmd_trace_convert(int argc, char **argv)
{
    static jointer_export_src src[CONVERT_MAX_FILES];
    static FILE *in[CONVERT_MAX_FILES];
    static const char *paths[CONVERT_MAX_FILES];
    static char obuf[1 << 16];
    convert_clock clocks[CONVERT_MAX_CLOCKS];
    const char *fmt = "csv";
    unsigned n = 0, nc = 0, k;
    int i, r;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--convert") == 0)
            continue;
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            fmt = argv[++i];
        else if (strcmp(argv[i], "--clock") == 0 && i + 1 < argc && nc < CONVERT_MAX_CLOCKS) {
            if (parse_clock(argv[++i], &clocks[nc++]) < 0)
                return 2;
        } else if (argv[i][0] != '-' && n < CONVERT_MAX_FILES)
            paths[n++] = argv[i];
        else {
            int known = strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "--clock") == 0;
            fprintf(stderr, "jointer: trace --convert: %s \"%s\"\n" CONVERT_USAGE,
                    argv[i][0] != '-' ? "more than 64 files, from" : known ? "a value is missing after"
                    : "unknown option", argv[i]);
            return 2;
        }
    }
    if (convert_check(fmt, n) != 0)
        return 2;
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    r = convert_open(paths, n, src, in);
    if (r == 0 && convert_clocks(paths, src, n, clocks, nc) < 0)
        r = 2;
    else if (r == 0) {
        jointer_export_src *list[CONVERT_MAX_FILES];
        for (k = 0; k < n; k++)
            list[k] = &src[k];
        r = fmt[0] == 'c' ? jointer_export_csv(stdout, &src[0])
            : fmt[0] == 'j' ? jointer_export_json(stdout, &src[0])
            : fmt[0] == 's' ? jointer_export_spans_csv(stdout, &src[0])
            : fmt[0] == 'v' ? jointer_export_vcd(stdout, list, n, "cli")
            : convert_perfetto(stdout, src, n, paths);
        if (r == -ENOENT && fmt[0] == 's') {
            fprintf(stderr, "jointer: %s: trace %s has no spans (YAML spans: of the trace; a file of version 1 "
                            "has none)\n", paths[0], src[0].name);
            r = 1;
        } else {
            r = r < 0 ? convert_fail(paths, src, n, r) : convert_warn(paths, src, n);
        }
    } else {
        r = 1;
    }
    for (k = 0; k < n; k++)
        if (in[k] != NULL)
            fclose(in[k]);
    return r;
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
    if (only >= 0 && CFG->traces[only].sink_bytes != 0) {
        fprintf(stderr, "jointer: trace %s is a sink (mode: sink): its records go to a ring in memory, not to a "
                        "buffer of the monitor\n  use: jointer trace %s --follow -o FILE (then jointer trace "
                        "--convert FILE)\n", CFG->traces[only].name, CFG->traces[only].name);
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
        if ((only >= 0 && (unsigned)only != t) || CFG->traces[t].sink_bytes != 0)
            continue;    /* a sink has no buffer here: trace T --follow */
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
