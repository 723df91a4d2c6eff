// SPDX-License-Identifier: MIT
/*
 * jointer_cli_read.c - the jointer commands that read metrics: read (table,
 * CSV or JSON; histograms and means as such) and watch (periodic samples).
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

/* metric selection from the remaining arguments (none: all) */
static int select_metrics(int argc, char **argv, unsigned *sel, unsigned *n)
{
    int i;
    *n = 0;
    if (argc == 0) {
        for (i = 0; i < CFG->num_metrics && (unsigned)i < MAX_METRICS; i++)
            sel[(*n)++] = (unsigned)i;
        return 0;
    }
    for (i = 0; i < argc && (unsigned)i < MAX_METRICS; i++) {
        int m = jointer_find_metric(CFG, argv[i]);
        if (m < 0) {
            fprintf(stderr, "jointer: no metric \"%s\" in %s (see jointer info)\n", argv[i], CFG->name);
            return -1;
        }
        sel[(*n)++] = (unsigned)m;
    }
    return 0;
}

/* ---- histograms: `read` prints every bucket ------------ */

/* the buckets of histogram metric m, read torn-free; -errno (printed) or N */
static int hist_read(unsigned m, uint64_t *counts)
{
    int n = jointer_histogram_buckets(&cli_dev, m);
    int r = n < 0 ? n : jointer_read_histogram(&cli_dev, m, counts, 64u);
    if (r < 0) {
        fprintf(stderr, "jointer: read histogram %s: %s\n", CFG->metrics[m].name, jointer_strerror(r));
        return r;
    }
    return n;
}

/* one metric's value; a histogram: its buckets {low, high, count} (JSON) */
static int hist_print(FILE *out, enum fmt f, unsigned m)
{
    uint64_t counts[64], low, high;
    int n = hist_read(m, counts), k;
    const jointer_metric_desc *md = &CFG->metrics[m];

    if (n < 0)
        return n;
    if (f == FMT_JSON)
        fprintf(out, "[");
    for (k = 0; k < n; k++) {
        (void)jointer_histogram_bucket(&cli_dev, m, (unsigned)k, &low, &high);
        if (f == FMT_JSON) {
            fprintf(out, "%s{\"low\": %" PRIu64 ", \"high\": ", k ? ", " : "", low);
            if (k + 1 == n)
                fprintf(out, "null");
            else
                fprintf(out, "%" PRIu64, high);
            fprintf(out, ", \"count\": %" PRIu64 "}", counts[k]);
        } else if (f == FMT_CSV) {
            fprintf(out, "%s,%s,%s[%" PRIu64 "..", CFG->lmics[md->lmic].name,
                    CFG->sniffers[md->sniffer].name, md->name, low);
            if (k + 1 == n)
                fprintf(out, "inf)");
            else
                fprintf(out, "%" PRIu64 ")", high);
            fprintf(out, ",%u,%" PRIu64 "\n", (unsigned)md->width, counts[k]);
        } else {
            char range[48];
            if (k + 1 == n)
                snprintf(range, sizeof range, "  [%" PRIu64 ", inf)", low);
            else
                snprintf(range, sizeof range, "  [%" PRIu64 ", %" PRIu64 ")", low, high);
            fprintf(out, "%-10s %-14s %-24s %5u %20" PRIu64 "\n", "", "", range, (unsigned)md->width,
                    counts[k]);
        }
    }
    if (f == FMT_JSON)
        fprintf(out, "]");
    return 0;
}

