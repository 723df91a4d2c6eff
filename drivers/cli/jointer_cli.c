/*
 * jointer - command-line access to one jointer monitor (hosted Linux).
 *
 * Built per monitor: linked with the generated descriptor <name>.c and
 * compiled with -DJOINTER_CLI_CFG=<name>_cfg (make cli CONFIG=...).
 *
 * Test hooks (environment): JOINTER_UIO_SYSFS replaces /sys/class/uio,
 * JOINTER_DEVMEM_PATH replaces /dev/mem, JOINTER_DEVICE is the default
 * --device.
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

#include "jointer.h"
#include "jointer_hosted.h"
#include "jointer_pm.h"
#include "jointer_trace_file.h"

#ifndef JOINTER_CLI_CFG
#error "compile with -DJOINTER_CLI_CFG=<name>_cfg and link <name>.c"
#endif

extern const jointer_cfg JOINTER_CLI_CFG;
#define CFG (&JOINTER_CLI_CFG)

#define MAX_DCAPFS 1024u
#define MAX_METRICS 1024u

static jointer_dev dev;
static uint32_t bounds[2u * MAX_DCAPFS];
static const char *device_spec;
static unsigned open_flags;
static volatile sig_atomic_t stop_requested;

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

static const char *const mode_names[4] = {"idle", "init", "filtering", "no_filtering"};
static const char *const extractor_names[3] = {"event", "time", "trace"};
static const char *const aggregator_names[6] = {"sum", "max", "min", "last", "histogram", "mean"};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: jointer [--device SPEC] [--force] COMMAND [ARGS]\n"
            "monitor: %s (config hash 0x%08" PRIX32 ")\n"
            "commands:\n"
            "  info                          the descriptor and the device's identity\n"
            "  selftest                      ID, VERSION, CONFIG_HASH, INFO (+ SCRATCH when it has one)\n"
            "  mode SNIFFER MODE             idle | init | filtering | no_filtering\n"
            "  init DCAPF LOW HIGH           load a filter range, then FILTERING\n"
            "  run | stop | reset [LMIC]     every LMIC when none is named\n"
            "  read [METRIC...] [--format table|csv|json]\n"
            "  watch --interval MS [--count N] [--output FILE.csv] [METRIC...]\n"
            "  mark VALUE                    one MARK write (host timestamp event)\n"
            "  trace [TRACE] [--format table|csv|json]\n"
            "  trace TRACE --follow -o FILE [--watermark N] [--timeout-ms MS] [--records N]\n"
            "        [--duration-ms MS]      relay trace: drain to FILE until N records, MS or Ctrl-C\n"
            "  trace --convert FILE [--format csv|json]   a --follow file as text\n"
            "  print                         every LMIC's registers (jointer_print_reg)\n"
            "  pm SNIFFER SYMFILE | --off    program monitor: load its addresses (NAME ENTRY [EXIT] lines)\n"
            "  profile SYMFILE [TRACE] [--input FILE.csv] [--period-ns P] [--format table|csv]\n"
            "                                per-function calls and cycles from a program monitor trace\n"
            "device: --device uio:/dev/uioN | devmem:ADDR | devmem (default $JOINTER_DEVICE,\n"
            "        else uio:/dev/uio0); --force accepts a VERSION/CONFIG_HASH mismatch\n",
            CFG->name, CFG->config_hash);
}

static void hint(int err)
{
    switch (-err) {
    case ENOENT:
        fprintf(stderr, "jointer: no such device: %s\n"
                        "  hint: is the bitstream loaded and the monitor's device-tree node bound to\n"
                        "  uio_pdrv_genirq (compatible \"generic-uio\")? ls /sys/class/uio/*/name;\n"
                        "  or try --device devmem:0x%" PRIX64 " as root\n",
                device_spec, CFG->base_address);
        break;
    case EACCES:
    case EPERM:
        fprintf(stderr, "jointer: permission denied: %s\n"
                        "  hint: use UIO with a udev rule instead of root, e.g. in\n"
                        "  /etc/udev/rules.d/99-jointer.rules:\n"
                        "    SUBSYSTEM==\"uio\", ATTR{name}==\"%s\", GROUP=\"jointer\", MODE=\"0660\"\n"
                        "  then add yourself to group jointer (/dev/mem always needs root)\n",
                device_spec, CFG->name);
        break;
    default:
        fprintf(stderr, "jointer: %s: %s\n", device_spec, jointer_strerror(err));
        break;
    }
}

