// SPDX-License-Identifier: MIT
/*
 * jointer_export_vcd.c - trace files to one VCD, record by record: each
 * trace a data variable and a strobe (a trace with lanes: its value and a
 * strobe per lane, and sync), the files merged in time order. Times are
 * cycle x period, on the host's clock for a file with its sync.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <string.h>

#include "jointer_export_int.h"

/* ---- VCD --------------------------------------------------------------------- */

#define VCD_ID_CHARS 94u /* '!' .. '~' */

static void vcd_id(char *dst, unsigned k)
{
    char t[4];
    unsigned n = 0, i;

    k += 1u;
    while (k != 0 && n < 3) {
        unsigned r = (k - 1u) % VCD_ID_CHARS;
        t[n++] = (char)(33u + r);
        k = (k - 1u) / VCD_ID_CHARS;
    }
    for (i = 0; i < n; i++)
        dst[i] = t[n - 1 - i];
    dst[n] = 0;
}

/* the VCD time of a cycle of s (ps) */
static uint64_t vt(const jointer_export_src *s, uint64_t cycle)
{
    int64_t t = (int64_t)(cycle * s->period_ps) + s->offset_ps;
    return t > 0 ? (uint64_t)t : 0u;
}

/* the wires of s after its data: lanes + sync, or the strobe */
static unsigned vcd_wires(const jointer_export_src *s)
{
    return s->h.num_lanes ? s->h.num_lanes + (s->h.sync ? 1u : 0u) : 1u;
}

/* scope names (duplicates get _2, _3...), ids, the period and offset of each source */
static void vcd_names(jointer_export_src *const *src, unsigned n)
{
    unsigned k, j, id = 0;

    for (k = 0; k < n; k++) {
        jointer_export_src *s = src[k];
        unsigned same = 0;
        jointer__vcd_ident(s->scope_mon, sizeof s->scope_mon, s->h.monitor, "monitor");
        jointer__vcd_ident(s->scope_trace, sizeof s->scope_trace, s->name, "trace");
        for (j = 0; j < k; j++) {
            char t[32];
            jointer__vcd_ident(t, sizeof t, src[j]->name, "trace");
            same += strcmp(src[j]->scope_mon, s->scope_mon) == 0 && strcmp(t, s->scope_trace) == 0;
        }
        if (same != 0) { /* n <= 4096 sources: 4 digits at most */
            size_t end = strlen(s->scope_trace);
            s->scope_trace[end] = '_';
            s->scope_trace[end + 1u + jointer__put_u64(s->scope_trace + end + 1u, same)] = 0;
        }
        vcd_id(s->id_data, id++);
        vcd_id(s->id_strobe, s->h.num_lanes ? 0u : id);
        for (j = 0; j < vcd_wires(s); j++)
            vcd_id(s->id_lane[j], id++);
        s->period_ps = s->h.clock_hz != 0 ? (1000000000000ull + s->h.clock_hz / 2u) / s->h.clock_hz : 1000u;
        s->offset_ps = s->synced ? (int64_t)(s->sync_ns * 1000u) - (int64_t)(s->sync_cycle * s->period_ps) : 0;
    }
}

/* the variables of one trace's scope */
static void vcd_vars(FILE *out, const jointer_export_src *s)
{
    char name[JOINTER_TFILE_NAME];
    unsigned k;

    fprintf(out, "$scope module %s $end\n", s->scope_trace);
    if (s->h.num_lanes == 0) {
        fprintf(out, "$var wire 32 %s data $end\n$var wire 1 %s strobe $end\n", s->id_data, s->id_strobe);
    } else {
        fprintf(out, "$var wire %u %s value $end\n", 32u - s->tag_bits, s->id_data);
        for (k = 0; k < s->h.num_lanes; k++) {
            jointer__vcd_ident(name, sizeof name, s->h.lane_names[k], "lane");
            fprintf(out, "$var wire 1 %s %s $end\n", s->id_lane[k], name);
        }
        if (s->h.sync)
            fprintf(out, "$var wire 1 %s sync $end\n", s->id_lane[k]);
    }
    fputs("$upscope $end\n", out);
}

static void vcd_header(FILE *out, jointer_export_src *const *src, unsigned n, const char *version)
{
    unsigned k, j;

    fprintf(out, "$date jointer trace export $end\n$version jointer %s $end\n$comment time = LMIC clock cycle x "
            "period%s;", version != NULL ? version : "",
            n > 0 && src[0]->synced ? " + the host's clock (CLOCK_MONOTONIC) at cycle 0 (its sync)" : "");
    for (k = 0; k < n; k++) {
        if (src[k]->h.clock_hz != 0)
            fprintf(out, "%s %s.%s: %lu Hz, %llu ps", k ? ";" : "", src[k]->scope_mon, src[k]->scope_trace,
                    (unsigned long)src[k]->h.clock_hz, (unsigned long long)src[k]->period_ps);
        else
            fprintf(out, "%s %s.%s: clock unknown, 1 ns per cycle", k ? ";" : "", src[k]->scope_mon,
                    src[k]->scope_trace);
    }
    fputs(" $end\n$timescale 1ps $end\n", out);
    for (k = 0; k < n; k++) { /* one scope per monitor, at its first source */
        for (j = 0; j < k && strcmp(src[j]->scope_mon, src[k]->scope_mon) != 0; j++)
            ;
        if (j < k)
            continue;
        fprintf(out, "$scope module %s $end\n", src[k]->scope_mon);
        for (j = k; j < n; j++)
            if (strcmp(src[j]->scope_mon, src[k]->scope_mon) == 0)
                vcd_vars(out, src[j]);
        fputs("$upscope $end\n", out);
    }
    fputs("$enddefinitions $end\n#0\n$dumpvars\n", out);
    for (k = 0; k < n; k++) {
        fprintf(out, "bx %s\n", src[k]->id_data);
        if (src[k]->h.num_lanes == 0)
            fprintf(out, "0%s\n", src[k]->id_strobe);
        for (j = 0; src[k]->h.num_lanes && j < vcd_wires(src[k]); j++)
            fprintf(out, "0%s\n", src[k]->id_lane[j]);
    }
    fputs("$end\n", out);
}

