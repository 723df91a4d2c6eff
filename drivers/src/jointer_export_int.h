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

/* a time: whole seconds and picoseconds (< 10^12) */
typedef struct jointer__time {
    uint64_t sec, ps;
} jointer__time;

/* the time of a cycle of s (jointer_export.h, "Time"), and its text: in
 * microseconds (Perfetto's ts) or seconds, exact to the picosecond, trailing
 * zeros dropped */
void jointer__time_of(const jointer_export_src *s, uint64_t cycle, jointer__time *t);
size_t jointer__put_time_us(char *p, const jointer__time *t);
size_t jointer__put_time_s(char *p, const jointer__time *t);
/* a duration of cycles in seconds */
size_t jointer__put_cycles_s(char *p, uint64_t cycles, uint32_t hz);

/* a record of a trace with lanes: its event value, the lanes that fired, the sync bit */
static inline uint32_t jointer__value_of(const jointer_export_src *s, uint32_t data)
{
    return s->tag_bits != 0u ? data >> s->tag_bits : data;
}

static inline uint32_t jointer__lanes_of(const jointer_export_src *s, uint32_t data)
{
    return data & ((1u << s->h.num_lanes) - 1u);
}

static inline int jointer__sync_of(const jointer_export_src *s, uint32_t data)
{
    return s->h.sync != 0u && ((data >> s->h.num_lanes) & 1u) != 0u;
}

/* spans (jointer_export_spans.c): each record in turn, then the end; fn gets
 * every span closed (its status: JOINTER__SPAN_*) */
enum { JOINTER__SPAN_OK, JOINTER__SPAN_NO_END, JOINTER__SPAN_NO_BEGIN };

typedef struct jointer__span_ev {
    unsigned span;            /* index into the header's spans */
    uint32_t value;
    uint64_t begin, end;      /* cycles */
    int status;
} jointer__span_ev;

typedef void (*jointer__span_fn)(void *ctx, jointer_export_src *s, const jointer__span_ev *e);

void jointer__spans_reset(jointer_export_src *s);
void jointer__spans_record(jointer_export_src *s, uint32_t data, uint64_t cycle, jointer__span_fn fn, void *ctx);
void jointer__spans_end(jointer_export_src *s, jointer__span_fn fn, void *ctx);

#endif /* JOINTER_EXPORT_INT_H */