static int open_device(void)
{
    const char *spec = device_spec;
    unsigned flags = open_flags | JOINTER_FORCE; /* identity is checked below, with details */
    jointer_ident id;
    int r;

    if (strncmp(spec, "uio:", 4) == 0) {
        jointer_uio_params p = {getenv("JOINTER_UIO_SYSFS"), NULL, 0};
        r = jointer_uio_open(&dev, CFG, spec + 4, &p, flags);
    } else if (strcmp(spec, "devmem") == 0 || strncmp(spec, "devmem:", 7) == 0) {
        uint64_t addr = CFG->base_address;
        if (spec[6] == ':') {
            char *end;
            errno = 0;
            addr = strtoull(spec + 7, &end, 0);
            if (errno != 0 || end == spec + 7 || *end != '\0') {
                fprintf(stderr, "jointer: bad address in --device %s\n", spec);
                return -EINVAL;
            }
        }
        r = jointer_devmem_open(&dev, CFG, addr, getenv("JOINTER_DEVMEM_PATH"), flags);
    } else {
        fprintf(stderr, "jointer: --device must be uio:/dev/uioN, devmem:ADDR or devmem, not \"%s\"\n", spec);
        return -EINVAL;
    }
    if (r == -ENODEV) {
        fprintf(stderr, "jointer: no jointer monitor at %s (the ID register is not 0x%08X \"JNTR\")\n"
                        "  hint: check the address, or which /dev/uioN is the monitor (/sys/class/uio/*/name)\n",
                spec, JOINTER_ID_VALUE);
        return r;
    }
    if (r == -EINVAL && strncmp(spec, "uio:", 4) == 0) {
        fprintf(stderr, "jointer: %s is not a usable UIO device for %s (name not uioN, or its map0 is\n"
                        "  smaller than the monitor's 0x%" PRIX32 " bytes)\n", spec, CFG->name, CFG->span);
        return r;
    }
    if (r < 0) {
        hint(r);
        return r;
    }
    r = jointer_attach_bounds(&dev, bounds, 2u * MAX_DCAPFS);
    if (r < 0) {
        fprintf(stderr, "jointer: monitor too large for this CLI (%u DCAPFs)\n", (unsigned)CFG->num_dcapfs);
        return r;
    }
    if (jointer_identify(&dev, &id) == 0 && !(open_flags & JOINTER_FORCE)) {
        if ((id.version >> 16) != (CFG->version >> 16)) {
            fprintf(stderr, "jointer: hardware VERSION 0x%08" PRIX32 ", this jointer supports 0x%08" PRIX32
                            "\n  hint: use a matching jointer release, or --force\n", id.version, CFG->version);
            return -EPROTONOSUPPORT;
        }
        if (jointer_selftest(&dev, JOINTER_SELFTEST_NO_WRITE, NULL) == -ESTALE) {
            fprintf(stderr, "jointer: config hash mismatch: the device at %s reports 0x%08" PRIX32
                            " (INFO 0x%08" PRIX32 "),\n  this jointer was built for %s, 0x%08" PRIX32 "\n"
                            "  hint: rebuild it from the YAML the bitstream was generated from\n"
                            "  (make cli CONFIG=that.yaml), or pass --force\n",
                    spec, id.config_hash, id.info, CFG->name, CFG->config_hash);
            return -ESTALE;
        }
    }
    return 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
    char *end;
    unsigned long long x;
    errno = 0;
    x = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0' || x > 0xFFFFFFFFull || s[0] == '-')
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int fail(int r, const char *what)
{
    fprintf(stderr, "jointer: %s: %s\n", what, jointer_strerror(r));
    return 1;
}

/* ---- commands ------------------------------------------------------------ */

static int cmd_info(void)
{
    jointer_ident id;
    unsigned i;
    int r;

    printf("monitor %s: config hash 0x%08" PRIX32 ", version 0x%08" PRIX32 ", base 0x%" PRIX64
           ", span 0x%" PRIX32 ", window 0x%" PRIX32 "\n",
           CFG->name, CFG->config_hash, CFG->version, CFG->base_address, CFG->span, CFG->window);
    printf("global registers: ID VERSION CONFIG_HASH INFO IRQ_STATUS IRQ_ENABLE%s%s%s\n",
           (CFG->info & JOINTER_INFO_TIMESTAMP) ? " TIMESTAMP" : "", (CFG->info & JOINTER_INFO_MARK) ? " MARK" : "",
           (CFG->info & JOINTER_INFO_SCRATCH) ? " SCRATCH" : "");
    for (i = 0; i < CFG->num_lmics; i++) {
        const jointer_lmic_desc *l = &CFG->lmics[i];
        unsigned s;
        printf("lmic %u %s at 0x%03" PRIX32 ", %u IRQ sources\n", i, l->name, l->base, (unsigned)l->num_irq);
        for (s = 0; s < l->num_sniffers; s++) {
            const jointer_sniffer_desc *sd = &CFG->sniffers[l->first_sniffer + s];
            unsigned m;
            printf("  sniffer %u %s (%u DCAPFs)\n", s, sd->name, (unsigned)sd->num_dcapfs);
            if (sd->pm_addresses != 0)
                printf("    program monitor: %u addresses, %u-bit PC (jointer pm, jointer profile)\n",
                       (unsigned)sd->pm_addresses, (unsigned)sd->pm_pc_width);
            for (m = 0; m < CFG->num_metrics; m++) {
                const jointer_metric_desc *md = &CFG->metrics[m];
                if (md->sniffer != l->first_sniffer + s)
                    continue;
                printf("    metric %-20s dcapf %u  %s/%s  %2u bits  result 0x%03" PRIX32, md->name,
                       (unsigned)md->dcapf, extractor_names[md->extractor % 3],
                       aggregator_names[md->aggregator % 6], (unsigned)md->width, md->result_offset);
                if (md->flags & JOINTER_METRIC_THRESHOLD)
                    printf("  threshold 0x%03" PRIX32 " irq %d", md->threshold_offset, md->irq_bit);
                if (md->flags & JOINTER_METRIC_FILTER)
                    printf("  filter 0x%" PRIX32 "..0x%" PRIX32 "\n", md->low_reset, md->high_reset);
                else
                    printf("  filter none\n");
            }
            for (m = 0; m < CFG->num_traces; m++) {
                const jointer_trace_desc *t = &CFG->traces[m];
                if (t->sniffer != l->first_sniffer + s)
                    continue;
                printf("    trace  %-20s dcapf %u  %" PRIu32 " records (%s)  regs 0x%03" PRIX32 "  ram 0x%03" PRIX32,
                       t->name, (unsigned)t->dcapf, t->depth, t->ring ? "ring" : "stop", t->reg_offset, t->ram_offset);
                if (t->filter)
                    printf("  filter 0x%" PRIX32 "..0x%" PRIX32 "\n", t->low_reset, t->high_reset);
                else
                    printf("  filter none\n");
            }
        }
    }
    open_flags |= JOINTER_FORCE; /* describe a mismatching device too */
    r = open_device();
    if (r < 0)
        return 1;
    r = jointer_identify(&dev, &id);
    if (r < 0)
        return fail(r, "identify");
    printf("device %s: ID 0x%08" PRIX32 "%s, VERSION 0x%08" PRIX32 ", CONFIG_HASH 0x%08" PRIX32 "%s, INFO 0x%08" PRIX32
           " (%u LMICs, %u-byte windows)\n",
           device_spec, id.id, id.id == JOINTER_ID_VALUE ? " (JNTR)" : " (not jointer)", id.version, id.config_hash,
           id.config_hash == CFG->config_hash ? " (matches)" : " (MISMATCH)", id.info, (unsigned)(id.info & 0xFFu),
           1u << ((id.info >> 8) & 31u));
    return 0;
}

static int cmd_selftest(void)
{
    jointer_ident id;
    unsigned user = open_flags;
    int r;
    open_flags |= JOINTER_FORCE; /* the self-test reports a mismatch itself */
    if (open_device() < 0)
        return 1;
    r = jointer_selftest(&dev, user & JOINTER_FORCE, &id);
    if (r < 0) {
        fprintf(stderr, "selftest: FAILED: %s (ID 0x%08" PRIX32 ", VERSION 0x%08" PRIX32 ", CONFIG_HASH 0x%08" PRIX32
                        ", INFO 0x%08" PRIX32 ")\n",
                jointer_strerror(r), id.id, id.version, id.config_hash, id.info);
        return 1;
    }
    printf("selftest: ok (ID, VERSION, CONFIG_HASH 0x%08" PRIX32 ", INFO%s)\n", id.config_hash,
           (CFG->info & JOINTER_INFO_SCRATCH) ? ", SCRATCH" : "");
    return 0;
}

static int cmd_mode(int argc, char **argv)
{
    int s, m;
    if (argc != 2) {
        fprintf(stderr, "usage: jointer mode SNIFFER idle|init|filtering|no_filtering\n");
        return 2;
    }
    s = jointer_find_sniffer(CFG, argv[0]);
    if (s < 0) {
        fprintf(stderr, "jointer: no sniffer \"%s\" in %s (see jointer info)\n", argv[0], CFG->name);
        return 2;
    }
    for (m = 0; m < 4; m++)
        if (strcmp(argv[1], mode_names[m]) == 0)
            break;
    if (m == 4) {
        fprintf(stderr, "jointer: mode must be idle, init, filtering or no_filtering, not \"%s\"\n", argv[1]);
        return 2;
    }
    if (open_device() < 0)
        return 1;
    m = jointer_set_mode(&dev, CFG->sniffers[s].lmic, CFG->sniffers[s].index, (jointer_mode)m);
    return m < 0 ? fail(m, "mode") : 0;
}

static int cmd_init(int argc, char **argv)
{
    uint32_t low, high;
    unsigned sniffer, dcapf;
    int k, r, filter;
    if (argc != 3 || parse_u32(argv[1], &low) != 0 || parse_u32(argv[2], &high) != 0) {
        fprintf(stderr, "usage: jointer init DCAPF LOW HIGH   (32-bit unsigned, inclusive)\n");
        return 2;
    }
    if ((k = jointer_find_metric(CFG, argv[0])) >= 0) {
        sniffer = CFG->metrics[k].sniffer;
        dcapf = CFG->metrics[k].dcapf;
        filter = (CFG->metrics[k].flags & JOINTER_METRIC_FILTER) != 0;
    } else if ((k = jointer_find_trace(CFG, argv[0])) >= 0) {
        sniffer = CFG->traces[k].sniffer;
        dcapf = CFG->traces[k].dcapf;
        filter = CFG->traces[k].filter != 0;
    } else {
        fprintf(stderr, "jointer: no metric or trace \"%s\" in %s (see jointer info)\n", argv[0], CFG->name);
        return 2;
    }
    if (!filter) {
        fprintf(stderr, "jointer: %s has no filter (filter: none): nothing to initialise; it counts every "
                        "event in filtering and no_filtering alike\n", argv[0]);
        return 2;
    }
    if (open_device() < 0)
        return 1;
    /* the earlier DCAPFs of the sniffer get their reset bounds (INIT registers
     * cannot be read back); FILTERING is committed now: this process ends */
    r = jointer_initialize(&dev, CFG->sniffers[sniffer].lmic, CFG->sniffers[sniffer].index, dcapf, low, high);
    if (r == 0)
        r = jointer_set_mode(&dev, CFG->sniffers[sniffer].lmic, CFG->sniffers[sniffer].index, JOINTER_FILTERING);
    return r < 0 ? fail(r, "init") : 0;
}

static int cmd_lmics(int argc, char **argv, int (*fn)(jointer_dev *, unsigned), const char *what)
{
    unsigned l;
    int r = 0, only = -1;
    if (argc > 1) {
        fprintf(stderr, "usage: jointer %s [LMIC]\n", what);
        return 2;
    }
    if (argc == 1 && (only = jointer_find_lmic(CFG, argv[0])) < 0) {
        fprintf(stderr, "jointer: no LMIC \"%s\" in %s (see jointer info)\n", argv[0], CFG->name);
        return 2;
    }
    if (open_device() < 0)
        return 1;
    for (l = 0; r == 0 && l < CFG->num_lmics; l++)
        if (only < 0 || (unsigned)only == l)
            r = fn(&dev, l);
    return r < 0 ? fail(r, what) : 0;
}

static int parse_format(const char *s, enum fmt *f)
{
    if (strcmp(s, "table") == 0)
        *f = FMT_TABLE;
    else if (strcmp(s, "csv") == 0)
        *f = FMT_CSV;
    else if (strcmp(s, "json") == 0)
        *f = FMT_JSON;
    else
        return -1;
    return 0;
}

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

/* ---- histograms (issue 7 part 2): `read` prints every bucket ------------ */

/* the buckets of histogram metric m, read torn-free; -errno (printed) or N */
static int hist_read(unsigned m, uint64_t *counts)
{
    int n = jointer_histogram_buckets(&dev, m);
    int r = n < 0 ? n : jointer_read_histogram(&dev, m, counts, 64u);
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
        (void)jointer_histogram_bucket(&dev, m, (unsigned)k, &low, &high);
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
    int r = jointer_read_mean(&dev, m, &sum, &count);

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

static int cmd_read(int argc, char **argv)
{
    static unsigned sel[MAX_METRICS];
    static uint64_t v[MAX_METRICS];
    enum fmt f = FMT_TABLE;
    unsigned n;
    int i, k = 0, r;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            if (parse_format(argv[++i], &f) != 0) {
                fprintf(stderr, "jointer: --format table|csv|json\n");
                return 2;
            }
        } else {
            argv[k++] = argv[i];
        }
    }
    if (select_metrics(k, argv, sel, &n) != 0)
        return 2;
    if (open_device() < 0)
        return 1;
    r = jointer_read_all(&dev, v, MAX_METRICS);
    if (r < 0)
        return fail(r, "read");
    print_values(stdout, f, sel, n, v);
    return 0;
}

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmd_watch(int argc, char **argv)
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
            if (parse_u32(argv[++a], &interval) != 0 || interval == 0)
                interval = 0;
        } else if (strcmp(argv[a], "--count") == 0 && a + 1 < argc) {
            if (parse_u32(argv[++a], &count) != 0)
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
    if (open_device() < 0)
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
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    tty = isatty(STDOUT_FILENO);
    t0 = now_ms();
    next = t0;
    for (done = 0; !stop_requested && (count == 0 || done < count); done++) {
        double wait;
        r = jointer_read_all(&dev, v, MAX_METRICS);
        if (r < 0)
            break;
        if (out != NULL) {
            fprintf(out, "%.1f", now_ms() - t0);
            for (i = 0; i < n; i++)
                fprintf(out, ",%" PRIu64, v[sel[i]]);
            fprintf(out, "\n");
            fflush(out);
        } else {
            if (tty)
                printf("\033[H\033[2J");
            printf("%s  t = %.1f ms  (every %" PRIu32 " ms, Ctrl-C stops)\n", CFG->name, now_ms() - t0, interval);
            print_values(stdout, FMT_TABLE, sel, n, v);
            fflush(stdout);
        }
        next += interval;
        wait = next - now_ms();
        if (wait > 0 && (count == 0 || done + 1 < count)) {
            struct timespec ts;
            ts.tv_sec = (time_t)(wait / 1e3);
            ts.tv_nsec = (long)((wait - (double)ts.tv_sec * 1e3) * 1e6);
            nanosleep(&ts, NULL);
        }
    }
    if (out != NULL && fclose(out) != 0 && r == 0)
        r = -EIO;
    return r < 0 ? fail(r, "watch") : 0;
}

