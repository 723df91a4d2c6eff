// SPDX-License-Identifier: MIT
/*
 * jointer_port_ring.c - the memory of a sink trace's ring on Linux, with no
 * kernel module of our own:
 *   - UIO: the device tree gives the monitor's UIO node the reserved-memory
 *     region as its second `reg` entry, so uio_pdrv_genirq exposes it as map1
 *     (/sys/class/uio/uioN/maps/map1/{addr,size}); mmap'ed at 1 * pagesize,
 *     uncached (UIO maps physical memory with pgprot_noncached);
 *   - /dev/mem: a physical range opened O_SYNC (uncached), for a region the
 *     user reserved by other means.
 * The result is what jointer_sink_start needs: the CPU's view, the bus
 * address and the size.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jointer_port_linux.h"

static int map_ring(jointer_ring_map *ring, const char *path, uint64_t offset, uint64_t addr,
                    uint64_t size, int flags)
{
    int fd;
    void *m;

    if (size == 0 || size > 0xFFFFFFFFu || addr > 0xFFFFFFFFu - (size - 1u)
        || (addr & 0xFFFu) != 0 || (size & 0xFFFu) != 0 || (uint64_t)(size_t)size != size)
        return -EINVAL; /* the sink's BASE/SIZE: 32 bits, 4 KB granules */
    fd = open(path, O_RDWR | O_CLOEXEC | flags);
    if (fd < 0)
        return jointer__errno();
    m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    close(fd); /* the mapping stays */
    if (m == MAP_FAILED)
        return jointer__errno();
    ring->mem = m;
    ring->bus_addr = (uint32_t)addr;
    ring->size = (uint32_t)size;
    return 0;
}

int jointer_uio_ring_open(jointer_ring_map *ring, const char *path, const jointer_uio_params *params)
{
    const char *root = params != NULL && params->sysfs_root != NULL ? params->sysfs_root : "/sys/class/uio";
    unsigned map = params != NULL && params->map != 0 ? params->map : 1u;
    const char *name;
    char dir[512], found[512];
    unsigned long long addr, size;
    long page = sysconf(_SC_PAGESIZE);
    int r;

    if (ring == NULL || path == NULL || page <= 0)
        return -EINVAL;
    memset(ring, 0, sizeof *ring);
    r = jointer__uio_path(path, params, found, sizeof found, &path);
    if (r < 0)
        return r;
    name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    if (strncmp(name, "uio", 3) != 0
        || snprintf(dir, sizeof dir, "%s/%s/maps/map%u", root, name, map) >= (int)sizeof dir)
        return -EINVAL;
    r = jointer__read_attr(dir, "addr", &addr);
    if (r == 0)
        r = jointer__read_attr(dir, "size", &size);
    if (r < 0)
        return r == -ENOENT ? -ENODEV : r; /* no map1: the device tree has no ring */
    return map_ring(ring, path, (uint64_t)map * (uint64_t)page, addr, size, 0);
}

int jointer_devmem_ring_open(jointer_ring_map *ring, uint64_t phys, uint32_t size, const char *mem_path)
{
    if (ring == NULL)
        return -EINVAL;
    memset(ring, 0, sizeof *ring);
    if (sizeof(off_t) < 8 && phys > 0x7FFFFFFFu)
        return -EINVAL;
    return map_ring(ring, mem_path != NULL ? mem_path : "/dev/mem", phys, phys, size, O_SYNC);
}

int jointer_ring_close(jointer_ring_map *ring)
{
    int r = 0;

    if (ring == NULL)
        return -EINVAL;
    if (ring->mem != NULL && munmap((void *)(uintptr_t)ring->mem, ring->size) != 0)
        r = jointer__errno();
    memset(ring, 0, sizeof *ring);
    return r;
}
