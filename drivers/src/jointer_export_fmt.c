// SPDX-License-Identifier: MIT
/*
 * jointer_export_fmt.c - the converters' formatting: numbers, microseconds,
 * JSON strings and VCD identifiers written by hand (no printf per record),
 * and the 32 KB output buffer of a conversion loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <string.h>

#include "jointer_export_int.h"

/* ---- formatting ----------------------------------------------------------- */

size_t jointer__put_u64(char *p, uint64_t v)
{
    char t[20];
    size_t n = 0, i;

    do {
        t[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    for (i = 0; i < n; i++)
        p[i] = t[n - 1 - i];
    return n;
}

size_t jointer__put_s(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return n;
}

/* cycles in microseconds, exact to the picosecond (rounded), trailing zeros
 * dropped; hz 0: 1 ns per cycle */
size_t jointer__put_us(char *p, uint64_t cycle, uint32_t hz)
{
    uint64_t whole, frac;
    size_t n;

    if (hz == 0) {
        whole = cycle / 1000u;
        frac = (cycle % 1000u) * 1000u;
    } else {
        uint64_t rem = cycle % hz, r2 = rem * 1000000u % hz;
        whole = cycle / hz * 1000000u + rem * 1000000u / hz;
        frac = (r2 * 1000000u + hz / 2u) / hz;
        if (frac == 1000000u) {
            whole++;
            frac = 0;
        }
    }
    n = jointer__put_u64(p, whole);
    if (frac != 0) { /* six digits, trailing zeros dropped */
        char dig[6];
        size_t k, last = 6;
        for (k = 6; k > 0; k--) {
            dig[k - 1] = (char)('0' + (int)(frac % 10u));
            frac /= 10u;
        }
        while (dig[last - 1] == '0')
            last--;
        p[n++] = '.';
        memcpy(p + n, dig, last);
        n += last;
    }
    return n;
}

/* ---- time ----------------------------------------------------------------- */

#define PS_PER_S 1000000000000ull

/* cycles as (seconds, picoseconds), rounded to the picosecond; hz 0: 1 ns per cycle */
static void cycles_time(uint64_t cycles, uint32_t hz, jointer__time *t)
{
    if (hz == 0) {
        t->sec = cycles / 1000000000u;
        t->ps = cycles % 1000000000u * 1000u;
        return;
    }
    {
        uint64_t rem = cycles % hz, us = rem * 1000000u / hz, r2 = rem * 1000000u % hz;
        t->sec = cycles / hz;
        t->ps = us * 1000000u + (r2 * 1000000u + hz / 2u) / hz;
        if (t->ps >= PS_PER_S) {
            t->sec++;
            t->ps -= PS_PER_S;
        }
    }
}

void jointer__time_of(const jointer_export_src *s, uint64_t cycle, jointer__time *t)
{
    jointer__time base, d;

    if (!s->synced) {
        cycles_time(cycle, s->h.clock_hz, t);
        return;
    }
    base.sec = s->sync_ns / 1000000000u;
    base.ps = s->sync_ns % 1000000000u * 1000u;
    if (cycle >= s->sync_cycle) {
        cycles_time(cycle - s->sync_cycle, s->h.clock_hz, &d);
        t->sec = base.sec + d.sec;
        t->ps = base.ps + d.ps;
        if (t->ps >= PS_PER_S) {
            t->sec++;
            t->ps -= PS_PER_S;
        }
        return;
    }
    cycles_time(s->sync_cycle - cycle, s->h.clock_hz, &d);
    if (d.sec > base.sec || (d.sec == base.sec && d.ps > base.ps)) { /* before the host's time 0 */
        t->sec = t->ps = 0;
        return;
    }
    t->sec = base.sec - d.sec - (base.ps < d.ps ? 1u : 0u);
    t->ps = base.ps < d.ps ? base.ps + PS_PER_S - d.ps : base.ps - d.ps;
}

/* whole, then up to `digits` fraction digits of frac (< 10^digits), trailing zeros dropped */
static size_t put_fixed(char *p, uint64_t whole, uint64_t frac, unsigned digits)
{
    char dig[12];
    size_t n = jointer__put_u64(p, whole), k, last = digits;

    if (frac == 0)
        return n;
    for (k = digits; k > 0; k--) {
        dig[k - 1] = (char)('0' + (int)(frac % 10u));
        frac /= 10u;
    }
    while (dig[last - 1] == '0')
        last--;
    p[n++] = '.';
    memcpy(p + n, dig, last);
    return n + last;
}

size_t jointer__put_time_us(char *p, const jointer__time *t)
{
    return put_fixed(p, t->sec * 1000000u + t->ps / 1000000u, t->ps % 1000000u, 6);
}

size_t jointer__put_time_s(char *p, const jointer__time *t)
{
    return put_fixed(p, t->sec, t->ps, 12);
}

size_t jointer__put_cycles_s(char *p, uint64_t cycles, uint32_t hz)
{
    jointer__time t;
    cycles_time(cycles, hz, &t);
    return jointer__put_time_s(p, &t);
}

/* a JSON string: quotes, backslashes, control and non-ASCII bytes escaped
 * (the output is ASCII whatever the file's names hold); 6 bytes per input
 * byte + 2 at most */
size_t jointer__put_json(char *p, const char *prefix, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    int pass;

    p[n++] = '"';
    for (pass = 0; pass < 2; pass++) {
        const unsigned char *c = (const unsigned char *)(pass == 0 ? prefix : s);
        for (; c != NULL && *c != 0; c++) {
            if (*c == '"' || *c == '\\') {
                p[n++] = '\\';
                p[n++] = (char)*c;
            } else if (*c < 0x20u || *c >= 0x7Fu) {
                n += jointer__put_s(p + n, "\\u00");
                p[n++] = hex[*c >> 4];
                p[n++] = hex[*c & 15u];
            } else {
                p[n++] = (char)*c;
            }
        }
    }
    p[n++] = '"';
    return n;
}

/* a name as a VCD identifier: [A-Za-z0-9_] kept, anything else '_' */
void jointer__vcd_ident(char *dst, size_t size, const char *src, const char *fallback)
{
    size_t i = 0;

    if (src == NULL || *src == 0)
        src = fallback;
    for (; src[i] != 0 && i + 1 < size; i++) {
        unsigned char c = (unsigned char)src[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        dst[i] = ok ? (char)c : '_';
    }
    dst[i] = 0;
}

/* a name in a CSV comment: control bytes as '?' */
void jointer__text_name(char *dst, const char *src)
{
    size_t i;
    for (i = 0; i < 31 && src[i] != 0; i++)
        dst[i] = ((unsigned char)src[i] < 0x20u || src[i] == 0x7F) ? '?' : src[i];
    dst[i] = 0;
}


void jointer__ob_flush(jointer__obuf *o)
{
    if (o->n != 0)
        (void)fwrite(o->b, 1, o->n, o->f); /* an error stays in ferror(f) */
    o->n = 0;
}

/* n < sizeof o->b */
void jointer__ob_put(jointer__obuf *o, const char *p, size_t n)
{
    if (o->n + n > sizeof o->b)
        jointer__ob_flush(o);
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

int jointer__out_status(FILE *out)
{
    if (fflush(out) != 0 || ferror(out))
        return errno != 0 ? -errno : -EIO;
    return 0;
}
