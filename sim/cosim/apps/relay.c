// SPDX-License-Identifier: MIT
/*
 * relay.c - the lossless trace relay (scenarios relay_follow, relay_slow;
 * scenarios/configs/cosim_relay.yaml): the host drains a relay trace into a
 * trace file (drivers/include/jointer_trace_file.h) while the producer runs.
 *
 * The producer (the scenario's stimulus, described again by the arguments
 * bursts=B per=P every=E period=T first=S base=V): burst b (b < B) emits P
 * events, one every E cycles of the trace's clock from cycle S + b x T on,
 * with the values V x (b + 1) + k (k < P).
 *
 * mode=follow: watermark W (arg watermark), the watermark/full interrupt
 *   enabled, then jointer_trace_relay steps (wait for the interrupt, drain to
 *   empty, append to the file) while the stimulus runs, until every event is
 *   in the file (or 50 idle steps). Reports: records, lost, the file's
 *   header and records read back: every event, in order, with the timestamp
 *   distances of the schedule (E inside a burst, T - (P - 1) x E between
 *   bursts); faster_than_one_drain = some relay step needed a second drain
 *   for records that arrived during the first (the buffer holds more than
 *   any single FILL, so only new records make a second drain).
 * mode=slow: the host does not drain while the stimulus runs: the buffer
 *   keeps the first depth records, LOST counts the rest exactly; then one
 *   timed drain of the full buffer gives the drain throughput
 *   (drain_records_per_s, from the bus cycles it took).
 *
 * A sink trace (YAML mode: sink; arg trace=NAME) runs the same
 * modes through the same relay API: its ring is the scenario's memory model
 * (platform_ring), started with a watermark of W records; in mode slow the
 * ring keeps size/8 - 1 records and the sink's FIFO the next fifo records
 * (arg fifo), which reach the ring once the host has drained it: the drain
 * loops until nothing more comes. rate: records/s of the stimulus when every
 * record arrived and LOST is 0 (the trace clock's frequency / every).
 * sink_error: STATUS.ERROR at the end (a BRESP error stopped the sink; the
 * relay steps acknowledge its interrupt source with the watermark's).
 */
#include <stdio.h>

#include "cosim_app.h"
#include "jointer_trace_file.h"

#define MAX_RECORDS 4096u

static jointer_trace_record buf[1024];
static jointer_trace_record back[MAX_RECORDS];

typedef struct relay_state {
    FILE *f;
    jointer_tfile_header h;
    uint32_t calls;      /* sink calls in the current relay step */
    uint32_t multi;      /* relay steps with more than one drain */
} relay_state;

