/* SPDX-License-Identifier: MIT */
/*
 * jointer_port_linux.h - helpers shared by the Linux ports (not installed).
 */
#ifndef JOINTER_PORT_LINUX_H
#define JOINTER_PORT_LINUX_H

#include "jointer_hosted.h"

/* unmap and close what a port opened (jointer_port.close) */
int jointer__port_close(jointer_port *port);
/* init the device over the mapped area and check its identity; closes the
 * port on failure */
int jointer__port_attach(jointer_dev *dev, const jointer_cfg *cfg, const jointer_port *port,
                         volatile void *base, const jointer_io_ops *ops, unsigned flags);
/* a number from the sysfs attribute dir/name ("0x43c00000\n", "4096\n");
 * 0 or -errno (-EIO: not a number) */
int jointer__read_attr(const char *dir, const char *name, unsigned long long *value);
/* -errno of the last failed call, never 0 */
int jointer__errno(void);
/* path of a UIO port: "name=<n>" resolved (jointer_uio_find) into buf, else path itself */
int jointer__uio_path(const char *path, const jointer_uio_params *params, char *buf, size_t len,
                      const char **out);

#endif
