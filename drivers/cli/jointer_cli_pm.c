// SPDX-License-Identifier: MIT
/*
 * jointer_cli_pm.c - the program monitor commands of the jointer CLI:
 *
 *   jointer pm SNIFFER SYMFILE      program the address table from a symbol file
 *   jointer pm SNIFFER --off        disable every address (enable mask 0)
 *   jointer profile SYMFILE [TRACE] [--input FILE.csv|FILE.jtr] [--period-ns P] [--format table|csv]
 *
 * Symbol file: one function per line, `NAME ENTRY [EXIT]` (addresses in
 * hex with 0x, or decimal), or a line of `nm` output `ADDR TYPE NAME` (hex
 * ADDR, one-letter TYPE: an entry-only function); `#` starts a comment.
 * Table indices in file order: a function's entry, then its exit. `pm`
 * writes them and enables them; `profile` maps the trace's indices back with
 * the same file and prints per-function call counts and cycles
 * (jointer_pm_profile: nesting, recursion, unmatched entries/exits).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jointer_cli.h"
#include "jointer_export.h"

#define PM_MAX_FUNCTIONS 32u
#define PM_NAME_MAX 64u

typedef struct pm_symbols {
    char name[PM_MAX_FUNCTIONS][PM_NAME_MAX];
    uint32_t entry[PM_MAX_FUNCTIONS], exit[PM_MAX_FUNCTIONS];
    int has_exit[PM_MAX_FUNCTIONS];
    jointer_pm_function fn[PM_MAX_FUNCTIONS];
    uint32_t addr[JOINTER_PM_MAX_ADDRESSES];
    unsigned nfn, naddr;
} pm_symbols;

static int pm_parse_addr(const char *s, int hex, uint32_t *v)
{
    char *end;
    unsigned long long x;
    if (s[0] == '-' || s[0] == '+' || s[0] == '\0')
        return -1;
    errno = 0;
    x = strtoull(s, &end, hex ? 16 : 0);
    if (errno != 0 || *end != '\0' || x > 0xFFFFFFFFull)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

/* 0, or prints "FILE:LINE: ..." and returns -1 */
static int pm_read_symbols(const char *path, unsigned max_addr, pm_symbols *ps)
{
    char line[512];
    unsigned lineno = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "jointer: cannot open symbol file %s: %s\n", path, strerror(errno));
        return -1;
    }
    memset(ps, 0, sizeof *ps);
    while (fgets(line, sizeof line, f) != NULL) {
        char *tok[4], *p = strchr(line, '#'), *save = NULL;
        unsigned n = 0, need;
        const char *name;
        int nm;
        lineno++;
        if (p != NULL)
            *p = '\0';
        for (p = strtok_r(line, " \t\r\n", &save); p != NULL && n < 4; p = strtok_r(NULL, " \t\r\n", &save))
            tok[n++] = p;
        if (n == 0)
            continue;
        nm = n == 3 && strlen(tok[1]) == 1 && ((tok[1][0] >= 'a' && tok[1][0] <= 'z') || (tok[1][0] >= 'A' && tok[1][0] <= 'Z'));
        if (n < 2 || n > 3) {
            fprintf(stderr, "%s:%u: expected NAME ENTRY [EXIT] or nm's ADDR TYPE NAME\n", path, lineno);
            goto bad;
        }
        name = nm ? tok[2] : tok[0];
        need = (nm || n == 2) ? 1u : 2u;
        if (ps->nfn == PM_MAX_FUNCTIONS || ps->naddr + need > max_addr) {
            fprintf(stderr, "%s:%u: too many addresses (the table holds %u)\n", path, lineno, max_addr);
            goto bad;
        }
        if (strlen(name) >= PM_NAME_MAX) {
            fprintf(stderr, "%s:%u: function name longer than %u characters\n", path, lineno, PM_NAME_MAX - 1);
            goto bad;
        }
        if (nm ? pm_parse_addr(tok[0], 1, &ps->entry[ps->nfn]) != 0
               : pm_parse_addr(tok[1], 0, &ps->entry[ps->nfn]) != 0
                     || (n == 3 && pm_parse_addr(tok[2], 0, &ps->exit[ps->nfn]) != 0)) {
            fprintf(stderr, "%s:%u: bad address (expected 0x... or decimal, 32 bits)\n", path, lineno);
            goto bad;
        }
        strcpy(ps->name[ps->nfn], name);
        ps->has_exit[ps->nfn] = need == 2;
        ps->fn[ps->nfn].entry = (uint8_t)ps->naddr;
        ps->addr[ps->naddr++] = ps->entry[ps->nfn];
        ps->fn[ps->nfn].exit = JOINTER_PM_NO_INDEX;
        if (need == 2) {
            ps->fn[ps->nfn].exit = (uint8_t)ps->naddr;
            ps->addr[ps->naddr++] = ps->exit[ps->nfn];
        }
        ps->nfn++;
    }
    fclose(f);
    if (ps->nfn == 0) {
        fprintf(stderr, "%s: no function (expected lines NAME ENTRY [EXIT])\n", path);
        return -1;
    }
    return 0;
