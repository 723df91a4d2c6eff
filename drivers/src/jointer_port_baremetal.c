// SPDX-License-Identifier: MIT
/*
 * jointer_port_baremetal.c - bare-metal port: the monitor at a physical
 * address, accessed with volatile loads and stores (no MMU mapping, or an
 * identity-mapped, uncached/device region). No OS header.
 */
#include "jointer.h"

int jointer_init_baremetal(jointer_dev *dev, const jointer_cfg *cfg, uintptr_t base)
{
    jointer_io io;

    if (cfg == NULL)
        return -EINVAL;
    if (base == 0)
        base = (uintptr_t)cfg->base_address;
    if (base == 0 || (base & 3u) != 0)
        return -EINVAL;
    io = jointer_io_direct((volatile void *)base);
    return jointer_init(dev, cfg, &io);
}
