// SPDX-License-Identifier: MIT
/*
 * jointer_cli_sink.c - `jointer trace T --follow` on a sink trace: map its
 * ring (the UIO device's map1, map2... in the order of the sink traces, or
 * --ring ADDR:SIZE through /dev/mem), start the sink on it, and at the end
 * stop it and drain the rest. The drain itself is the relay's
 * (jointer_trace_relay): one loop for both kinds; a compact sink's units go
 * to the file as they are (jointer_sink_relay_units).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jointer_cli.h"

static jointer_ring_map ring_map;
static jointer_sink_ring ring;

/* ADDR:SIZE (numbers in C syntax) */
static int parse_ring(const char *spec, uint64_t *addr, uint32_t *size)
{
    char *end;

    errno = 0;
    *addr = strtoull(spec, &end, 0);
    if (errno != 0 || end == spec || *end != ':')
        return -EINVAL;
    return cli_parse_u32(end + 1, size);
}

int cli_sink_begin(unsigned tr, const char *ring_spec, uint32_t wm_records)
{
    const char *dev = cli_device_spec;
    uint64_t addr;
    uint32_t size, wm;
    int r;

    if (ring_spec != NULL) {
        if (parse_ring(ring_spec, &addr, &size) < 0) {
            fprintf(stderr, "jointer: --ring must be ADDR:SIZE (bytes, 4 KB aligned), not \"%s\"\n", ring_spec);
            return 2;
        }
        r = jointer_devmem_ring_open(&ring_map, addr, size, getenv("JOINTER_DEVMEM_PATH"));
    } else if (dev != NULL && strncmp(dev, "uio:", 4) == 0) {
        /* the .dtsi gives the sinks' rings as the node's next reg entries, in trace order */
        jointer_uio_params p = {getenv("JOINTER_UIO_SYSFS"), NULL, 1, getenv("JOINTER_UIO_DEV")};
        unsigned k;

        for (k = 0; k < tr; k++)
            p.map += CFG->traces[k].sink_bytes != 0;
        r = jointer_uio_ring_open(&ring_map, dev + 4, &p);
        if (r == -ENODEV)
            fprintf(stderr, "jointer: %s has no map%u: give the monitor's node the ring's reserved-memory\n"
                            "  region as its reg entry %u (the generated .dtsi does), or use --ring ADDR:SIZE\n",
                    dev + 4, p.map, p.map + 1u);
    } else {
        fprintf(stderr, "jointer: trace --follow of a sink needs its ring: --device uio:/dev/uioN (map1)"
                        " or --ring ADDR:SIZE\n");
        return 2;
    }
    if (r < 0)
        return cli_fail(r, "ring");
    wm = wm_records != 0 ? 8u * wm_records : ring_map.size / 2u;
    if (wm_records > ring_map.size / 8u - 1u) {
        fprintf(stderr, "jointer: --watermark %" PRIu32 " beyond the ring (%" PRIu32 " units)\n", wm_records,
                ring_map.size / 8u - 1u);
        jointer_ring_close(&ring_map);
        return 2;
    }
    r = jointer_sink_start(&cli_dev, tr, &ring, ring_map.mem, ring_map.bus_addr, ring_map.size, wm);
    if (r < 0) {
        jointer_ring_close(&ring_map);
        return cli_fail(r, "sink start");
    }
    return 0;
}

int cli_sink_end(unsigned tr, jointer_trace_record *buf, uint64_t *units, uint32_t max,
                 jointer_trace_sink sink, jointer_unit_sink usink, void *ctx, uint64_t *drained)
{
    uint32_t n;
    int r = jointer_sink_stop(&cli_dev, tr);

    do { /* what reached the ring after the last relay step: records, or units when usink */
        n = 0;
        if (r == 0 && max != 0)
            r = usink != NULL ? jointer_sink_drain_units(&cli_dev, tr, units, max, &n)
                              : jointer_trace_drain(&cli_dev, tr, buf, max, &n);
        if (r == 0 && n != 0) {
            *drained += n;
            r = usink != NULL ? usink(ctx, units, n) : sink(ctx, buf, n);
        }
    } while (r == 0 && n != 0);
    (void)jointer_sink_detach(&cli_dev, tr);
    if (jointer_ring_close(&ring_map) < 0 && r == 0)
        r = -EIO;
    return r;
}
