// SPDX-License-Identifier: MIT
/*
 * cosim_traces.c - the generic application's trace files (cosim_app.h):
 * every trace and sink of the monitor into <trace>.jtr in the run's
 * directory (the simulators run the application there), as `jointer trace
 * --follow -o` writes them on a board: libjointer's writer, the trace's
 * clock, lanes and spans, and a sink's host sync (its slot on the host's
 * clock of the co-simulation, cosim_host_ns: where a board has CLOCK_MONOTONIC).
 *
 * Before the run, cosim_traces_start starts each sink on the memory model
 * of its master port m_axi_<trace> (the scenario's `memories`; a sink
 * without one is said and left out) and syncs the sinks that have sync.
 * After the stop, cosim_traces_write stops the sinks, drains them, reads the
 * trace buffers (stop and ring: every record; relay: a drain to empty) and
 * reports "<trace>.file_records" (and "<trace>.syncs" of a synced sink).
 */
#include <string.h>

#include "cosim_app.h"

#define MAX_TRACES 64u

typedef struct trace_state {
    int started;                 /* a sink on its memory model */
    jointer_sink_ring ring;
    uint64_t before_ns, after_ns; /* its host sync */
    int synced;
} trace_state;

static trace_state state[MAX_TRACES];
static jointer_trace_record buf[65536];  /* the deepest trace buffer */

uint64_t cosim_host_ns(void)
{
    return COSIM_HOST_EPOCH_NS + platform_time_ps() / 1000u;
}

static uint64_t host_ns(void *ctx)
{
    (void)ctx;
    return cosim_host_ns();
}

static int start_sink(jointer_dev *dev, unsigned i)
{
    const jointer_trace_desc *t = &cosim_cfg->traces[i];
    char port[96];
    volatile void *mem;
    uint32_t bus, size;
    int r;

    snprintf(port, sizeof port, "m_axi_%s", t->name);
    if (platform_ring(port, &mem, &bus, &size) != 0) {
        printf("app: sink %s: no memory model on %s (scenario key memories): no trace file\n", t->name, port);
        return 0;
    }
    if (t->sink_ring_log2 != 0u && t->sink_ring_log2 < 32u && size > (UINT32_C(1) << t->sink_ring_log2))
        size = UINT32_C(1) << t->sink_ring_log2;
    r = jointer_sink_start(dev, i, &state[i].ring, mem, bus, size, 0);
    if (r == 0)
        state[i].started = 1;
    if (r == 0 && t->sync) {
        r = jointer_sink_sync(dev, i, host_ns, NULL, &state[i].before_ns, &state[i].after_ns);
        state[i].synced = r == 0;
    }
    return r;
}

int cosim_traces_start(jointer_dev *dev)
{
    unsigned i;
    int r = 0;

    memset(state, 0, sizeof state);
    for (i = 0; r == 0 && i < cosim_cfg->num_traces && i < MAX_TRACES; ++i)
        if (cosim_cfg->traces[i].sink_bytes != 0)
            r = start_sink(dev, i);
    return r;
}

/* every record of trace i into f (a sink: stopped, then drained) */
static int copy_records(jointer_dev *dev, unsigned i, FILE *f, jointer_tfile_header *h, uint32_t *lost)
{
    const jointer_trace_desc *t = &cosim_cfg->traces[i];
    uint32_t n = 0;
    int r = 0;

    *lost = 0;
    if (t->sink_bytes == 0 && !t->relay) { /* a buffer: every record, oldest first */
        r = jointer_trace_read(dev, i, buf, sizeof buf / sizeof buf[0], &n);
        return r == 0 ? jointer_tfile_append(f, h, buf, n) : r;
    }
    if (t->sink_bytes != 0)
        r = jointer_sink_stop(dev, i);
    do {
        n = 0;
        if (r == 0)
            r = jointer_trace_drain(dev, i, buf, sizeof buf / sizeof buf[0], &n);
        if (r == 0 && n != 0)
            r = jointer_tfile_append(f, h, buf, n);
    } while (r == 0 && n != 0);
    if (r == 0)
        r = jointer_trace_lost(dev, i, lost);
    if (t->sink_bytes != 0)
        (void)jointer_sink_detach(dev, i);
    return r;
}

static int write_trace(jointer_dev *dev, unsigned i)
{
    const jointer_trace_desc *t = &cosim_cfg->traces[i];
    jointer_tfile_header h;
    char path[96], name[96];
    uint32_t lost = 0;
    FILE *f;
    int r;

    snprintf(path, sizeof path, "%s.jtr", t->name);
    f = fopen(path, "w+b");
    if (f == NULL) {
        printf("app: cannot write %s\n", path);
        return -EIO;
    }
    r = jointer_tfile_header_init(&h, cosim_cfg, i);
    if (r == 0 && state[i].synced)
        r = jointer_tfile_add_sync(&h, state[i].before_ns, state[i].after_ns);
    if (r == 0)
        r = jointer_tfile_write_header(f, &h);
    if (r == 0)
        r = copy_records(dev, i, f, &h, &lost);
    if (r == 0)
        r = jointer_tfile_finish(f, &h, lost);
    if (fclose(f) != 0 && r == 0)
        r = -EIO;
    snprintf(name, sizeof name, "%s.file_records", t->name);
    platform_report(name, h.records);
    if (state[i].synced) {
        snprintf(name, sizeof name, "%s.syncs", t->name);
        platform_report(name, h.num_syncs);
    }
    printf("app: trace %s: %llu records to %s\n", t->name, (unsigned long long)h.records, path);
    return r;
}

int cosim_traces_write(jointer_dev *dev)
{
    unsigned i;
    int r = 0;

    for (i = 0; r == 0 && i < cosim_cfg->num_traces && i < MAX_TRACES; ++i)
        if (cosim_cfg->traces[i].sink_bytes == 0 || state[i].started)
            r = write_trace(dev, i);
    return r;
}
