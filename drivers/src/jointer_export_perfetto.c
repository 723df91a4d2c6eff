// SPDX-License-Identifier: MIT
/*
 * jointer_export_perfetto.c - the Perfetto (Chrome trace event) JSON writer:
 * processes, threads, records as instants, program-monitor calls as
 * slices, counter tracks; streamed event by event.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <string.h>

#include "jointer_export_int.h"

/* ---- Perfetto ------------------------------------------------------------------ */

/* an event, after ",\n" (the first: "\n"); through ob when given */
static void pf_event(jointer_perfetto *p, jointer__obuf *ob, const char *text, size_t n)
{
    const char *sep = p->events != 0 ? ",\n" : "\n";
    if (ob != NULL) {
        jointer__ob_put(ob, sep, strlen(sep));
        jointer__ob_put(ob, text, n);
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
    n = jointer__put_s(line, "{\"name\": \"");
    n += jointer__put_s(line + n, kind);
    n += jointer__put_s(line + n, "\", \"ph\": \"M\", \"pid\": ");
    n += jointer__put_u64(line + n, pid);
    n += jointer__put_s(line + n, ", \"tid\": ");
    n += jointer__put_u64(line + n, tid);
    n += jointer__put_s(line + n, ", \"args\": {\"name\": ");
    n += jointer__put_json(line + n, "", name);
    n += jointer__put_s(line + n, "}}");
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
    size_t n = jointer__put_s(p, ", \"pid\": ");
    n += jointer__put_u64(p + n, pid);
    n += jointer__put_s(p + n, ", \"tid\": ");
    n += jointer__put_u64(p + n, tid);
    return n;
}

/* a record of an exit index: the slice of the innermost open call of its
 * function (frames opened after it dropped), or an "unmatched exit" instant */
static void pf_exit(jointer_perfetto *p, jointer__obuf *ob, const jointer_export_calls *calls, unsigned *depth,
                    unsigned f, const jointer_export_src *s, uint64_t c, const char *ids)
{
    char line[1600];
    size_t n;
    unsigned pos = *depth;
    uint32_t hz = s->h.clock_hz;
    jointer__time t;

    while (pos > 0 && calls->stack[pos - 1].function != f)
        pos--;
    n = jointer__put_s(line, "{\"name\": ");
    if (pos == 0) {
        n += jointer__put_json(line + n, "unmatched exit ", calls->names[f]);
        n += jointer__put_s(line + n, ", \"cat\": \"pm\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
        jointer__time_of(s, c, &t);
        n += jointer__put_time_us(line + n, &t);
        n += jointer__put_s(line + n, ids);
        line[n++] = '}';
    } else {
        uint64_t c0 = calls->stack[pos - 1].cycle;
        n += jointer__put_json(line + n, "", calls->names[f]);
        n += jointer__put_s(line + n, ", \"cat\": \"pm\", \"ph\": \"X\", \"ts\": ");
        jointer__time_of(s, c0, &t);
        n += jointer__put_time_us(line + n, &t);
        n += jointer__put_s(line + n, ", \"dur\": ");
        n += jointer__put_us(line + n, c - c0, hz);
        n += jointer__put_s(line + n, ids);
        n += jointer__put_s(line + n, ", \"args\": {\"cycles\": ");
        n += jointer__put_u64(line + n, c - c0);
        n += jointer__put_s(line + n, "}}");
        *depth = pos - 1;
    }
    pf_event(p, ob, line, n);
}

static void pf_call(jointer_perfetto *p, jointer__obuf *ob, const jointer_export_calls *calls, unsigned *depth,
                    int16_t ro, const jointer_export_src *s, uint64_t c, const char *ids)
{
    if (ro >= 256) {
        pf_exit(p, ob, calls, depth, (unsigned)(ro - 256), s, c, ids);
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

/* ---- spans: slices on their own threads ------------------------------------------- */

typedef struct pf_spans {
    jointer_perfetto *p;
    jointer__obuf *ob;
    unsigned pid, tid;
    uint32_t named;          /* track: trace, the span threads already named */
} pf_spans;

#define SPAN_TRACE_TID 61440u   /* 65536 x tid + this + span: a span's track */
#define SPAN_VALUES    3840u    /* 65536 x tid + span x this + value mod this: a value's track */

static const char *const SPAN_NOTE[] = {"", " (no end)", " (no begin)"};
static const char *const SPAN_WHY[] = {"", "no end in the trace: still open at its last record",
                                       "no begin in the trace: open before its first record"};

/* the thread of a span slice, named on first use (track: value, at each slice: its value) */
static unsigned pf_span_thread(pf_spans *ps, const jointer_export_src *s, const jointer__span_ev *e)
{
    const jointer_tfile_span *d = &s->h.spans[e->span];
    char name[120];
    size_t n;
    unsigned tid;

    if (d->flags & JOINTER_SPAN_TRACK_VALUE) {
        tid = 65536u * ps->tid + e->span * SPAN_VALUES + e->value % SPAN_VALUES;
        n = jointer__put_s(name, d->name);
        name[n++] = ' ';
        name[n + jointer__put_u64(name + n, e->value)] = 0;
    } else {
        tid = 65536u * ps->tid + SPAN_TRACE_TID + e->span;
        if (ps->named & (1u << e->span))
            return tid;
        ps->named |= 1u << e->span;
        n = jointer__put_s(name, s->name);
        n += jointer__put_s(name + n, ": ");
        name[n + jointer__put_s(name + n, d->name)] = 0;
    }
    jointer__ob_flush(ps->ob);
    (void)jointer_perfetto_thread(ps->p, ps->pid, tid, name);
    return tid;
}

static void pf_span(void *ctx, jointer_export_src *s, const jointer__span_ev *e)
{
    pf_spans *ps = (pf_spans *)ctx;
    const jointer_tfile_span *d = &s->h.spans[e->span];
    char line[1200], name[64];
    jointer__time t;
    unsigned tid = pf_span_thread(ps, s, e);
    size_t n;

    n = jointer__put_s(name, d->name);
    name[n + jointer__put_s(name + n, SPAN_NOTE[e->status])] = 0;
    n = jointer__put_s(line, "{\"name\": ");
    n += jointer__put_json(line + n, "", name);
    n += jointer__put_s(line + n, ", \"cat\": \"span\", \"ph\": \"X\", \"ts\": ");
    jointer__time_of(s, e->begin, &t);
    n += jointer__put_time_us(line + n, &t);
    n += jointer__put_s(line + n, ", \"dur\": ");
    n += jointer__put_us(line + n, e->end - e->begin, s->h.clock_hz);
    n += pf_ids(line + n, ps->pid, tid);
    n += jointer__put_s(line + n, ", \"args\": {\"id\": ");
    n += jointer__put_u64(line + n, e->value);
    n += jointer__put_s(line + n, ", \"begin_cycle\": ");
    n += jointer__put_u64(line + n, e->begin);
    n += jointer__put_s(line + n, ", \"end_cycle\": ");
    n += jointer__put_u64(line + n, e->end);
    if (e->status != JOINTER__SPAN_OK) {
        n += jointer__put_s(line + n, ", \"unmatched\": ");
        n += jointer__put_json(line + n, "", SPAN_WHY[e->status]);
    }
    n += jointer__put_s(line + n, "}}");
    pf_event(ps->p, ps->ob, line, n);
}

/* ---- records --------------------------------------------------------------------- */

/* one instant: name, ts, ids, args {data or value, cycle[, host sync]} */
static void pf_instant(jointer_perfetto *p, jointer__obuf *ob, const jointer_export_src *s, const char *name,
                       const char *ids, const jointer_trace_record *rec, uint64_t c)
{
    char line[900];
    jointer__time t;
    size_t n = jointer__put_s(line, "{\"name\": ");

    jointer__time_of(s, c, &t);
    n += jointer__put_json(line + n, "", name);
    n += jointer__put_s(line + n, ", \"cat\": \"record\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
    n += jointer__put_time_us(line + n, &t);
    n += jointer__put_s(line + n, ids);
    n += jointer__put_s(line + n, s->h.num_lanes ? ", \"args\": {\"value\": " : ", \"args\": {\"data\": ");
    n += jointer__put_u64(line + n, jointer__value_of(s, rec->data));
    n += jointer__put_s(line + n, ", \"cycle\": ");
    n += jointer__put_u64(line + n, c);
    n += jointer__put_s(line + n, "}}");
    pf_event(p, ob, line, n);
}

/* a record: one instant (one lane) or one per lane that fired and the sync */
static void pf_record(jointer_perfetto *p, jointer__obuf *ob, const jointer_export_src *s, const char *ids,
                      const jointer_trace_record *rec, uint64_t c)
{
    uint32_t lanes;
    unsigned k;

    if (s->h.num_lanes == 0) {
        pf_instant(p, ob, s, s->name, ids, rec, c);
        return;
    }
    lanes = jointer__lanes_of(s, rec->data);
    for (k = 0; k < s->h.num_lanes; k++)
        if (lanes & (1u << k))
            pf_instant(p, ob, s, s->h.lane_names[k], ids, rec, c);
    if (jointer__sync_of(s, rec->data))
        pf_instant(p, ob, s, "sync", ids, rec, c);
}

int jointer_perfetto_records(jointer_perfetto *p, jointer_export_src *s, unsigned pid, unsigned tid,
                             const jointer_export_calls *calls)
{
    char ids[64];
    jointer__obuf ob;
    jointer_trace_record rec;
    pf_spans ps;
    uint64_t c;
    unsigned depth = 0;
    int16_t role[256];
    int r;

    if (p == NULL || s == NULL || tid > 4096u)
        return -EINVAL;
    r = pf_roles(calls, role);
    if (r < 0)
        return r;
    ob.f = p->out;
    ob.n = 0;
    ps.p = p;
    ps.ob = &ob;
    ps.pid = pid;
    ps.tid = tid;
    ps.named = 0;
    ids[pf_ids(ids, pid, tid)] = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        pf_record(p, &ob, s, ids, &rec, c);
        if (s->h.num_spans)
            jointer__spans_record(s, rec.data, c, pf_span, &ps);
        if (calls != NULL && rec.data < 256u && role[rec.data] >= 0)
            pf_call(p, &ob, calls, &depth, role[rec.data], s, c, ids);
    }
    if (r == 0 && s->h.num_spans)
        jointer__spans_end(s, pf_span, &ps);
    jointer__ob_flush(&ob);
    return r < 0 ? r : (ferror(p->out) ? -EIO : 0);
}

int jointer_perfetto_counter(jointer_perfetto *p, unsigned pid, const char *name, double ts_us, int64_t value)
{
    char line[800], num[40];
    size_t n;

    if (p == NULL || name == NULL || strlen(name) > 100 || !isfinite(ts_us) || ts_us < 0)
        return -EINVAL;
    n = jointer__put_s(line, "{\"name\": ");
    n += jointer__put_json(line + n, "", name);
    n += jointer__put_s(line + n, ", \"cat\": \"watch\", \"ph\": \"C\", \"ts\": ");
    snprintf(num, sizeof num, "%.15g", ts_us);
    n += jointer__put_s(line + n, num);
    n += pf_ids(line + n, pid, 0);
    snprintf(num, sizeof num, ", \"args\": {\"value\": %lld}}", (long long)value);
    n += jointer__put_s(line + n, num);
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
    len = jointer__put_s(line, "\n], \"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": ");
    len += jointer__put_json(line + len, "", generator);
    len += jointer__put_s(line + len, ", \"sources\": [");
    fwrite(line, 1, len, p->out);
    for (k = 0; k < n; k++) {
        if (sources[k] == NULL || strlen(sources[k]) > 250)
            return -EINVAL;
        len = jointer__put_s(line, k ? ", " : "");
        len += jointer__put_json(line + len, "", sources[k]);
        fwrite(line, 1, len, p->out);
    }
    fputs("]}}\n", p->out);
    return jointer__out_status(p->out);
}