/* a mean: sum and count from one snapshot; JSON {"sum", "count"} */
static int mean_print(FILE *out, enum fmt f, unsigned m)
{
    uint64_t sum, count;
    const jointer_metric_desc *md = &CFG->metrics[m];
    int r = jointer_read_mean(&cli_dev, m, &sum, &count);

    if (r < 0) {
        fprintf(stderr, "jointer: read mean %s: %s\n", md->name, jointer_strerror(r));
        return r;
    }
    if (f == FMT_JSON) {
        fprintf(out, "{\"sum\": %" PRIu64 ", \"count\": %" PRIu64 "}", sum, count);
    } else if (f == FMT_CSV) {
        fprintf(out, "%s,%s,%s[sum],%u,%" PRIu64 "\n", CFG->lmics[md->lmic].name,
                CFG->sniffers[md->sniffer].name, md->name, (unsigned)md->width, sum);
        fprintf(out, "%s,%s,%s[count],%u,%" PRIu64 "\n", CFG->lmics[md->lmic].name,
                CFG->sniffers[md->sniffer].name, md->name, (unsigned)md->width, count);
    } else {
        fprintf(out, "%-10s %-14s %-24s %5u %20" PRIu64 "\n", "", "", "  sum", (unsigned)md->width, sum);
        fprintf(out, "%-10s %-14s %-24s %5u %20" PRIu64 "\n", "", "", "  count", (unsigned)md->width, count);
        if (count != 0)
            fprintf(out, "%-10s %-14s %-24s %5s %20.3f\n", "", "", "  mean", "", (double)sum / (double)count);
        else
            fprintf(out, "%-10s %-14s %-24s %5s %20s\n", "", "", "  mean", "", "-");
    }
    return 0;
}

static int is_histogram(unsigned m)
{
    return CFG->metrics[m].aggregator == JOINTER_AGGREGATOR_HISTOGRAM;
}

static int is_mean(unsigned m)
{
    return CFG->metrics[m].aggregator == JOINTER_AGGREGATOR_MEAN;
}

/* ---- end of histograms --------------------------------------------------- */

static void print_values(FILE *out, enum fmt f, const unsigned *sel, unsigned n, const uint64_t *v)
{
    unsigned i;
    if (f == FMT_JSON) {
        fprintf(out, "{\"monitor\": \"%s\", \"metrics\": {", CFG->name);
        for (i = 0; i < n; i++) {
            if (is_histogram(sel[i]) || is_mean(sel[i])) { /* [{low, high, count}] | {sum, count} */
                fprintf(out, "%s\"%s\": ", i ? ", " : "", CFG->metrics[sel[i]].name);
                (void)(is_mean(sel[i]) ? mean_print(out, f, sel[i]) : hist_print(out, f, sel[i]));
                continue;
            }
            fprintf(out, "%s\"%s\": %" PRIu64, i ? ", " : "", CFG->metrics[sel[i]].name, v[sel[i]]);
        }
        fprintf(out, "}}\n");
    } else if (f == FMT_CSV) {
        fprintf(out, "lmic,sniffer,metric,width,value\n");
        for (i = 0; i < n; i++) {
            const jointer_metric_desc *m = &CFG->metrics[sel[i]];
            if (is_histogram(sel[i]) || is_mean(sel[i])) { /* name[low..high) | name[sum], name[count] */
                (void)(is_mean(sel[i]) ? mean_print(out, f, sel[i]) : hist_print(out, f, sel[i]));
                continue;
            }
            fprintf(out, "%s,%s,%s,%u,%" PRIu64 "\n", CFG->lmics[m->lmic].name, CFG->sniffers[m->sniffer].name,
                    m->name, (unsigned)m->width, v[sel[i]]);
        }
    } else {
        fprintf(out, "%-10s %-14s %-24s %5s %20s\n", "lmic", "sniffer", "metric", "bits", "value");
        for (i = 0; i < n; i++) {
            const jointer_metric_desc *m = &CFG->metrics[sel[i]];
            if (is_histogram(sel[i]) || is_mean(sel[i])) { /* a title row, then its rows */
                fprintf(out, "%-10s %-14s %-24s %5s %20s\n", CFG->lmics[m->lmic].name,
                        CFG->sniffers[m->sniffer].name, m->name, "", is_mean(sel[i]) ? "mean" : "histogram");
                (void)(is_mean(sel[i]) ? mean_print(out, f, sel[i]) : hist_print(out, f, sel[i]));
                continue;
            }
            fprintf(out, "%-10s %-14s %-24s %5u %20" PRIu64 "\n", CFG->lmics[m->lmic].name,
                    CFG->sniffers[m->sniffer].name, m->name, (unsigned)m->width, v[sel[i]]);
        }
    }
}

