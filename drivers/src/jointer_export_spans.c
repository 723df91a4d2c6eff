// SPDX-License-Identifier: MIT
/*
 * jointer_export_spans.c - a trace's records turned into spans (its
 * header's spans, jointer_span_desc): the one rule of the Perfetto slices
 * and the spans CSV (jointer_export.h).
 *
 * Per record, per span: its end first, then its begin (a record of a cycle
 * in which one task ended and the next began, as a start/done interfacer
 * gives them: done, then start).
 * - A span of lanes: the end lane closes an open span (JOINTER_SPAN_BY_ID:
 *   the last opened one of the same event value; else the innermost one),
 *   the begin lane opens one with the record's value.
 * - A level span (JOINTER_SPAN_LEVEL): a record whose value is not zero
 *   opens one (closing the open one first: done, then start), a zero closes it.
 * An end with nothing to close is a span "no begin" from the trace's first
 * record; spans open at the end of the trace are "no end" up to its last
 * record; beyond JOINTER_EXPORT_OPEN open spans the oldest is closed as "no
 * end" at once. Nothing is dropped without a row or a slice that says so.
 */
#include <string.h>

#include "jointer_export_int.h"

void jointer__spans_reset(jointer_export_src *s)
{
    s->nopen = 0;
    s->seen = 0;
    s->first_cycle = s->last_cycle = 0;
}

static void emit(jointer_export_src *s, jointer__span_fn fn, void *ctx, const jointer_export_open_span *o,
                 uint64_t end, int status)
{
    jointer__span_ev e;
    e.span = o->span;
    e.value = o->value;
    e.begin = o->cycle;
    e.end = end;
    e.status = status;
    fn(ctx, s, &e);
}

/* the open span k leaves the table */
static void drop(jointer_export_src *s, unsigned k)
{
    memmove(&s->open[k], &s->open[k + 1u], (s->nopen - k - 1u) * sizeof s->open[0]);
    s->nopen--;
}

static void open_span(jointer_export_src *s, unsigned sp, uint32_t value, uint64_t cycle, jointer__span_fn fn,
                      void *ctx)
{
    if (s->nopen == JOINTER_EXPORT_OPEN) { /* full: the oldest goes, said so */
        emit(s, fn, ctx, &s->open[0], cycle, JOINTER__SPAN_NO_END);
        drop(s, 0);
    }
    s->open[s->nopen].cycle = cycle;
    s->open[s->nopen].value = value;
    s->open[s->nopen].span = (uint8_t)sp;
    s->nopen++;
}

/* close the span sp of value (by id) or the innermost one; none: "no begin" */
static void close_span(jointer_export_src *s, unsigned sp, uint32_t value, uint64_t cycle, jointer__span_fn fn,
                       void *ctx)
{
    int by_id = (s->h.spans[sp].flags & JOINTER_SPAN_BY_ID) != 0;
    unsigned k = s->nopen;

    while (k > 0 && !(s->open[k - 1u].span == sp && (!by_id || s->open[k - 1u].value == value)))
        k--;
    if (k == 0) {
        jointer_export_open_span o;
        o.cycle = s->first_cycle;
        o.value = value;
        o.span = (uint8_t)sp;
        emit(s, fn, ctx, &o, cycle, JOINTER__SPAN_NO_BEGIN);
        return;
    }
    emit(s, fn, ctx, &s->open[k - 1u], cycle, JOINTER__SPAN_OK);
    drop(s, k - 1u);
}

/* the open span of a level span (the innermost), or -1 */
static int level_open(const jointer_export_src *s, unsigned sp)
{
    unsigned k = s->nopen;
    while (k > 0 && s->open[k - 1u].span != sp)
        k--;
    return (int)k - 1;
}

void jointer__spans_record(jointer_export_src *s, uint32_t data, uint64_t cycle, jointer__span_fn fn, void *ctx)
{
    uint32_t value = jointer__value_of(s, data), lanes = s->h.num_lanes ? jointer__lanes_of(s, data) : 1u;
    unsigned sp;

    if (!s->seen)
        s->first_cycle = cycle;
    s->seen = 1;
    s->last_cycle = cycle;
    for (sp = 0; sp < s->h.num_spans && sp < JOINTER_MAX_SPANS; sp++) {
        const jointer_tfile_span *d = &s->h.spans[sp];
        if (d->begin == JOINTER_SPAN_LEVEL) {
            int k = level_open(s, sp);
            if (lanes == 0u)
                continue;            /* a sync record alone: no event value */
            if (k >= 0)
                close_span(s, sp, s->open[k].value, cycle, fn, ctx);
            else if (value == 0u)
                close_span(s, sp, value, cycle, fn, ctx);   /* an end without a begin */
            if (value != 0u)
                open_span(s, sp, value, cycle, fn, ctx);
            continue;
        }
        if (lanes & (1u << d->end))
            close_span(s, sp, value, cycle, fn, ctx);
        if (lanes & (1u << d->begin))
            open_span(s, sp, value, cycle, fn, ctx);
    }
}

void jointer__spans_end(jointer_export_src *s, jointer__span_fn fn, void *ctx)
{
    unsigned k;
    for (k = 0; k < s->nopen; k++)
        emit(s, fn, ctx, &s->open[k], s->last_cycle, JOINTER__SPAN_NO_END);
    s->nopen = 0;
}