static int cmd_mark(int argc, char **argv)
{
    uint32_t v;
    int r;
    if (argc != 1 || parse_u32(argv[0], &v) != 0) {
        fprintf(stderr, "usage: jointer mark VALUE   (32-bit unsigned)\n");
        return 2;
    }
    if (open_device() < 0)
        return 1;
    r = jointer_mark(&dev, v);
    if (r == -ENOTSUP) {
        fprintf(stderr, "jointer: mark: monitor %s has no MARK register (no mark sniffer in its description)\n",
                CFG->name);
        return 1;
    }
    return r < 0 ? fail(r, "mark") : 0;
}

/* ---- relay: trace --follow, trace --convert ------------------------------- */

typedef struct follow_sink {
    FILE *f;
    jointer_tfile_header *h;
} follow_sink;

static int follow_write(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    follow_sink *s = ctx;
    return jointer_tfile_append(s->f, s->h, rec, n);
}

static int cmd_trace_follow(int argc, char **argv)
{
    static jointer_trace_record buf[1024];
    jointer_tfile_header h;
    follow_sink sink;
    const char *path = NULL;
    uint32_t wm = 0, timeout = 100, records = 0, duration = 0, lost = 0;
    uint64_t drained = 0;
    const jointer_trace_desc *t;
    int i, tr = -1, r = 0;
    double t0;
    FILE *f;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--follow") == 0)
            continue;
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "--watermark") == 0 && i + 1 < argc && parse_u32(argv[i + 1], &wm) == 0)
            i++;
        else if (strcmp(argv[i], "--timeout-ms") == 0 && i + 1 < argc && parse_u32(argv[i + 1], &timeout) == 0)
            i++;
        else if (strcmp(argv[i], "--records") == 0 && i + 1 < argc && parse_u32(argv[i + 1], &records) == 0)
            i++;
        else if (strcmp(argv[i], "--duration-ms") == 0 && i + 1 < argc && parse_u32(argv[i + 1], &duration) == 0)
            i++;
        else if (tr < 0 && (tr = jointer_find_trace(CFG, argv[i])) >= 0)
            continue;
        else {
            fprintf(stderr, "jointer: trace --follow: bad argument \"%s\" (see jointer --help)\n", argv[i]);
            return 2;
        }
    }
    if (tr < 0 || path == NULL || timeout > 0x7FFFFFFFu) {
        fprintf(stderr, "usage: jointer trace TRACE --follow -o FILE [--watermark N] [--timeout-ms MS]"
                        " [--records N] [--duration-ms MS]\n");
        return 2;
    }
    t = &CFG->traces[tr];
    if (!t->relay) {
        fprintf(stderr, "jointer: trace %s is not a relay trace (YAML mode: relay)\n", t->name);
        return 2;
    }
    if (wm == 0)
        wm = t->depth / 2u;
    if (wm > t->depth) {
        fprintf(stderr, "jointer: --watermark %" PRIu32 " beyond the depth %" PRIu32 "\n", wm, t->depth);
        return 2;
    }
    if (open_device() < 0)
        return 1;
    f = fopen(path, "w+b");
    if (f == NULL) {
        fprintf(stderr, "jointer: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    r = jointer_tfile_header_init(&h, CFG, (unsigned)tr);
    if (r == 0)
        r = jointer_tfile_write_header(f, &h);
    if (r == 0)
        r = jointer_trace_set_watermark(&dev, (unsigned)tr, wm);
    if (r == 0 && t->irq_bit >= 0)
        r = jointer_irq_enable(&dev, t->lmic, 3u << (unsigned)t->irq_bit);
    sink.f = f;
    sink.h = &h;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    t0 = now_ms();
    while (r == 0 && !stop_requested && (records == 0 || drained < records)
           && (duration == 0 || now_ms() - t0 < (double)duration))
        r = jointer_trace_relay(&dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], (int)timeout,
                                follow_write, &sink, &drained);
    if (r == 0)
        r = jointer_trace_lost(&dev, (unsigned)tr, &lost);
    if (r == 0)
        r = jointer_tfile_finish(f, &h, lost);
    if (t->irq_bit >= 0)
        (void)jointer_irq_enable(&dev, t->lmic, 0);
    if (fclose(f) != 0 && r == 0)
        r = -EIO;
    if (r < 0)
        return fail(r, "trace --follow");
    printf("trace %s: %" PRIu64 " records to %s, %" PRIu32 " lost\n", t->name, h.records, path, lost);
    return 0;
}

