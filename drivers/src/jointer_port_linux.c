// SPDX-License-Identifier: MIT
/*
 * jointer_port_linux.c - the glue the Linux ports (UIO, /dev/mem) share:
 * -errno, sysfs numbers, closing a port, the lock of a shared device (flock on
 * the device's file, as other UIO users do: it excludes other processes and
 * other opens of the device in this one), and attaching a mapped port to a
 * device (init + identity check). Called by the ports only (jointer_port_linux.h).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE   /* flock */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "jointer_port_linux.h"

int jointer__errno(void)
{
    return errno > 0 ? -errno : -EIO;
}

uint64_t jointer_monotonic_ns(void *ctx)
{
    struct timespec ts;

    (void)ctx;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* a number from a sysfs attribute ("0x43c00000\n", "4096\n"); 0 or -errno */
int jointer__read_attr(const char *dir, const char *name, unsigned long long *value)
{
    char path[512], buf[64], *end;
    ssize_t n;
    int fd;

    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return -ENAMETOOLONG;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return jointer__errno();
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -EIO;
    buf[n] = '\0';
    errno = 0;
    *value = strtoull(buf, &end, 0);
    if (errno != 0 || end == buf || (*end != '\0' && *end != '\n'))
        return -EIO;
    return 0;
}

int jointer__port_close(jointer_port *port)
{
    int r = 0;

    if (port->map != NULL && munmap(port->map, port->map_len) != 0)
        r = jointer__errno();
    if (port->irq_fd >= 0 && port->irq_fd != port->fd)
        close(port->irq_fd);
    if (port->fd >= 0 && close(port->fd) != 0 && r == 0)
        r = jointer__errno();
    port->map = NULL;
    port->map_len = 0;
    port->fd = -1;
    port->irq_fd = -1;
    return r;
}

static int port_lock(jointer_port *port, int on)
{
    int r;

    do
        r = flock(port->fd, on ? LOCK_EX : LOCK_UN);
    while (r < 0 && errno == EINTR);
    return r < 0 ? jointer__errno() : 0;
}

int jointer__port_attach(jointer_dev *dev, const jointer_cfg *cfg, const jointer_port *port,
                         volatile void *base, const jointer_io_ops *ops, unsigned flags)
{
    jointer_io io = jointer_io_direct(base);
    jointer_port p = *port;
    int r;

    io.ops = ops;
    io.ctx = &dev->port;
    p.close = jointer__port_close;
    p.lock = port_lock;
    r = jointer_init(dev, cfg, &io); /* clears dev->port */
    dev->port = p;
    if (r == 0)
        r = jointer_selftest(dev, JOINTER_SELFTEST_NO_WRITE | (flags & JOINTER_FORCE), NULL);
    if (r < 0) {
        jointer__port_close(&dev->port);
        dev->port.close = NULL;
        dev->cfg = NULL;
        dev->fast_metrics = 0;
    }
    return r;
}
