// SPDX-License-Identifier: MIT
/*
 * jointer_open.c - jointer_open(): "uio:/dev/uioN", "devmem:ADDR" or
 * "devmem" (the descriptor's base address), dispatched to the UIO and
 * /dev/mem ports. The glue the ports share is jointer_port_linux.c: the
 * ports never call back into this file.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jointer_port_linux.h"

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
        if (errno != 0 || end == spec + 7 || *end != '\0' || spec[7] == '-' || spec[7] == '+')
            return -EINVAL;
        return jointer_devmem_open(dev, cfg, (uint64_t)a, NULL, flags);
    }
    return -EINVAL;
}
