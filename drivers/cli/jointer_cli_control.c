// SPDX-License-Identifier: MIT
/*
 * jointer_cli_control.c - the jointer commands that describe and steer the
 * monitor: info, selftest, mode, init, run, stop, reset, mark, print.
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

/* a histogram's buckets, [low, high) each, on one line */
static void info_buckets(const jointer_metric_desc *md)
{
    unsigned k;

    printf("      %u buckets:", (unsigned)md->buckets);
    for (k = 0; k < md->buckets; k++) {
        uint64_t low = k == 0 ? 0u : md->bounds != NULL ? md->bounds[k - 1u] : (uint64_t)1 << (k - 1u);
        if (k + 1u == md->buckets)
            printf(" [%" PRIu64 ", inf)\n", low);
        else
            printf(" [%" PRIu64 ", %" PRIu64 ")", low,
                   md->bounds != NULL ? (uint64_t)md->bounds[k] : (uint64_t)1 << k);
    }
}

/* a trace: its kind (a buffer of N records, a relay, a sink), registers, filter, lanes and spans */
static void info_trace(const jointer_trace_desc *t)
{
    unsigned k;

    printf("    trace  %-20s dcapf %u  ", t->name, (unsigned)t->dcapf);
    if (t->sink_bytes != 0)
        printf("sink (%s, %u-bit AXI4 master, ring in memory up to 2^%u bytes)  regs 0x%03" PRIX32,
               t->encoding == JOINTER_ENCODING_COMPACT ? "compact" : "raw", 8u * t->sink_bytes,
               (unsigned)t->sink_ring_log2, t->reg_offset);
    else
        printf("%" PRIu32 " records (%s)  regs 0x%03" PRIX32 "  ram 0x%03" PRIX32, t->depth,
               t->relay ? "relay" : t->ring ? "ring" : "stop", t->reg_offset, t->ram_offset);
    if (t->filter)
        printf("  filter 0x%" PRIX32 "..0x%" PRIX32 "\n", t->low_reset, t->high_reset);
    else
        printf("  filter none\n");
    if (t->num_lanes != 0) {
        printf("      lanes:");
        for (k = 0; k < t->num_lanes; k++)
            printf(" %s", t->lane_names[k]);
        printf("%s\n", t->sync ? ", and the host's sync" : "");
    }
    for (k = 0; k < t->num_spans; k++) {
        const jointer_span_desc *sp = &t->spans[k];
        if (sp->begin == JOINTER_SPAN_LEVEL)
            printf("      span %s: while the event value is not zero\n", sp->name);
        else
            printf("      span %s: %s to %s%s%s\n", sp->name, t->lane_names[sp->begin], t->lane_names[sp->end],
                   (sp->flags & JOINTER_SPAN_BY_ID) ? ", by event value" : "",
                   (sp->flags & JOINTER_SPAN_TRACK_VALUE) ? ", a track per value" : "");
    }
}

int cli_cmd_info(int argc, char **argv)
{
    jointer_ident id;
    unsigned i;
    int r;
    (void)argc;
    (void)argv;

    printf("monitor %s: config hash 0x%08" PRIX32 ", version 0x%08" PRIX32 ", base 0x%" PRIX64
           ", span 0x%" PRIX32 ", window 0x%" PRIX32 "\n",
           CFG->name, CFG->config_hash, CFG->version, CFG->base_address, CFG->span, CFG->window);
    printf("descriptor: %s\n", cli_desc_from);
    printf("global registers: ID VERSION CONFIG_HASH INFO IRQ_STATUS IRQ_ENABLE%s%s%s\n",
           (CFG->info & JOINTER_INFO_TIMESTAMP) ? " TIMESTAMP" : "", (CFG->info & JOINTER_INFO_MARK) ? " MARK" : "",
           (CFG->info & JOINTER_INFO_SCRATCH) ? " SCRATCH" : "");
    for (i = 0; i < CFG->num_lmics; i++) {
        const jointer_lmic_desc *l = &CFG->lmics[i];
        unsigned s;
        printf("lmic %u %s at 0x%03" PRIX32 ", %u IRQ sources", i, l->name, l->base, (unsigned)l->num_irq);
        if (l->clock != NULL)
            printf(", clock %s (%" PRIu32 " Hz)", l->clock, l->clock_hz);
        printf("\n");
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
                       (unsigned)md->dcapf, cli_extractor_names[md->extractor % 3],
                       cli_aggregator_names[md->aggregator % 6], (unsigned)md->width, md->result_offset);
                if (md->flags & JOINTER_METRIC_THRESHOLD)
                    printf("  threshold 0x%03" PRIX32 " irq %d", md->threshold_offset, md->irq_bit);
                if (md->flags & JOINTER_METRIC_FILTER)
                    printf("  filter 0x%" PRIX64 "..0x%" PRIX64 "\n", md->low_reset, md->high_reset);
                else
                    printf("  filter none\n");
                if (md->aggregator == JOINTER_AGGREGATOR_HISTOGRAM)
                    info_buckets(md);
            }
            for (m = 0; m < CFG->num_traces; m++) {
                const jointer_trace_desc *t = &CFG->traces[m];
                if (t->sniffer != l->first_sniffer + s)
                    continue;
                info_trace(t);
            }
        }
    }
    cli_open_flags |= JOINTER_FORCE; /* describe a mismatching device too */
    r = cli_open_device();
    if (r < 0)
        return 1;
    r = jointer_identify(&cli_dev, &id);
    if (r < 0)
        return cli_fail(r, "identify");
    printf("device %s: ID 0x%08" PRIX32 "%s, VERSION 0x%08" PRIX32 ", CONFIG_HASH 0x%08" PRIX32 "%s, INFO 0x%08" PRIX32
           " (%u LMICs, %u-byte windows)\n",
           cli_device_spec, id.id, id.id == JOINTER_ID_VALUE ? " (JNTR)" : " (not jointer)", id.version, id.config_hash,
           id.config_hash == CFG->config_hash ? " (matches)" : " (MISMATCH)", id.info, (unsigned)(id.info & 0xFFu),
           1u << ((id.info >> 8) & 31u));
    return 0;
}

