// SPDX-License-Identifier: MIT
/*
 * cosim_tfile.c - the trace-file helper of cosim_app.h (cosim_read_back), in
 * a file of its own: a scenario whose app writes a trace file lists it in
 * app_sources with drivers/src/jointer_trace_file.c; the other apps link
 * neither.
 */
#include "cosim_app.h"

int cosim_read_back(FILE *f, jointer_tfile_header *h, jointer_trace_record *back, uint32_t max,
                    uint32_t *n)
{
    rewind(f);
    COSIM_TRY(jointer_tfile_read_header(f, h));
    COSIM_TRY(jointer_tfile_read(f, back, max, n));
    fclose(f);
    platform_report("file.records", *n);
    platform_report("file.lost", h->lost);
    platform_report("file.complete", h->flags & JOINTER_TFILE_COMPLETE);
    return 0;
}
