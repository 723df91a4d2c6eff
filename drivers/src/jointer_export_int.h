/* SPDX-License-Identifier: MIT */
/*
 * jointer_export_int.h - what the trace-file converters share inside
 * libjointer (jointer_export.c: the source, CSV and JSON; _fmt.c: number and
 * name formatting and the output buffer; _vcd.c; _perfetto.c). Not installed
 * API: names start with jointer__.
 */
#ifndef JOINTER_EXPORT_INT_H
#define JOINTER_EXPORT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jointer_export.h"

#ifndef EPROTO
#define EPROTO 71
#endif

#define NONE UINT64_MAX

/* the output of a loop: one fwrite per 32 KB (stdio locks each call when
 * the process has threads, as a Python interpreter with numpy does) */
typedef struct jointer__obuf {
    FILE *f;
    size_t n;
    char b[32768];
} jointer__obuf;

/* formatting (jointer_export_fmt.c): each writes at p and returns the bytes written */
size_t jointer__put_u64(char *p, uint64_t v);
size_t jointer__put_s(char *p, const char *s);
size_t jointer__put_us(char *p, uint64_t cycle, uint32_t hz);
size_t jointer__put_json(char *p, const char *prefix, const char *s);
void jointer__vcd_ident(char *dst, size_t size, const char *src, const char *fallback);
void jointer__text_name(char *dst, const char *src);
void jointer__ob_flush(jointer__obuf *o);
void jointer__ob_put(jointer__obuf *o, const char *p, size_t n);
int jointer__out_status(FILE *out);

/* the next record of a source and its cycle (jointer_export.c) */
int jointer__src_next(jointer_export_src *s, jointer_trace_record *rec, uint64_t *cycle);

#endif /* JOINTER_EXPORT_INT_H */