int cli_cmd_read(int argc, char **argv)
{
    static unsigned sel[MAX_METRICS];
    static uint64_t v[MAX_METRICS];
    enum fmt f = FMT_TABLE;
    unsigned n;
    int i, k = 0, r;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            if (cli_parse_format(argv[++i], &f) != 0) {
                fprintf(stderr, "jointer: --format table|csv|json\n");
                return 2;
            }
        } else {
            argv[k++] = argv[i];
        }
    }
    if (select_metrics(k, argv, sel, &n) != 0)
        return 2;
    if (cli_open_device() < 0)
        return 1;
    r = jointer_read_all(&cli_dev, v, MAX_METRICS);
    if (r < 0)
        return cli_fail(r, "read");
    print_values(stdout, f, sel, n, v);
    return 0;
}

int cli_cmd_watch(int argc, char **argv)
{
    static unsigned sel[MAX_METRICS];
    static uint64_t v[MAX_METRICS];
    uint32_t interval = 0, count = 0, done;
    const char *output = NULL;
    FILE *out = NULL;
    unsigned n, i;
    int a, k = 0, r = 0, tty;
    double t0, next;

    for (a = 0; a < argc; a++) {
        if (strcmp(argv[a], "--interval") == 0 && a + 1 < argc) {
            if (cli_parse_u32(argv[++a], &interval) != 0 || interval == 0)
                interval = 0;
        } else if (strcmp(argv[a], "--count") == 0 && a + 1 < argc) {
            if (cli_parse_u32(argv[++a], &count) != 0)
                return 2;
        } else if (strcmp(argv[a], "--output") == 0 && a + 1 < argc) {
            output = argv[++a];
        } else {
            argv[k++] = argv[a];
        }
    }
    if (interval == 0) {
        fprintf(stderr, "usage: jointer watch --interval MS [--count N] [--output FILE.csv] [METRIC...]\n");
        return 2;
    }
    if (select_metrics(k, argv, sel, &n) != 0)
        return 2;
    if (cli_open_device() < 0)
        return 1;
    if (output != NULL) {
        out = fopen(output, "w");
        if (out == NULL) {
            fprintf(stderr, "jointer: cannot write %s: %s\n", output, strerror(errno));
            return 1;
        }
        fprintf(out, "time_ms");
        for (i = 0; i < n; i++)
            fprintf(out, ",%s", CFG->metrics[sel[i]].name);
        fprintf(out, "\n");
    }
    signal(SIGINT, cli_on_signal);
    signal(SIGTERM, cli_on_signal);
    tty = isatty(STDOUT_FILENO);
    t0 = cli_now_ms();
    next = t0;
    for (done = 0; !cli_stop_requested && (count == 0 || done < count); done++) {
        double wait;
        r = jointer_read_all(&cli_dev, v, MAX_METRICS);
        if (r < 0)
            break;
        if (out != NULL) {
            fprintf(out, "%.1f", cli_now_ms() - t0);
            for (i = 0; i < n; i++)
                fprintf(out, ",%" PRIu64, v[sel[i]]);
            fprintf(out, "\n");
            fflush(out);
        } else {
            if (tty)
                printf("\033[H\033[2J");
            printf("%s  t = %.1f ms  (every %" PRIu32 " ms, Ctrl-C stops)\n", CFG->name, cli_now_ms() - t0, interval);
            print_values(stdout, FMT_TABLE, sel, n, v);
            fflush(stdout);
        }
        next += interval;
        wait = next - cli_now_ms();
        if (wait > 0 && (count == 0 || done + 1 < count)) {
            struct timespec ts;
            ts.tv_sec = (time_t)(wait / 1e3);
            ts.tv_nsec = (long)((wait - (double)ts.tv_sec * 1e3) * 1e6);
            nanosleep(&ts, NULL);
        }
    }
    if (out != NULL && fclose(out) != 0 && r == 0)
        r = -EIO;
    return r < 0 ? cli_fail(r, "watch") : 0;
}
