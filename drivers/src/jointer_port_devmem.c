// SPDX-License-Identifier: MIT
/*
 * jointer_port_devmem.c - /dev/mem port (needs root or CAP_SYS_RAWIO; prefer
 * UIO). Maps exactly the pages that hold [phys, phys + span), O_SYNC so the
 * mapping is uncached. No interrupts: jointer_irq_wait polls.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jointer_port_linux.h"

int jointer_devmem_open(jointer_dev *dev, const jointer_cfg *cfg, uint64_t phys,
                        const char *mem_path, unsigned flags)
{
    long page = sysconf(_SC_PAGESIZE);
    uint64_t start, delta;
    jointer_port port;
    void *m;
    int r;

    if (dev == NULL || cfg == NULL || page <= 0 || (phys & 3u) != 0)
        return -EINVAL;
    start = phys & ~(uint64_t)(page - 1);
    delta = phys - start;
    if (sizeof(off_t) < 8 && start > 0x7FFFFFFFu)
        return -EINVAL;
    memset(&port, 0, sizeof port);
    port.fd = open(mem_path != NULL ? mem_path : "/dev/mem", O_RDWR | O_SYNC | O_CLOEXEC);
    if (port.fd < 0)
        return jointer__errno();
    port.irq_fd = -1;
    port.map_len = (size_t)((delta + cfg->span + (uint64_t)page - 1u) & ~(uint64_t)(page - 1));
    m = mmap(NULL, port.map_len, PROT_READ | PROT_WRITE, MAP_SHARED, port.fd, (off_t)start);
    if (m == MAP_FAILED) {
        r = jointer__errno();
        jointer__port_close(&port);
        return r;
    }
    port.map = m;
    return jointer__port_attach(dev, cfg, &port, (volatile uint8_t *)m + delta, NULL, flags);
}