static int cmd_trace_convert(int argc, char **argv)
{
    static jointer_trace_record rec[1024];
    jointer_tfile_header h;
    enum fmt f = FMT_CSV;
    const char *path = NULL;
    uint64_t index = 0;
    uint32_t n, j;
    int i, r;
    FILE *in;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--convert") == 0 && i + 1 < argc && path == NULL) {
            path = argv[++i];
        } else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc && parse_format(argv[i + 1], &f) == 0
                   && f != FMT_TABLE) {
            i++;
        } else {
            fprintf(stderr, "usage: jointer trace --convert FILE [--format csv|json]\n");
            return 2;
        }
    }
    if (path == NULL) {
        fprintf(stderr, "usage: jointer trace --convert FILE [--format csv|json]\n");
        return 2;
    }
    in = fopen(path, "rb");
    if (in == NULL) {
        fprintf(stderr, "jointer: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    r = jointer_tfile_read_header(in, &h);
    if (r < 0) {
        fprintf(stderr, "jointer: %s: %s\n", path, r == -EIO ? "short header" :
                "not a jointer trace file (magic, version 1, raw encoding)");
        fclose(in);
        return 1;
    }
    if (f == FMT_CSV) {
        printf("# monitor %s, trace %s, config hash 0x%08" PRIX32 ", clock %" PRIu32 " Hz, %" PRIu64
               " records, %" PRIu32 " lost%s\n", h.monitor, h.trace, h.config_hash, h.clock_hz, h.records, h.lost,
               (h.flags & JOINTER_TFILE_COMPLETE) ? "" : " (incomplete file)");
        printf("index,timestamp,data\n");
    } else {
        printf("{\"monitor\": \"%s\", \"trace\": \"%s\", \"config_hash\": %" PRIu32 ", \"clock_hz\": %" PRIu32
               ", \"depth\": %" PRIu32 ", \"complete\": %s, \"lost\": %" PRIu32 ", \"records\": [",
               h.monitor, h.trace, h.config_hash, h.clock_hz, h.depth,
               (h.flags & JOINTER_TFILE_COMPLETE) ? "true" : "false", h.lost);
    }
    do {
        r = jointer_tfile_read(in, rec, sizeof rec / sizeof rec[0], &n);
        for (j = 0; j < n; j++, index++) {
            if (f == FMT_CSV)
                printf("%" PRIu64 ",%" PRIu32 ",%" PRIu32 "\n", index, rec[j].timestamp, rec[j].data);
            else
                printf("%s{\"timestamp\": %" PRIu32 ", \"data\": %" PRIu32 "}", index ? ", " : "",
                       rec[j].timestamp, rec[j].data);
        }
    } while (r == 0 && n != 0);
    if (f == FMT_JSON)
        printf("]}\n");
    fclose(in);
    if (r == 0 && index != h.records)
        r = -EPROTO;
    if (r < 0) {
        fprintf(stderr, "jointer: %s: %s\n", path, r == -EPROTO ? "truncated record or count mismatch"
                                                                 : "read error");
        return 1;
    }
    return 0;
}

static int cmd_trace(int argc, char **argv)
{
    static jointer_trace_record rec[65536];
    enum fmt f = FMT_TABLE;
    int i, only = -1, first = 1;
    unsigned t;
    for (i = 0; i < argc; i++) { /* the relay commands */
        if (strcmp(argv[i], "--convert") == 0)
            return cmd_trace_convert(argc, argv);
        if (strcmp(argv[i], "--follow") == 0)
            return cmd_trace_follow(argc, argv);
    }
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            if (parse_format(argv[++i], &f) != 0) {
                fprintf(stderr, "jointer: --format table|csv|json\n");
                return 2;
            }
        } else if (only < 0 && (only = jointer_find_trace(CFG, argv[i])) >= 0) {
            continue;
        } else {
            fprintf(stderr, "jointer: no trace \"%s\" in %s (see jointer info)\n", argv[i], CFG->name);
            return 2;
        }
    }
    if (CFG->num_traces == 0) {
        fprintf(stderr, "jointer: %s has no trace buffer\n", CFG->name);
        return 2;
    }
    if (open_device() < 0)
        return 1;
    if (f == FMT_CSV)
        printf("trace,index,timestamp,data\n");
    if (f == FMT_JSON)
        printf("{\"monitor\": \"%s\", \"traces\": {", CFG->name);
    for (t = 0; t < CFG->num_traces; t++) {
        uint32_t n, j, fill, st;
        int r;
        if (only >= 0 && (unsigned)only != t)
            continue;
        r = jointer_trace_status(&dev, t, &fill, &st);
        if (r == 0)
            r = jointer_trace_read(&dev, t, rec, sizeof rec / sizeof rec[0], &n);
        if (r < 0)
            return fail(r, "trace");
        if (f == FMT_TABLE)
            printf("trace %s: %" PRIu32 " records%s%s\n", CFG->traces[t].name, n,
                   (st & JOINTER_TRACE_STATUS_FULL) ? ", full" : "",
                   (st & JOINTER_TRACE_STATUS_OVERFLOW) ? ", overflowed" : "");
        if (f == FMT_JSON)
            printf("%s\"%s\": [", first ? "" : ", ", CFG->traces[t].name);
        first = 0;
        for (j = 0; j < n; j++) {
            if (f == FMT_TABLE)
                printf("  %6" PRIu32 "  %10" PRIu32 "  0x%08" PRIX32 "\n", j, rec[j].timestamp, rec[j].data);
            else if (f == FMT_CSV)
                printf("%s,%" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n", CFG->traces[t].name, j, rec[j].timestamp, rec[j].data);
            else
                printf("%s{\"timestamp\": %" PRIu32 ", \"data\": %" PRIu32 "}", j ? ", " : "", rec[j].timestamp,
                       rec[j].data);
        }
        if (f == FMT_JSON)
            printf("]");
    }
    if (f == FMT_JSON)
        printf("}}\n");
    return 0;
}

