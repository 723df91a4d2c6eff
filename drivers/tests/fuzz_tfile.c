/*
 * fuzz_tfile.c - libFuzzer harness of the trace-file reader
 * (jointer_tfile_read_header, jointer_tfile_read): any byte string as a trace
 * file. The reader must return an error or records, never read out of
 * bounds or loop (ASan, UBSan), and what it returns must be consistent: the
 * header's strings NUL terminated, at most the records the file holds,
 * records = (file size - header) / 8 when the header does not say COMPLETE.
 * make fuzz-smoke runs it for FUZZ_SMOKE_TIME seconds (with fuzz_api).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jointer_trace_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jointer_tfile_header h;
    jointer_trace_record rec[16];
    uint64_t total = 0;
    uint32_t n;
    FILE *f = fmemopen((void *)(uintptr_t)data, size ? size : 1, "rb");
    int r;

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
        if (!(h.flags & JOINTER_TFILE_COMPLETE) && size >= JOINTER_TFILE_HEADER_BYTES
            && h.records != (size - JOINTER_TFILE_HEADER_BYTES) / JOINTER_TFILE_RECORD_BYTES)
            abort();
        for (;;) {
            r = jointer_tfile_read(f, rec, 16, &n);
            if (r < 0 || n == 0)
                break;
            if (n > 16)
                abort();
            total += n;
        }
        if (size >= JOINTER_TFILE_HEADER_BYTES
            && total > (size - JOINTER_TFILE_HEADER_BYTES) / JOINTER_TFILE_RECORD_BYTES)
            abort();
    }
    fclose(f);
    return 0;
}
