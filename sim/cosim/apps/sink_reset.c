// SPDX-License-Identifier: MIT
/*
 * sink_reset.c - a reset in the middle of a burst (scenario
 * sink_reset_mid_burst; scenarios/configs/cosim_sink.yaml): the
 * trace sink's clock domain is reset while a burst is in flight, then a reset
 * of the bus domain alone comes while bursts are in flight.
 *
 * The application cannot see a reset: it works at known times (arguments in
 * ns after platform_stimulus_start, from the scenario's schedule) and never
 * touches the bus while a reset may be under way (an access across the
 * monitor's clock crossing during the LMIC's reset is answered SLVERR, which
 * fails the run).
 *
 *   phase 1: read every sink register (power-on reset values), start the
 *            sink on the memory model's ring, RUN. At drain_ns
 *            (batch 1a complete and acknowledged, batch 1b not started) drain
 *            the ring into a trace file: exactly batch1 records.
 *   reset  : the scenario's `reset` stimulus on the sink's clock lands while
 *            the first burst of batch 1b is in flight (mem.*.cut_bursts).
 *   phase 2: at check_ns, read every sink register and the event counter:
 *            all at their reset values (reported after_reset.*). Then set up
 *            again (sniffer modes, jointer_sink_start, IRQ enable, RUN) and
 *            relay batch2 records into the file while they arrive.
 *   phase 3: the scenario resets the bus domain (s_axi_aresetn) in the middle
 *            of batch 3; the application stays off the bus until final_ns,
 *            then drains: every record of batch 3 must be in the ring (the
 *            sink's domain did not notice the bus reset).
 *
 * Arguments: trace=NAME, batch1= (records drained before the reset), batch2=,
 * batch3= (0: no phase 3), every= (cycles between events), base1=, base2=,
 * base3= (value of the first event of each batch, + 1 per event), watermark=
 * (records), drain_ns=, check_ns=, final_ns=.
 * Reports power_on.<register> (before the first start), records_before_reset,
 * after_reset.<register>, after_reset.same_as_power_on, batch<i>.records,
 * batch<i>.every_event_in_order, batch<i>.timestamps_on_schedule (from the
 * trace file read back), lost, ev_count, sink_error, file.*.
 */
#include <stdio.h>

#include "cosim_app.h"
#include "jointer_trace_file.h"

#define MAX_RECORDS 2048u

static jointer_trace_record buf[1024];
static jointer_trace_record back[MAX_RECORDS];
static jointer_sink_ring ring;

typedef struct file_sink {
    FILE *f;
    jointer_tfile_header h;
} file_sink;

static int to_file(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    file_sink *s = ctx;
    return jointer_tfile_append(s->f, &s->h, rec, n);
}

/* let simulated time pass until ns after c0 (bus cycles at the stimulus start) */
static void wait_until(uint64_t c0, uint64_t ns)
{
    uint64_t period_ps = 1000000000000u / cosim_cfg->bus_clock_hz;
    uint64_t now_ns = (platform_bus_cycles() - c0) * period_ps / 1000u;

    if (ns > now_ns)
        platform_wait_ns(ns - now_ns);
}

/* drain until the ring gives nothing more; *n += records */
static int drain_all(jointer_dev *dev, unsigned tr, file_sink *fs, uint64_t *n)
{
    uint32_t k;

    do {
        COSIM_TRY(jointer_trace_drain(dev, tr, buf, sizeof buf / sizeof buf[0], &k));
        COSIM_TRY(jointer_tfile_append(fs->f, &fs->h, buf, k));
        *n += k;
    } while (k != 0);
    return 0;
}

static const struct {
    const char *name;
    uint32_t off;
} regs[] = {{"wptr", JOINTER_SINK_WPTR},     {"rptr", JOINTER_SINK_RPTR},
            {"status", JOINTER_SINK_STATUS}, {"watermark", JOINTER_SINK_WATERMARK},
            {"base", JOINTER_SINK_BASE},     {"size", JOINTER_SINK_SIZE},
            {"control", JOINTER_SINK_CONTROL}, {"lost", JOINTER_SINK_LOST}};
#define NUM_REGS (sizeof regs / sizeof regs[0])

/* every sink register and the event counter, reported as <prefix>.<name> into v[] */
static int read_regs(jointer_dev *dev, unsigned tr, int m, const char *prefix, uint64_t *v)
{
    char key[48];
    unsigned i;

    for (i = 0; i < NUM_REGS; i++) {
        v[i] = platform_read32((uint32_t)cosim_cfg->base_address + cosim_cfg->traces[tr].reg_offset
                               + regs[i].off);
        snprintf(key, sizeof key, "%s.%s", prefix, regs[i].name);
        platform_report(key, v[i]);
    }
    COSIM_TRY(jointer_read(dev, (unsigned)m, &v[NUM_REGS]));
    snprintf(key, sizeof key, "%s.ev_count", prefix);
    platform_report(key, v[NUM_REGS]);
    return 0;
}

/* sniffer modes, the ring, the watermark/error interrupt, RUN */
static int start_sink(jointer_dev *dev, unsigned tr, int argc, char **argv, uint32_t wm)
{
    const jointer_trace_desc *t = &cosim_cfg->traces[tr];
    volatile void *mem;
    uint32_t bus, size;

    COSIM_TRY(cosim_setup(dev, argc, argv));
    COSIM_TRY(platform_ring(NULL, &mem, &bus, &size));
    COSIM_TRY(jointer_sink_start(dev, tr, &ring, mem, bus, size, 8u * wm));
    COSIM_TRY(jointer_irq_enable(dev, t->lmic, 3u << (unsigned)t->irq_bit));
    COSIM_TRY(jointer_run(dev, t->lmic));
    return 0;
}