bad:
    fclose(f);
    return -1;
}

/* LMIC and index of a sniffer named `name`, or -1 */
static int pm_find_sniffer(const char *name, unsigned *lmic, unsigned *index)
{
    unsigned s;
    for (s = 0; s < CFG->num_sniffers; s++)
        if (strcmp(CFG->sniffers[s].name, name) == 0) {
            *lmic = CFG->sniffers[s].lmic;
            *index = CFG->sniffers[s].index;
            return (int)s;
        }
    return -1;
}

int cli_cmd_pm(int argc, char **argv)
{
    static pm_symbols ps;
    const jointer_sniffer_desc *sd;
    unsigned lmic, index, i;
    int s, r;

    if (argc != 2) {
        fprintf(stderr, "usage: jointer pm SNIFFER SYMFILE | jointer pm SNIFFER --off\n");
        return 2;
    }
    s = pm_find_sniffer(argv[0], &lmic, &index);
    if (s < 0 || CFG->sniffers[s].pm_addresses == 0) {
        fprintf(stderr, "jointer: no program monitor sniffer \"%s\" in %s (see jointer info)\n", argv[0], CFG->name);
        return 2;
    }
    sd = &CFG->sniffers[s];
    if (strcmp(argv[1], "--off") == 0) {
        if (cli_open_device() < 0)
            return 1;
        r = jointer_pm_enable(&cli_dev, lmic, index, 0u);
        if (r < 0)
            return cli_fail(r, "pm");
        printf("pm %s: every address disabled\n", sd->name);
        return 0;
    }
    if (pm_read_symbols(argv[1], sd->pm_addresses, &ps) != 0)
        return 2;
    for (i = 0; i < ps.naddr; i++)
        if (sd->pm_pc_width < 32u && (ps.addr[i] >> sd->pm_pc_width) != 0u) {
            fprintf(stderr, "jointer: address 0x%08" PRIX32 " does not fit the %u-bit PC of %s\n", ps.addr[i],
                    (unsigned)sd->pm_pc_width, sd->name);
            return 2;
        }
    if (cli_open_device() < 0)
        return 1;
    r = jointer_pm_program(&cli_dev, lmic, index, ps.addr, ps.naddr,
                           ps.naddr == 32u ? 0xFFFFFFFFu : (1u << ps.naddr) - 1u);
    if (r < 0)
        return cli_fail(r, "pm");
    printf("pm %s: %u addresses of %u programmed and enabled\n", sd->name, ps.naddr, (unsigned)sd->pm_addresses);
    for (i = 0; i < ps.nfn; i++) {
        printf("  %2u  0x%08" PRIX32 "  %s entry\n", (unsigned)ps.fn[i].entry, ps.entry[i], ps.name[i]);
        if (ps.has_exit[i])
            printf("  %2u  0x%08" PRIX32 "  %s exit\n", (unsigned)ps.fn[i].exit, ps.exit[i], ps.name[i]);
    }
    return 0;
}