/* a trace with lanes: its wires to mask (bit num_lanes: sync), the changed ones only */
static size_t vcd_lane_wires(char *line, jointer_export_src *s, uint32_t mask)
{
    uint32_t change = mask ^ s->vmask;
    size_t n = 0;
    unsigned k;

    for (k = 0; k < vcd_wires(s); k++)
        if (change & (1u << k)) {
            line[n++] = (mask & (1u << k)) ? '1' : '0';
            n += jointer__put_s(line + n, s->id_lane[k]);
            line[n++] = '\n';
        }
    s->vmask = mask;
    return n;
}

static int vcd_peek(jointer_export_src *s)
{
    int r;
    if (s->have)
        return 1;
    r = jointer__src_next(s, &s->next, &s->next_cycle);
    s->have = r == 1;
    return r;
}

/* every record of s at time t: data, strobe high; the strobe's fall unless
 * the next record is in the next cycle */
static int vcd_records_at(jointer__obuf *out, jointer_export_src *s, uint64_t t)
{
    static const char *const nib[16] = {"0000", "0001", "0010", "0011", "0100", "0101", "0110", "0111",
                                        "1000", "1001", "1010", "1011", "1100", "1101", "1110", "1111"};
    char line[64 + (JOINTER_MAX_LANES + 1u) * 6u];

    while (s->have && vt(s, s->next_cycle) == t) {
        uint64_t c = s->next_cycle;
        uint32_t v = jointer__value_of(s, s->next.data);
        size_t n = 0;
        int k, r;
        line[n++] = 'b';
        for (k = 28; k >= 0; k -= 4) {
            memcpy(line + n, nib[(v >> k) & 15u], 4);
            n += 4;
        }
        line[n++] = ' ';
        n += jointer__put_s(line + n, s->id_data);
        line[n++] = '\n';
        if (s->h.num_lanes) {
            n += vcd_lane_wires(line + n, s, s->next.data & ((1u << vcd_wires(s)) - 1u));
        } else {
            line[n++] = '1';
            n += jointer__put_s(line + n, s->id_strobe);
            line[n++] = '\n';
        }
        jointer__ob_put(out, line, n);
        s->have = 0;
        if ((r = vcd_peek(s)) < 0)
            return r;
        s->clear_at = s->have && (s->next_cycle == c || s->next_cycle == c + 1u) ? NONE : vt(s, c + 1u);
    }
    return 0;
}

int jointer_export_vcd(FILE *out, jointer_export_src *const *src, unsigned n, const char *version)
{
    jointer__obuf ob;
    uint64_t last = 0;
    unsigned k;
    int r;

    if (out == NULL || src == NULL || n == 0 || n > 4096u)
        return -EINVAL;
    vcd_names(src, n);
    vcd_header(out, src, n, version);
    ob.f = out;
    ob.n = 0;
    for (k = 0; k < n; k++)
        if ((r = vcd_peek(src[k])) < 0)
            return r;
    for (;;) {
        uint64_t t = NONE;
        char line[32];
        size_t len;
        for (k = 0; k < n; k++) {
            uint64_t tk = src[k]->have ? vt(src[k], src[k]->next_cycle) : NONE;
            t = tk < t ? tk : t;
            t = src[k]->clear_at < t ? src[k]->clear_at : t;
        }
        if (t == NONE)
            break;
        if (t != last) {
            line[0] = '#';
            len = 1 + jointer__put_u64(line + 1, t);
            line[len++] = '\n';
            jointer__ob_put(&ob, line, len);
            last = t;
        }
        for (k = 0; k < n; k++) {
            jointer_export_src *s = src[k];
            if (s->clear_at == t) {
                char wires[(JOINTER_MAX_LANES + 1u) * 6u];
                if (s->h.num_lanes) {
                    jointer__ob_put(&ob, wires, vcd_lane_wires(wires, s, 0));
                } else {
                    line[0] = '0';
                    len = 1 + jointer__put_s(line + 1, s->id_strobe);
                    line[len++] = '\n';
                    jointer__ob_put(&ob, line, len);
                }
                s->clear_at = NONE;
            }
            if ((r = vcd_records_at(&ob, s, t)) < 0) {
                jointer__ob_flush(&ob);
                return r;
            }
        }
    }
    jointer__ob_flush(&ob);
    return jointer__out_status(out);
}