static int to_file(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    relay_state *s = ctx;
    s->calls++;
    return jointer_tfile_append(s->f, &s->h, rec, n);
}

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    relay_state st;
    const jointer_trace_desc *t;
    uint32_t bursts = (uint32_t)cosim_arg_u64(argc, argv, "bursts", 1);
    uint32_t per = (uint32_t)cosim_arg_u64(argc, argv, "per", 1);
    uint32_t every = (uint32_t)cosim_arg_u64(argc, argv, "every", 1);
    uint32_t period = (uint32_t)cosim_arg_u64(argc, argv, "period", 1);
    uint32_t base = (uint32_t)cosim_arg_u64(argc, argv, "base", 0x10000);
    uint32_t wm = (uint32_t)cosim_arg_u64(argc, argv, "watermark", 16);
    const char *mode = cosim_arg(argc, argv, "mode");
    int slow = mode != NULL && mode[0] == 's';
    uint32_t total = bursts * per, lost = 0, n = 0, k, i, ok, idle = 0, expect_n;
    uint64_t drained = 0, c0, c1;
    jointer_tfile_header h;
    int tr, m;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    const char *tname = cosim_arg(argc, argv, "trace");
    static jointer_sink_ring ring;
    volatile void *mem;
    uint32_t ring_bus, ring_size;

    COSIM_TRY(tr = jointer_find_trace(cosim_cfg, tname != NULL ? tname : "ev_relay"));
    COSIM_TRY(m = jointer_find_metric(cosim_cfg, "ev_count"));
    t = &cosim_cfg->traces[tr];
    if (total > MAX_RECORDS || (!t->relay && t->sink_bytes == 0))
        return 1;
    st.f = tmpfile();
    st.calls = st.multi = 0;
    if (st.f == NULL)
        return 1;
    COSIM_TRY(jointer_tfile_header_init(&st.h, cosim_cfg, (unsigned)tr));
    COSIM_TRY(jointer_tfile_write_header(st.f, &st.h));
    if (t->sink_bytes != 0) {
        COSIM_TRY(platform_ring(NULL, &mem, &ring_bus, &ring_size));
        COSIM_TRY(jointer_sink_start(&dev, (unsigned)tr, &ring, mem, ring_bus, ring_size, 8u * wm));
    } else {
        COSIM_TRY(jointer_trace_set_watermark(&dev, (unsigned)tr, wm));
    }
    COSIM_TRY(jointer_irq_enable(&dev, t->lmic, 3u << (unsigned)t->irq_bit));
    COSIM_TRY(jointer_run(&dev, t->lmic));
    platform_stimulus_start();
    if (!slow) {
        while (drained < total && idle < 50) {
            uint64_t before = drained;
            st.calls = 0;
            COSIM_TRY(jointer_trace_relay(&dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], 5,
                                          to_file, &st, &drained));
            st.multi += st.calls > 1;
            idle = drained == before ? idle + 1 : 0;
        }
        platform_stimulus_wait();
        if (t->sink_bytes != 0) { /* what is still in the sink's FIFO: stop, then drain the rest */
            COSIM_TRY(jointer_sink_stop(&dev, (unsigned)tr));
            do {
                COSIM_TRY(jointer_trace_drain(&dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], &n));
                COSIM_TRY(jointer_tfile_append(st.f, &st.h, buf, n));
                drained += n;
            } while (n != 0);
        }
    } else {
        platform_stimulus_wait();
        platform_wait_ns(2000); /* the last events reach the buffer (a sink: its flush timeout) */
        c0 = platform_bus_cycles();
        COSIM_TRY(jointer_trace_drain(&dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], &n));
        c1 = platform_bus_cycles();
        COSIM_TRY(jointer_tfile_append(st.f, &st.h, buf, n));
        drained = n;
        for (k = n; t->sink_bytes != 0 && k != 0; drained += k) { /* the FIFO's records follow */
            platform_wait_ns(2000);
            COSIM_TRY(jointer_trace_drain(&dev, (unsigned)tr, buf, sizeof buf / sizeof buf[0], &k));
            COSIM_TRY(jointer_tfile_append(st.f, &st.h, buf, k));
        }
        platform_report("drain_records", n);
        platform_report("drain_bus_cycles", c1 - c0);
        if (c1 > c0 && cosim_cfg->bus_clock_hz != 0)
            platform_report("drain_records_per_s", (uint64_t)n * cosim_cfg->bus_clock_hz / (c1 - c0));
    }
    if (t->sink_bytes != 0) {
        uint32_t status, wptr;
        COSIM_TRY(jointer_sink_status(&dev, (unsigned)tr, &status, &wptr, &lost));
        platform_report("sink_error", (status & JOINTER_SINK_STATUS_ERROR) != 0);
    }
    COSIM_TRY(jointer_trace_lost(&dev, (unsigned)tr, &lost));
    COSIM_TRY(jointer_tfile_finish(st.f, &st.h, lost));
    {
        uint64_t v;
        COSIM_TRY(jointer_read(&dev, (unsigned)m, &v));
        platform_report("ev_count", v);
    }
    platform_report("records", drained);
    platform_report("lost", lost);
    if (!slow && lost == 0 && drained == total && t->clock_hz != 0)
        platform_report("rate_records_per_s", (uint64_t)t->clock_hz / every);
    if (!slow)
        platform_report("faster_than_one_drain", st.multi > 0);

    /* the file, read back */
    if (cosim_read_back(st.f, &h, back, MAX_RECORDS, &n) != 0)
        return 1;
    platform_report("file.header_records", h.records);
    platform_report("file.identity", h.config_hash == cosim_cfg->config_hash && h.depth == t->depth
                                     && h.clock_hz == t->clock_hz);
    /* the events expected in the file: all of them, or the first depth (slow;
     * a sink: the ring's size/8 - 1 and the FIFO's) */
    expect_n = t->sink_bytes != 0
               ? (uint32_t)cosim_arg_u64(argc, argv, "ring_units", 0) - 1u
                 + (uint32_t)cosim_arg_u64(argc, argv, "fifo", 0)
               : t->depth;
    expect_n = slow && total > expect_n ? expect_n : total;
    ok = n == expect_n;
    for (i = 0; ok && i < n; i++)
        ok = back[i].data == base * (i / per + 1u) + i % per;
    platform_report("file.every_event_in_order", ok);
    ok = n == expect_n;
    for (i = 1; ok && i < n; i++)
        ok = back[i].timestamp - back[i - 1].timestamp
             == (i % per != 0 ? every : period - (per - 1u) * every);
    platform_report("file.timestamps_on_schedule", ok);
    return 0;
}
