/* SPDX-License-Identifier: MIT */
/*
 * jointer_hosted.h - the hosted (Linux) parts of libjointer: the UIO and
 * /dev/mem ports and jointer_print_reg. jointer_open/jointer_close (in
 * jointer.h) dispatch to the ports.
 */
#ifndef JOINTER_HOSTED_H
#define JOINTER_HOSTED_H

#include <stdio.h>

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

/* Print CONTROL (decoded), STATUS, IRQ_STATUS and every result of LMIC
 * `lmic` (JOINTER_ALL_LMICS: all of them) to out. 0 or -errno. */
int jointer_print_reg(jointer_dev *dev, unsigned lmic, FILE *out);

/* CLOCK_MONOTONIC in ns (ctx unused): the clock of jointer_sink_sync on Linux,
 * the one Linux traces (ftrace, perf, Perfetto's) put their events on */
uint64_t jointer_monotonic_ns(void *ctx);

typedef struct jointer_uio_params {
    const char *sysfs_root; /* NULL: "/sys/class/uio" */
    const char *irq_path;   /* NULL: interrupts through the device itself;
                               tests: a pty standing in for it */
    unsigned map;           /* UIO map index (mmap offset map * pagesize) */
    const char *dev_root;   /* NULL: "/dev" (where uio:name= finds uioN; tests: a folder) */
} jointer_uio_params;

/*
 * The UIO device whose <sysfs_root>/uioN/name is `name` (the device-tree
 * node's name; what the spec "uio:name=<name>" means): path = "<dev_root>/uioN".
 * -ENOENT: no device of that name (or no UIO device at all); -ENOTUNIQ:
 * several. found (may be NULL; found_len bytes, truncated to fit) = every
 * UIO device seen, "uio0 (name0), uio3 (name3)" in the order of N: what an
 * error message names. params may be NULL.
 */
int jointer_uio_find(const char *name, const jointer_uio_params *params, char *path, size_t path_len,
                     char *found, size_t found_len);

/*
 * UIO port: path "/dev/uioN" or "name=<node-name>" (jointer_uio_find); reads <sysfs_root>/uioN/maps/mapK/{addr,size,
 * offset}, maps the region, checks it covers cfg->span, jointer_init()s the
 * device, then checks its identity (see jointer_open_ex). params may be NULL.
 * Interrupts: jointer_irq_wait arms with write(1) and waits with poll()+read().
 */
int jointer_uio_open(jointer_dev *dev, const jointer_cfg *cfg, const char *path,
                     const jointer_uio_params *params, unsigned flags);

/*
 * /dev/mem port: maps exactly the pages of [phys, phys + cfg->span) with
 * O_SYNC (uncached). mem_path NULL: "/dev/mem" (tests: a regular file).
 */
int jointer_devmem_open(jointer_dev *dev, const jointer_cfg *cfg, uint64_t phys,
                        const char *mem_path, unsigned flags);

/*
 * The ring of a sink trace (jointer_sink_start) on Linux.
 * jointer_uio_ring_open: UIO map `params->map` (0 or NULL params: map 1) of
 * /dev/uioN, the reserved-memory region the generated .dtsi gives the
 * monitor's node as its second `reg` (doc/integration.md "Trace sinks");
 * -ENODEV when the device has no such map. jointer_devmem_ring_open: the
 * physical range [phys, phys + size) through /dev/mem, O_SYNC (mem_path
 * NULL: "/dev/mem"). Both: 4 KB aligned, a multiple of 4 KB, below 4 GB.
 */
typedef struct jointer_ring_map {
    volatile void *mem;   /* the CPU's view (uncached) */
    uint32_t bus_addr;    /* the sink's BASE */
    uint32_t size;        /* bytes */
} jointer_ring_map;

int jointer_uio_ring_open(jointer_ring_map *ring, const char *path, const jointer_uio_params *params);
int jointer_devmem_ring_open(jointer_ring_map *ring, uint64_t phys, uint32_t size, const char *mem_path);
int jointer_ring_close(jointer_ring_map *ring);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_HOSTED_H */