static int cmd_print(void)
{
    int r;
    if (open_device() < 0)
        return 1;
    r = jointer_print_reg(&dev, JOINTER_ALL_LMICS, stdout);
    return r < 0 ? fail(r, "print") : 0;
}

/* the program monitor commands: pm, profile */
#include "jointer_cli_pm.c"

int main(int argc, char **argv)
{
    const char *cmd;
    int i = 1, rc;

    device_spec = getenv("JOINTER_DEVICE");
    if (device_spec == NULL || device_spec[0] == '\0')
        device_spec = "uio:/dev/uio0";
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            device_spec = argv[++i];
        else if (strncmp(argv[i], "--device=", 9) == 0)
            device_spec = argv[i] + 9;
        else if (strcmp(argv[i], "--force") == 0)
            open_flags |= JOINTER_FORCE;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "jointer: unknown option %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    cmd = argv[i++];
    argc -= i;
    argv += i;
    if (strcmp(cmd, "info") == 0)
        rc = cmd_info();
    else if (strcmp(cmd, "selftest") == 0)
        rc = cmd_selftest();
    else if (strcmp(cmd, "mode") == 0)
        rc = cmd_mode(argc, argv);
    else if (strcmp(cmd, "init") == 0)
        rc = cmd_init(argc, argv);
    else if (strcmp(cmd, "run") == 0)
        rc = cmd_lmics(argc, argv, jointer_run, "run");
    else if (strcmp(cmd, "stop") == 0)
        rc = cmd_lmics(argc, argv, jointer_stop, "stop");
    else if (strcmp(cmd, "reset") == 0)
        rc = cmd_lmics(argc, argv, jointer_reset, "reset");
    else if (strcmp(cmd, "read") == 0)
        rc = cmd_read(argc, argv);
    else if (strcmp(cmd, "watch") == 0)
        rc = cmd_watch(argc, argv);
    else if (strcmp(cmd, "mark") == 0)
        rc = cmd_mark(argc, argv);
    else if (strcmp(cmd, "trace") == 0)
        rc = cmd_trace(argc, argv);
    else if (strcmp(cmd, "print") == 0)
        rc = cmd_print();
    else if (strcmp(cmd, "pm") == 0)
        rc = cmd_pm(argc, argv);
    else if (strcmp(cmd, "profile") == 0)
        rc = cmd_profile(argc, argv);
    else {
        fprintf(stderr, "jointer: unknown command \"%s\"\n", cmd);
        usage(stderr);
        rc = 2;
    }
    jointer_close(&dev);
    return rc;
}
