// SPDX-License-Identifier: MIT
/*
 * descrom.c - the descriptor ROM read by the real driver from the real RTL
 * (scenario desc_rom, gen/tests/configs/desc_rom.yaml: Y9 with
 * `monitor.global.descriptor: rom`).
 *
 * jointer_descrom_read takes the monitor's descriptor file out of its ROM
 * (DESC_INDEX/DESC_DATA over AXI4-Lite), jointer_descfile_parse parses it,
 * and the result must be the compiled-in descriptor the generator wrote
 * beside it: same name, hash, INFO (with bit 20), window, every LMIC,
 * sniffer and metric (names and offsets). Then the monitor is driven with
 * the parsed descriptor alone (open, self-test, run, stop, read every
 * metric): the generic CLI's path on a board with no file. Reports the file
 * length, the number of fields compared and the mismatches (0 expected).
 */
#include <string.h>

#include "cosim_app.h"
#include "jointer_descfile.h"

static unsigned char rom[1u << 14];
static unsigned char arena[1u << 14];

static unsigned same_str(const char *a, const char *b, unsigned *n)
{
    (*n)++;
    return a != NULL && b != NULL && strcmp(a, b) == 0 ? 0u : 1u;
}

static unsigned same_u(uint64_t a, uint64_t b, unsigned *n)
{
    (*n)++;
    return a == b ? 0u : 1u;
}

/* mismatches between the parsed and the compiled-in descriptor; *n fields */
static unsigned compare(const jointer_cfg *c, const jointer_cfg *r, unsigned *n)
{
    unsigned bad = same_str(c->name, r->name, n) + same_u(c->config_hash, r->config_hash, n)
                   + same_u(c->info, r->info, n) + same_u(c->window, r->window, n)
                   + same_u(c->span, r->span, n) + same_u(c->num_lmics, r->num_lmics, n)
                   + same_u(c->num_sniffers, r->num_sniffers, n) + same_u(c->num_metrics, r->num_metrics, n)
                   + same_u(c->num_traces, r->num_traces, n);
    if (bad != 0)
        return bad;
    for (unsigned i = 0; i < c->num_lmics; i++)
        bad += same_str(c->lmics[i].name, r->lmics[i].name, n) + same_u(c->lmics[i].base, r->lmics[i].base, n);
    for (unsigned i = 0; i < c->num_sniffers; i++)
        bad += same_str(c->sniffers[i].name, r->sniffers[i].name, n)
               + same_u(c->sniffers[i].num_dcapfs, r->sniffers[i].num_dcapfs, n);
    for (unsigned i = 0; i < c->num_metrics; i++)
        bad += same_str(c->metrics[i].name, r->metrics[i].name, n)
               + same_u(c->metrics[i].result_offset, r->metrics[i].result_offset, n)
               + same_u(c->metrics[i].width, r->metrics[i].width, n)
               + same_u(c->metrics[i].threshold_offset, r->metrics[i].threshold_offset, n);
    return bad;
}

int app_main(int argc, char **argv)
{
    jointer_dev dev, dev2;
    jointer_cfg parsed;
    jointer_io io;
    size_t len = 0;
    unsigned fields = 0;
    uint64_t v;

    (void)argc;
    (void)argv;
    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(jointer_descrom_read(&dev, rom, sizeof rom, &len));
    platform_report("rom.bytes", len);
    COSIM_TRY(jointer_descfile_parse(rom, len, arena, sizeof arena, &parsed));
    platform_report("rom.mismatches", compare(&parsed, cosim_cfg, &fields));
    platform_report("rom.info_bit20", (parsed.info & JOINTER_INFO_DESC_ROM) != 0);
    platform_report("rom.fields_compared", fields);

    /* the monitor through the descriptor from its own ROM */
    COSIM_TRY(platform_monitor_io(&io));
    COSIM_TRY(jointer_init(&dev2, &parsed, &io));
    COSIM_TRY(jointer_selftest(&dev2, 0, NULL));
    for (unsigned s = 0; s < parsed.num_sniffers; s++)
        COSIM_TRY(jointer_set_mode(&dev2, parsed.sniffers[s].lmic, parsed.sniffers[s].index,
                                   JOINTER_NO_FILTERING));
    for (unsigned l = 0; l < parsed.num_lmics; l++)
        COSIM_TRY(jointer_run(&dev2, l));
    platform_wait_ns(200);
    for (unsigned l = 0; l < parsed.num_lmics; l++)
        COSIM_TRY(jointer_stop(&dev2, l));
    for (unsigned m = 0; m < parsed.num_metrics; m++) {
        COSIM_TRY(jointer_read(&dev2, m, &v));
        platform_report(parsed.metrics[m].name, v);
    }
    return 0;
}