/* the records of a trace file (`jointer trace --follow -o`), read by libjointer's converter source */
static int pm_read_tfile(const char *path, FILE *f, jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    static jointer_export_src src;
    static jointer_trace_record buf[1024];
    char msg[200];
    uint32_t got;
    int r = jointer_export_open(&src, f, NULL);

    *n = 0;
    while (r == 0 && (r = jointer_export_read(&src, buf, 1024u, &got)) == 0 && got != 0) {
        if (got > max - *n) {
            fprintf(stderr, "%s: more than %" PRIu32 " records\n", path, max);
            return -1;
        }
        memcpy(rec + *n, buf, got * sizeof buf[0]);
        *n += got;
    }
    if (r < 0) {
        jointer_export_message(&src, r, msg, sizeof msg);
        fprintf(stderr, "jointer: %s: %s\n", path, msg);
        return -1;
    }
    return 0;
}

/* records of trace `name` (NULL: any) from `jointer trace --format csv` output
 * (trace,index,timestamp,data), `jointer trace --convert` CSV (# comments,
 * index,timestamp,data,cycle,time_s; before times: index,timestamp,data) or
 * a trace file itself */
static int pm_read_csv(const char *path, const char *name, jointer_trace_record *rec, uint32_t max, uint32_t *n)
{
    char line[256];
    unsigned lineno = 0, cols = 4, first = 1; /* first: the column of the timestamp */
    FILE *f = NULL;
    int e = jointer_export_fopen(path, &f);
    if (e < 0) {
        fprintf(stderr, "jointer: cannot open %s: %s\n", path, jointer_export_open_error(e));
        return -1;
    }
    if (fread(line, 1, 8, f) == 8 && memcmp(line, JOINTER_TFILE_MAGIC, 8) == 0) {
        e = pm_read_tfile(path, f, rec, max, n);
        fclose(f);
        return e;
    }
    rewind(f);
    *n = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *tok[5], *p, *save = NULL;
        unsigned k = 0;
        uint32_t ts, data;
        lineno++;
        if (line[0] == '#')
            continue;
        if (strncmp(line, "trace,", 6) == 0 || strncmp(line, "index,timestamp,data", 20) == 0) {
            cols = line[0] == 't' ? 4u : strncmp(line, "index,timestamp,data,cycle,time_s", 33) == 0 ? 5u : 3u;
            first = line[0] == 't' ? 2u : 1u;
            continue;
        }
        for (p = strtok_r(line, ",\r\n", &save); p != NULL && k < 5; p = strtok_r(NULL, ",\r\n", &save))
            tok[k++] = p;
        if (k == 0)
            continue;
        if (k != cols || cli_parse_u32(tok[first], &ts) != 0 || cli_parse_u32(tok[first + 1u], &data) != 0) {
            fprintf(stderr, "%s:%u: expected trace,index,timestamp,data (jointer trace --format csv) or "
                            "index,timestamp,data,cycle,time_s (jointer trace --convert)\n", path, lineno);
            fclose(f);
            return -1;
        }
        if (cols == 4 && name != NULL && strcmp(tok[0], name) != 0)
            continue;
        if (*n == max) {
            fprintf(stderr, "%s: more than %" PRIu32 " records\n", path, max);
            fclose(f);
            return -1;
        }
        rec[*n].timestamp = ts;
        rec[*n].data = data;
        (*n)++;
    }
    fclose(f);
    return 0;
}