int cli_cmd_selftest(int argc, char **argv)
{
    jointer_ident id;
    unsigned user = cli_open_flags;
    int r;
    (void)argc;
    (void)argv;
    cli_open_flags |= JOINTER_FORCE; /* the self-test reports a mismatch itself */
    if (cli_open_device() < 0)
        return 1;
    r = jointer_selftest(&cli_dev, user & JOINTER_FORCE, &id);
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

int cli_cmd_mode(int argc, char **argv)
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
        if (strcmp(argv[1], cli_mode_names[m]) == 0)
            break;
    if (m == 4) {
        fprintf(stderr, "jointer: mode must be idle, init, filtering or no_filtering, not \"%s\"\n", argv[1]);
        return 2;
    }
    if (cli_open_device() < 0)
        return 1;
    m = jointer_set_mode(&cli_dev, CFG->sniffers[s].lmic, CFG->sniffers[s].index, (jointer_mode)m);
    return m < 0 ? cli_fail(m, "mode") : 0;
}

int cli_cmd_init(int argc, char **argv)
{
    uint32_t low, high;
    unsigned sniffer, dcapf;
    int k, r, filter;
    if (argc != 3 || cli_parse_u32(argv[1], &low) != 0 || cli_parse_u32(argv[2], &high) != 0) {
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
    if (low > high) {
        fprintf(stderr, "jointer: init %s: LOW 0x%" PRIX32 " > HIGH 0x%" PRIX32 ": the range [LOW, HIGH] "
                        "(inclusive) would be empty\n", argv[0], low, high);
        return 2;
    }
    if (!filter) {
        fprintf(stderr, "jointer: %s has no filter (filter: none): nothing to initialise; it counts every "
                        "event in filtering and no_filtering alike\n", argv[0]);
        return 2;
    }
    if (cli_open_device() < 0)
        return 1;
    /* the earlier DCAPFs of the sniffer get their reset bounds (INIT registers
     * cannot be read back); FILTERING is committed now: this process ends */
    r = jointer_initialize(&cli_dev, CFG->sniffers[sniffer].lmic, CFG->sniffers[sniffer].index, dcapf, low, high);
    if (r == 0)
        r = jointer_set_mode(&cli_dev, CFG->sniffers[sniffer].lmic, CFG->sniffers[sniffer].index, JOINTER_FILTERING);
    return r < 0 ? cli_fail(r, "init") : 0;
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
    if (cli_open_device() < 0)
        return 1;
    for (l = 0; r == 0 && l < CFG->num_lmics; l++)
        if (only < 0 || (unsigned)only == l)
            r = fn(&cli_dev, l);
    return r < 0 ? cli_fail(r, what) : 0;
}

int cli_cmd_run(int argc, char **argv)
{
    return cmd_lmics(argc, argv, jointer_run, "run");
}

int cli_cmd_stop(int argc, char **argv)
{
    return cmd_lmics(argc, argv, jointer_stop, "stop");
}

int cli_cmd_reset(int argc, char **argv)
{
    return cmd_lmics(argc, argv, jointer_reset, "reset");
}

int cli_cmd_mark(int argc, char **argv)
{
    uint32_t v;
    int r;
    if (argc != 1 || cli_parse_u32(argv[0], &v) != 0) {
        fprintf(stderr, "usage: jointer mark VALUE   (32-bit unsigned)\n");
        return 2;
    }
    if (cli_open_device() < 0)
        return 1;
    r = jointer_mark(&cli_dev, v);
    if (r == -ENOTSUP) {
        fprintf(stderr, "jointer: mark: monitor %s has no MARK register (no mark sniffer in its description)\n",
                CFG->name);
        return 1;
    }
    return r < 0 ? cli_fail(r, "mark") : 0;
}

int cli_cmd_print(int argc, char **argv)
{
    int r;
    (void)argc;
    (void)argv;
    if (cli_open_device() < 0)
        return 1;
    r = jointer_print_reg(&cli_dev, JOINTER_ALL_LMICS, stdout);
    return r < 0 ? cli_fail(r, "print") : 0;
}
