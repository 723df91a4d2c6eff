/*
 * jointer_open.c - jointer_open(): "uio:/dev/uioN" or "devmem:ADDR", and the
 * glue the Linux ports share.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jointer_port_linux.h"

int jointer__errno(void)
{
    return errno > 0 ? -errno : -EIO;
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

int jointer__port_attach(jointer_dev *dev, const jointer_cfg *cfg, const jointer_port *port,
                         volatile void *base, const jointer_io_ops *ops, unsigned flags)
{
    jointer_io io = jointer_io_direct(base);
    jointer_port p = *port;
    int r;

    io.ops = ops;
    io.ctx = &dev->port;
    p.close = jointer__port_close;
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

int jointer_open(jointer_dev *dev, const jointer_cfg *cfg, const char *spec)
{
    return jointer_open_ex(dev, cfg, spec, 0);
}

int jointer_open_ex(jointer_dev *dev, const jointer_cfg *cfg, const char *spec, unsigned flags)
{
    if (dev == NULL || cfg == NULL || spec == NULL)
        return -EINVAL;
    if (strncmp(spec, "uio:", 4) == 0)
        return jointer_uio_open(dev, cfg, spec + 4, NULL, flags);
    if (strcmp(spec, "devmem") == 0)
        return jointer_devmem_open(dev, cfg, cfg->base_address, NULL, flags);
    if (strncmp(spec, "devmem:", 7) == 0) {
        char *end;
        unsigned long long a;
        errno = 0;
        a = strtoull(spec + 7, &end, 0);
        if (errno != 0 || end == spec + 7 || *end != '\0')
            return -EINVAL;
        return jointer_devmem_open(dev, cfg, (uint64_t)a, NULL, flags);
    }
    return -EINVAL;
}
