// SPDX-License-Identifier: MIT
/*
 * fuzz_tfile.c - libFuzzer harness of the trace-file reader
 * (jointer_tfile_read_header, jointer_tfile_read): any byte string as a trace
 * file. The reader must return an error or records, never read out of
 * bounds or loop (ASan, UBSan), and what it returns must be consistent: the
 * header's strings NUL terminated, at most the records the file holds,
 * records = (file size - header) / 8 when the header does not say COMPLETE.
 * The same bytes are also compact units (jointer_compact_decode):
 * decoded in chunks of a size taken from the first byte, every unit is
 * consumed exactly once, no call writes past its max, and the records out
 * are the records of the units consumed after the skipped ones (which
 * precede the first SYNC).
 * The file's records are read with jointer_tfile_read_records, so a header
 * saying compact decodes its units.
 * make fuzz-smoke runs it for FUZZ_SMOKE_TIME seconds (with fuzz_api).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jointer_compact.h"
#include "jointer_export.h"
#include "jointer_trace_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_compact(const uint8_t *data, size_t size)
{
    uint64_t units[64];
    jointer_trace_record rec[8];
    jointer_compact_state st;
    uint32_t n = (uint32_t)(size / 8 < 64 ? size / 8 : 64), pos = 0, max, got, skipped;

    if (n == 0)
        return;
    memcpy(units, data, (size_t)n * 8u);
    max = (uint32_t)(data[0] % 8u) + 1u; /* 1..8 records per call */
    jointer_compact_reset(&st);
    while (pos < n) {
        uint32_t want = 0, i;
        int r;
        skipped = 0;
        r = jointer_compact_decode(&st, units + pos, n - pos, rec, max, &got, &skipped);
        if (r == -EILSEQ) { /* malformed first unit: skip it, resynchronise */
            if (got != 0)
                abort();
            jointer_compact_reset(&st);
            pos++;
            continue;
        }
        if (r < 0 || (uint32_t)r > n - pos || got > max || skipped > (uint32_t)r)
            abort();
        if (r == 0) {
            if (jointer_compact_unit_records(units[pos]) <= max)
                abort();
            break;
        }
        /* units are skipped only before the first SYNC: the first `skipped` ones */
        for (i = skipped; i < (uint32_t)r; i++)
            want += jointer_compact_unit_records(units[pos + i]);
        if (got != want || (skipped != 0 && skipped != (uint32_t)r
                            && (units[pos + skipped] >> 62) != JOINTER_COMPACT_SYNC))
            abort();
        pos += (uint32_t)r;
    }
}

/* the converters (jointer_export.h) on the same bytes: every format runs to
 * its end or stops with a one-line message; never more records than items x 3 */
static void fuzz_export(const uint8_t *data, size_t size)
{
    static jointer_export_src src;
    static jointer_export_frame stack[4];
    static const jointer_pm_function fn[2] = {{0, 1}, {2, JOINTER_PM_NO_INDEX}};
    static const char *const names[2] = {"f", "g"}, *const files[1] = {"in"};
    static FILE *null;
    jointer_export_calls calls = {fn, names, 2, stack, 4};
    jointer_export_src *list[1] = {&src};
    jointer_perfetto p;
    char msg[256];
    int k;

    if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
        abort();
    for (k = 0; k < 3 && size != 0; k++) {
        FILE *f = fmemopen((void *)(uintptr_t)data, size, "rb");
        int r;
        if (f == NULL)
            return;
        r = jointer_export_open(&src, f, "fuzz");
        if (r == 0)
            r = k == 0 ? jointer_export_vcd(null, list, 1, "fuzz")
                : k == 1 ? jointer_export_csv(null, &src)
                : jointer_perfetto_begin(&p, null);
        if (r == 0 && k == 2) {
            r = jointer_perfetto_records(&p, &src, 1, 1, &calls);
            if (r == 0)
                r = jointer_perfetto_end(&p, "fuzz", files, 1);
        }
        jointer_export_message(&src, r, msg, sizeof msg);
        if (memchr(msg, 0, sizeof msg) == NULL || strchr(msg, '\n') != NULL
            || jointer_export_count(&src, JOINTER_EXPORT_RECORDS) > 3u * jointer_export_count(&src, JOINTER_EXPORT_ITEMS)
            || (r == 0 && k != 1 && jointer_export_count(&src, JOINTER_EXPORT_ITEMS_READ)
                                   != jointer_export_count(&src, JOINTER_EXPORT_ITEMS)))
            abort();
        fclose(f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jointer_tfile_header h;
    jointer_trace_record rec[16];
    uint64_t total = 0;
    uint32_t n;
    FILE *f = fmemopen((void *)(uintptr_t)data, size ? size : 1, "rb");
    int r;

    fuzz_compact(data, size);
    fuzz_export(data, size);
    if (f == NULL)
        return 0;
    if (size == 0) { /* fmemopen needs a size: an empty file is one we cannot open read-only */
        fclose(f);
        return 0;
    }
    r = jointer_tfile_read_header(f, &h);
    if (r == 0) {
        if (memchr(h.monitor, 0, sizeof h.monitor) == NULL || memchr(h.trace, 0, sizeof h.trace) == NULL)
            abort();
        if (memchr(h.clock, 0, sizeof h.clock) == NULL || h.num_lanes > JOINTER_MAX_LANES
            || h.num_spans > JOINTER_MAX_SPANS || h.data_offset < JOINTER_TFILE_HEADER_BYTES)
            abort();
        if (!(h.flags & JOINTER_TFILE_COMPLETE) && size >= h.data_offset
            && h.records != (size - h.data_offset) / JOINTER_TFILE_RECORD_BYTES)
            abort();
        jointer_tfile_reader rd;
        uint64_t items = size >= h.data_offset ? (size - h.data_offset) / JOINTER_TFILE_RECORD_BYTES : 0;
        jointer_tfile_reader_init(&rd);
        for (;;) { /* either encoding: raw records or compact units decoded */
            r = jointer_tfile_read_records(f, &h, &rd, rec, 16, &n);
            if (r < 0 || n == 0)
                break;
            if (n > 16)
                abort();
            total += n;
        }
        if (rd.items > items || rd.skipped > rd.items
            || total > (h.encoding == JOINTER_TFILE_ENC_COMPACT ? 3u : 1u) * rd.items)
            abort();
    }
    fclose(f);
    return 0;
}
