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
                    unsigned f, uint64_t c, uint32_t hz, const char *ids)
{
    char line[1600];
    size_t n;
    unsigned pos = *depth;

    while (pos > 0 && calls->stack[pos - 1].function != f)
        pos--;
    n = jointer__put_s(line, "{\"name\": ");
    if (pos == 0) {
        n += jointer__put_json(line + n, "unmatched exit ", calls->names[f]);
        n += jointer__put_s(line + n, ", \"cat\": \"pm\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
        n += jointer__put_us(line + n, c, hz);
        n += jointer__put_s(line + n, ids);
        line[n++] = '}';
    } else {
        uint64_t c0 = calls->stack[pos - 1].cycle;
        n += jointer__put_json(line + n, "", calls->names[f]);
        n += jointer__put_s(line + n, ", \"cat\": \"pm\", \"ph\": \"X\", \"ts\": ");
        n += jointer__put_us(line + n, c0, hz);
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
    jointer__obuf ob;
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
    hn = jointer__put_s(head, "{\"name\": ");
    hn += jointer__put_json(head + hn, "", s->name);
    hn += jointer__put_s(head + hn, ", \"cat\": \"record\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
    ids[pf_ids(ids, pid, tid)] = 0;
    while ((r = jointer__src_next(s, &rec, &c)) == 1) {
        memcpy(line, head, hn);
        n = hn + jointer__put_us(line + hn, c, s->h.clock_hz);
        n += jointer__put_s(line + n, ids);
        n += jointer__put_s(line + n, ", \"args\": {\"data\": ");
        n += jointer__put_u64(line + n, rec.data);
        n += jointer__put_s(line + n, ", \"cycle\": ");
        n += jointer__put_u64(line + n, c);
        n += jointer__put_s(line + n, "}}");
        pf_event(p, &ob, line, n);
        if (calls != NULL && rec.data < 256u && role[rec.data] >= 0)
            pf_call(p, &ob, calls, &depth, role[rec.data], c, s->h.clock_hz, ids);
    }
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
