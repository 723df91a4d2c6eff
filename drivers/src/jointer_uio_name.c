// SPDX-License-Identifier: MIT
/*
 * jointer_uio_name.c - UIO devices by name: "uio:name=<node-name>" finds the
 * /dev/uioN whose /sys/class/uio/uioN/name is <node-name> (the device-tree
 * node name uio_pdrv_genirq gives the device), so a program does not depend
 * on the boot order that numbers the devices. jointer_uio_open and
 * jointer_uio_ring_open resolve such a path here; the CLI and the Python
 * package call jointer_uio_find again to say what was found when it fails.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64  /* readdir on 32-bit systems over 64-bit directory offsets */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jointer_port_linux.h"

#define MAX_UIO 256u   /* devices looked at: more than any board has */

static int by_number(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* the N of every uioN entry of root, sorted; -errno when root cannot be read */
static int list_devices(const char *root, unsigned *num, unsigned *count)
{
    DIR *d = opendir(root);
    struct dirent *e;

    *count = 0;
    if (d == NULL)
        return jointer__errno();
    while ((e = readdir(d)) != NULL && *count < MAX_UIO) {
        const char *p = e->d_name + 3;
        char *end;
        unsigned long n;
        if (strncmp(e->d_name, "uio", 3) != 0 || *p < '0' || *p > '9')
            continue;
        n = strtoul(p, &end, 10);
        if (*end == '\0' && n < 1000000ul)
            num[(*count)++] = (unsigned)n;
    }
    closedir(d);
    qsort(num, *count, sizeof num[0], by_number);
    return 0;
}

/* <root>/uioN/name without its newline ("" when unreadable) */
static void device_name(const char *root, unsigned n, char *out, size_t len)
{
    char path[512];
    ssize_t got = -1;
    int fd;

    out[0] = '\0';
    if (snprintf(path, sizeof path, "%s/uio%u/name", root, n) >= (int)sizeof path)
        return;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        got = read(fd, out, len - 1);
        close(fd);
    }
    out[got > 0 ? got : 0] = '\0';
    out[strcspn(out, "\n")] = '\0';
}

/* append "uioN (name)" to the list of what was found: whole entries that fit */
static void note(char *found, size_t len, unsigned n, const char *name)
{
    size_t used;
    int need;

    if (found == NULL || len == 0)
        return;
    used = strlen(found);
    need = snprintf(NULL, 0, "%suio%u (%s)", used ? ", " : "", n, name);
    if (need > 0 && used + (size_t)need < len)
        snprintf(found + used, len - used, "%suio%u (%s)", used ? ", " : "", n, name);
}

int jointer_uio_find(const char *name, const jointer_uio_params *params, char *path, size_t path_len,
                     char *found, size_t found_len)
{
    const char *root = params != NULL && params->sysfs_root != NULL ? params->sysfs_root : "/sys/class/uio";
    const char *dev = params != NULL && params->dev_root != NULL ? params->dev_root : "/dev";
    unsigned num[MAX_UIO], count, i, matches = 0, match = 0;
    char have[256];
    int r;

    if (found != NULL && found_len > 0)
        found[0] = '\0';
    if (name == NULL || name[0] == '\0' || path == NULL || path_len == 0)
        return -EINVAL;
    r = list_devices(root, num, &count);
    if (r < 0)
        return r == -ENOTDIR ? -ENOENT : r;
    for (i = 0; i < count; i++) {
        device_name(root, num[i], have, sizeof have);
        note(found, found_len, num[i], have);
        if (strcmp(have, name) == 0) {
            match = num[i];
            matches++;
        }
    }
    if (matches == 0)
        return -ENOENT;
    if (matches > 1)
        return -ENOTUNIQ;
    if (snprintf(path, path_len, "%s/uio%u", dev, match) >= (int)path_len)
        return -ENAMETOOLONG;
    return 0;
}

int jointer__uio_path(const char *path, const jointer_uio_params *params, char *buf, size_t len,
                      const char **out)
{
    int r;

    *out = path;
    if (strncmp(path, "name=", 5) != 0)
        return 0;
    r = jointer_uio_find(path + 5, params, buf, len, NULL, 0);
    if (r == 0)
        *out = buf;
    return r;
}
