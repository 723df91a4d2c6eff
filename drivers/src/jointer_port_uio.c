// SPDX-License-Identifier: MIT
/*
 * jointer_port_uio.c - Linux UIO port (preferred: no root, interrupts).
 *
 * /dev/uioN + /sys/class/uio/uioN/maps/mapK/{addr,size,offset}: the map is
 * mmap'ed at K * pagesize; the registers start at `offset` inside it (the
 * low bits of addr on kernels without the offset file). Interrupts: write a
 * 32-bit 1 to re-enable (arm), poll() for POLLIN with the timeout, read the
 * 32-bit event count.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jointer_port_linux.h"

static int uio_wait(void *ctx, int timeout_ms)
{
    jointer_port *port = ctx;
    uint32_t one = 1, count;
    struct pollfd pfd;
    ssize_t n;
    int r;

    if (write(port->irq_fd, &one, sizeof one) != (ssize_t)sizeof one) /* arm */
        return jointer__errno();
    pfd.fd = port->irq_fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    do
        r = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r < 0)
        return jointer__errno();
    if (r == 0)
        return -ETIMEDOUT;
    if ((pfd.revents & POLLIN) == 0)
        return -EIO;
    n = read(port->irq_fd, &count, sizeof count);
    if (n != (ssize_t)sizeof count)
        return n < 0 ? jointer__errno() : -EIO;
    port->irq_count = count;
    return 0;
}

static const jointer_io_ops uio_ops = {NULL, NULL, uio_wait};

int jointer_uio_open(jointer_dev *dev, const jointer_cfg *cfg, const char *path,
                     const jointer_uio_params *params, unsigned flags)
{
    const char *root = params != NULL && params->sysfs_root != NULL ? params->sysfs_root : "/sys/class/uio";
    unsigned map = params != NULL ? params->map : 0u;
    const char *name, *p;
    char dir[512], found[512];
    unsigned long long addr, size, offset;
    long page = sysconf(_SC_PAGESIZE);
    jointer_port port;
    void *m;
    int r;

    if (dev == NULL || cfg == NULL || path == NULL || page <= 0)
        return -EINVAL;
    r = jointer__uio_path(path, params, found, sizeof found, &path);
    if (r < 0)
        return r;
    name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    if (strncmp(name, "uio", 3) != 0 || name[3] == '\0')
        return -EINVAL;
    for (p = name + 3; *p != '\0'; p++)
        if (*p < '0' || *p > '9')
            return -EINVAL;
    if (snprintf(dir, sizeof dir, "%s/%s/maps/map%u", root, name, map) >= (int)sizeof dir)
        return -ENAMETOOLONG;
    r = jointer__read_attr(dir, "size", &size);
    if (r == 0)
        r = jointer__read_attr(dir, "addr", &addr);
    if (r < 0)
        return r;
    if (jointer__read_attr(dir, "offset", &offset) < 0)
        offset = addr & (unsigned long long)(page - 1);
    if (offset > size || size - offset < cfg->span || size > (unsigned long long)SIZE_MAX - (unsigned long long)page)
        return -EINVAL; /* the UIO region does not cover the monitor */

    memset(&port, 0, sizeof port);
    port.fd = open(path, O_RDWR | O_CLOEXEC);
    if (port.fd < 0)
        return jointer__errno();
    port.irq_fd = port.fd;
    if (params != NULL && params->irq_path != NULL) {
        port.irq_fd = open(params->irq_path, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (port.irq_fd < 0) {
            r = jointer__errno();
            close(port.fd);
            return r;
        }
    }
    port.map_len = (size_t)((offset + cfg->span + (unsigned long long)page - 1u)
                            & ~(unsigned long long)(page - 1));
    m = mmap(NULL, port.map_len, PROT_READ | PROT_WRITE, MAP_SHARED, port.fd, (off_t)map * (off_t)page);
    if (m == MAP_FAILED) {
        r = jointer__errno();
        port.map = NULL;
        jointer__port_close(&port);
        return r;
    }
    port.map = m;
    return jointer__port_attach(dev, cfg, &port, (volatile uint8_t *)m + offset, &uio_ops, flags);
}