int cli_cmd_profile(int argc, char **argv)
{
    static pm_symbols ps;
    static jointer_trace_record rec[65536];
    static jointer_pm_frame stack[1024];
    static jointer_pm_stats st[PM_MAX_FUNCTIONS];
    const char *symfile = NULL, *input = NULL, *tname = NULL;
    double period = 0.0;
    enum fmt f = FMT_TABLE;
    uint32_t n = 0;
    unsigned i;
    int t = -1, r;

    for (i = 0; i < (unsigned)argc; i++) {
        if (strcmp(argv[i], "--input") == 0 && i + 1 < (unsigned)argc) {
            input = argv[++i];
        } else if (strcmp(argv[i], "--period-ns") == 0 && i + 1 < (unsigned)argc) {
            char *end;
            period = strtod(argv[++i], &end);
            if (*end != '\0' || end == argv[i] || !(period > 0.0) || period > 1e9) {
                fprintf(stderr, "jointer: --period-ns takes a clock period in ns (> 0)\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--format") == 0 && i + 1 < (unsigned)argc) {
            if (cli_parse_format(argv[++i], &f) != 0 || f == FMT_JSON) {
                fprintf(stderr, "jointer: --format table|csv\n");
                return 2;
            }
        } else if (symfile == NULL) {
            symfile = argv[i];
        } else if (tname == NULL) {
            tname = argv[i];
        } else {
            symfile = NULL;
            break;
        }
    }
    if (symfile == NULL) {
        fprintf(stderr, "usage: jointer profile SYMFILE [TRACE] [--input FILE.csv|FILE.jtr] [--period-ns P] [--format table|csv]\n");
        return 2;
    }
    if (pm_read_symbols(symfile, JOINTER_PM_MAX_ADDRESSES, &ps) != 0)
        return 2;
    if (input != NULL) {
        if (pm_read_csv(input, tname, rec, sizeof rec / sizeof rec[0], &n) != 0)
            return 2;
    } else {
        if (tname != NULL)
            t = jointer_find_trace(CFG, tname);
        else
            for (i = 0; i < CFG->num_traces && t < 0; i++)
                if (CFG->sniffers[CFG->traces[i].sniffer].pm_addresses != 0)
                    t = (int)i;
        if (t < 0) {
            fprintf(stderr, "jointer: no trace%s%s%s of a program monitor in %s (see jointer info)\n",
                    tname ? " \"" : "", tname ? tname : "", tname ? "\"" : "", CFG->name);
            return 2;
        }
        tname = CFG->traces[t].name;
        if (cli_open_device() < 0)
            return 1;
        r = jointer_trace_read(&cli_dev, (unsigned)t, rec, sizeof rec / sizeof rec[0], &n);
        if (r < 0)
            return cli_fail(r, "profile");
    }
    r = jointer_pm_profile(rec, n, ps.fn, ps.nfn, stack, sizeof stack / sizeof stack[0], st);
    if (r < 0)
        return cli_fail(r, "profile");
    if (f == FMT_CSV) {
        printf("function,calls,total_cycles,min_cycles,max_cycles,unmatched_entries,unmatched_exits%s\n",
               period > 0.0 ? ",total_ns,min_ns,max_ns" : "");
        for (i = 0; i < ps.nfn; i++) {
            printf("%s,%" PRIu32 ",%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32, ps.name[i], st[i].calls,
                   st[i].total, st[i].min, st[i].max, st[i].unmatched_entries, st[i].unmatched_exits);
            if (period > 0.0)
                printf(",%.1f,%.1f,%.1f", (double)st[i].total * period, (double)st[i].min * period,
                       (double)st[i].max * period);
            printf("\n");
        }
        return 0;
    }
    printf("profile of %s: %" PRIu32 " records, %u functions%s\n", tname ? tname : input, n, ps.nfn,
           period > 0.0 ? "" : " (cycles; --period-ns P adds times)");
    printf("  %-24s %8s %14s %12s %12s %12s  %s\n", "function", "calls", "total", "min", "max", "avg",
           "unmatched entries/exits");
    for (i = 0; i < ps.nfn; i++) {
        const jointer_pm_stats *s = &st[i];
        printf("  %-24s %8" PRIu32 " %14" PRIu64 " %12" PRIu32 " %12" PRIu32 " %12.1f  %" PRIu32 "/%" PRIu32 "%s\n",
               ps.name[i], s->calls, s->total, s->min, s->max,
               s->calls && ps.has_exit[i] ? (double)s->total / s->calls : 0.0, s->unmatched_entries,
               s->unmatched_exits, ps.has_exit[i] ? "" : "  (entry only: calls)");
        if (period > 0.0 && ps.has_exit[i] && s->calls)
            printf("  %-24s %8s %11.3f us %9.3f us %9.3f us %9.3f us\n", "", "", (double)s->total * period / 1000.0,
                   (double)s->min * period / 1000.0, (double)s->max * period / 1000.0,
                   (double)s->total * period / 1000.0 / s->calls);
    }
    return 0;
}