/* records [first, first + n) of the file: values base + k, timestamps every apart */
static void check_batch(const char *name, uint32_t first, uint32_t n, uint32_t got, uint32_t base,
                        uint32_t every)
{
    char key[64];
    uint32_t i, ok = got >= first + n;

    for (i = 0; ok && i < n; i++)
        ok = back[first + i].data == base + i;
    snprintf(key, sizeof key, "%s.every_event_in_order", name);
    platform_report(key, ok);
    ok = got >= first + n;
    for (i = 1; ok && i < n; i++)
        ok = back[first + i].timestamp - back[first + i - 1].timestamp == every;
    snprintf(key, sizeof key, "%s.timestamps_on_schedule", name);
    platform_report(key, ok);
}

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    file_sink fs;
    jointer_tfile_header h;
    const char *tname = cosim_arg(argc, argv, "trace");
    uint32_t n1 = (uint32_t)cosim_arg_u64(argc, argv, "batch1", 0);
    uint32_t n2 = (uint32_t)cosim_arg_u64(argc, argv, "batch2", 0);
    uint32_t n3 = (uint32_t)cosim_arg_u64(argc, argv, "batch3", 0);
    uint32_t every = (uint32_t)cosim_arg_u64(argc, argv, "every", 1);
    uint32_t wm = (uint32_t)cosim_arg_u64(argc, argv, "watermark", 16);
    uint64_t c0, before = 0, got2 = 0, got3 = 0, v;
    uint64_t power_on[NUM_REGS + 1], after[NUM_REGS + 1];
    uint32_t status, wptr, lost, n, idle = 0, same = 1;
    int tr, m;
    unsigned i;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(tr = jointer_find_trace(cosim_cfg, tname != NULL ? tname : "ev_sink"));
    COSIM_TRY(m = jointer_find_metric(cosim_cfg, "ev_count"));
    if (cosim_cfg->traces[tr].sink_bytes == 0 || cosim_cfg->bus_clock_hz == 0
        || n1 + n2 + n3 > MAX_RECORDS)
        return 1;
    fs.f = tmpfile();
    if (fs.f == NULL)
        return 1;
    COSIM_TRY(jointer_tfile_header_init(&fs.h, cosim_cfg, (unsigned)tr));
    COSIM_TRY(jointer_tfile_write_header(fs.f, &fs.h));

    /* phase 1: the reset values (power-on), batch 1a reaches the host, then
     * the bus stays idle */
    if (read_regs(&dev, (unsigned)tr, m, "power_on", power_on) != 0)
        return 1;
    if (start_sink(&dev, (unsigned)tr, argc, argv, wm) != 0)
        return 1;
    platform_stimulus_start();
    c0 = platform_bus_cycles();
    wait_until(c0, cosim_arg_u64(argc, argv, "drain_ns", 0));
    if (drain_all(&dev, (unsigned)tr, &fs, &before) != 0)
        return 1;
    platform_report("records_before_reset", before);

    /* phase 2: after the reset of the sink's domain, every register at its reset value */
    wait_until(c0, cosim_arg_u64(argc, argv, "check_ns", 0));
    if (read_regs(&dev, (unsigned)tr, m, "after_reset", after) != 0)
        return 1;
    for (i = 0; i <= NUM_REGS; i++)
        same = same && after[i] == power_on[i];
    platform_report("after_reset.same_as_power_on", same);
    if (start_sink(&dev, (unsigned)tr, argc, argv, wm) != 0)
        return 1;
    while (got2 < n2 && idle < 50) {
        uint64_t was = got2;
        COSIM_TRY(jointer_trace_relay(&dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], 5, to_file,
                                      &fs, &got2));
        idle = got2 == was ? idle + 1 : 0;
    }

    /* phase 3: off the bus while the bus domain is reset, then drain */
    if (n3 != 0) {
        wait_until(c0, cosim_arg_u64(argc, argv, "final_ns", 0));
        if (drain_all(&dev, (unsigned)tr, &fs, &got3) != 0)
            return 1;
    }
    platform_stimulus_wait();
    COSIM_TRY(jointer_sink_stop(&dev, (unsigned)tr));
    if (drain_all(&dev, (unsigned)tr, &fs, n3 != 0 ? &got3 : &got2) != 0)
        return 1;
    COSIM_TRY(jointer_sink_status(&dev, (unsigned)tr, &status, &wptr, &lost));
    COSIM_TRY(jointer_tfile_finish(fs.f, &fs.h, lost));
    COSIM_TRY(jointer_read(&dev, (unsigned)m, &v));
    platform_report("batch2.records", got2);
    if (n3 != 0)
        platform_report("batch3.records", got3);
    platform_report("lost", lost);
    platform_report("sink_error", (status & JOINTER_SINK_STATUS_ERROR) != 0);
    platform_report("ev_count", v);

    /* the file read back: batch 1a, batch 2, batch 3 one after the other */
    if (cosim_read_back(fs.f, &h, back, MAX_RECORDS, &n) != 0)
        return 1;
    check_batch("batch1", 0, n1, n, (uint32_t)cosim_arg_u64(argc, argv, "base1", 0), every);
    check_batch("batch2", n1, n2, n, (uint32_t)cosim_arg_u64(argc, argv, "base2", 0), every);
    if (n3 != 0)
        check_batch("batch3", n1 + n2, n3, n, (uint32_t)cosim_arg_u64(argc, argv, "base3", 0), every);
    return 0;
}
