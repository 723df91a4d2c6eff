// SPDX-License-Identifier: MIT
/*
 * jointer_descfile_load.c - descriptor files on a hosted (Linux) system:
 * load one into a malloc'd block, find one by config hash in a search path,
 * and jointer_desc_resolve, the one answer to "which descriptor for this
 * device" the generic CLI and the Python package share
 * (doc/descriptor-file.md).
 *
 * Test hooks (environment, as the CLI's): JOINTER_UIO_SYSFS replaces
 * /sys/class/uio, JOINTER_UIO_DEV /dev (uio:name=), JOINTER_DEVMEM_PATH replaces /dev/mem for the bootstrap open.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64  /* readdir on 32-bit systems over 64-bit directory offsets (ext4) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jointer_descfile.h"
#include "jointer_hosted.h"

/* one block: the jointer_cfg, then the arena, then the file's bytes */
typedef struct loaded {
    jointer_cfg cfg;
    size_t size;
    union {
        uint64_t u;
        long double d;
        const void *p;
    } data[1];
} loaded;

/* ---- load ----------------------------------------------------------------- */

/* path opened for reading only when it is a regular file: a directory is
 * -EISDIR, a FIFO or socket -ESPIPE (refused at once: opened O_NONBLOCK, a
 * FIFO without a writer does not block), a device -ENODEV (/dev/zero would
 * never end) */
static int open_regular(const char *path, FILE **f)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK), e, flags;

    if (fd < 0)
        return -(errno != 0 ? errno : EIO);
    e = fstat(fd, &st) != 0 ? -errno
        : S_ISDIR(st.st_mode) ? -EISDIR
        : S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ? -ESPIPE
        : !S_ISREG(st.st_mode) ? -ENODEV : 0;
    if (e == 0 && ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0))
        e = -errno;
    if (e == 0 && (*f = fdopen(fd, "rb")) == NULL)
        e = -errno;
    if (e != 0)
        close(fd);
    return e;
}

static int read_all(const char *path, unsigned char **bytes, size_t *len)
{
    FILE *f = NULL;
    unsigned char *b;
    size_t n;
    int r = open_regular(path, &f);

    if (r < 0)
        return r;
    b = (unsigned char *)malloc(JOINTER_DESCFILE_MAX + 1u);
    if (b == NULL) {
        fclose(f);
        return -ENOMEM;
    }
    n = fread(b, 1, JOINTER_DESCFILE_MAX + 1u, f);
    if (ferror(f))
        r = -EIO;
    else if (n > JOINTER_DESCFILE_MAX)
        r = -EFBIG;
    fclose(f);
    if (r < 0) {
        free(b);
        return r;
    }
    *bytes = b;
    *len = n;
    return 0;
}

static int load_bytes(const unsigned char *bytes, size_t len, jointer_cfg **out)
{
    size_t need;
    loaded *l;
    unsigned char *arena;
    int r = jointer_descfile_arena_size(bytes, len, &need);

    if (r < 0)
        return r;
    l = (loaded *)malloc(sizeof *l + need + len);
    if (l == NULL)
        return -ENOMEM;
    arena = (unsigned char *)l->data;
    memcpy(arena + need, bytes, len);       /* the strings point into this copy */
    r = jointer_descfile_parse(arena + need, len, arena, need, &l->cfg);
    if (r < 0) {
        free(l);
        return r;
    }
    l->size = len;
    *out = &l->cfg;
    return 0;
}

int jointer_descfile_load(const char *path, jointer_cfg **out)
{
    unsigned char *bytes = NULL;
    size_t len = 0;
    int r;

    if (path == NULL || out == NULL)
        return -EINVAL;
    r = read_all(path, &bytes, &len);
    if (r < 0)
        return r;
    r = load_bytes(bytes, len, out);
    free(bytes);
    return r;
}

void jointer_descfile_free(jointer_cfg *cfg)
{
    free(cfg);   /* the block starts with its jointer_cfg */
}

/* ---- find by config hash ------------------------------------------------------ */

static int is_jdesc(const char *name)
{
    size_t n = strlen(name);
    return n > 6u && strcmp(name + n - 6u, ".jdesc") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the *.jdesc names of dir, sorted (a deterministic answer); caller frees */
static int list_dir(const char *dir, char ***names, size_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **v = NULL;
    size_t n = 0, cap = 0;

    if (d == NULL)
        return -ENOENT;
    while ((e = readdir(d)) != NULL) {
        if (!is_jdesc(e->d_name))
            continue;
        if (n == cap) {
            char **w = (char **)realloc(v, (cap = cap * 2u + 8u) * sizeof *v);
            if (w == NULL)
                break;
            v = w;
        }
        v[n] = (char *)malloc(strlen(e->d_name) + 1u);
        if (v[n] == NULL)
            break;
        strcpy(v[n], e->d_name);
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(v, n, sizeof *v, by_name);
    *names = v;
    *count = n;
    return 0;
}

static int find_in_dir(const char *dir, uint32_t hash, jointer_cfg **out, char *path, size_t path_len)
{
    char **names;
    size_t n, i;
    int r = -ENOENT;

    if (list_dir(dir, &names, &n) < 0)
        return -ENOENT;
    for (i = 0; i < n; i++) {
        char full[4096];
        jointer_cfg *c;
        if (r == -ENOENT && (size_t)snprintf(full, sizeof full, "%s/%s", dir, names[i]) < sizeof full
            && jointer_descfile_load(full, &c) == 0) {
            if (c->config_hash == hash) {
                *out = c;
                if (path != NULL && path_len > 0)
                    snprintf(path, path_len, "%s", full);
                r = 0;
            } else {
                jointer_descfile_free(c);
            }
        }
        free(names[i]);
    }
    free(names);
    return r;
}

int jointer_descfile_find(const char *dirs, uint32_t config_hash, jointer_cfg **out, char *path,
                          size_t path_len)
{
    const char *p = dirs;

    if (dirs == NULL || out == NULL)
        return -EINVAL;
    while (*p != '\0') {
        const char *end = strchr(p, ':');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        char dir[4096];
        if (n > 0 && n < sizeof dir) {
            memcpy(dir, p, n);
            dir[n] = '\0';
            if (find_in_dir(dir, config_hash, out, path, path_len) == 0)
                return 0;
        }
        p += n;
        if (*p == ':')
            p++;
    }
    return -ENOENT;
}

/* ---- resolve ------------------------------------------------------------------ */

/* the global window only: enough to read the identity and the descriptor ROM */
static const jointer_lmic_desc boot_lmic = {"global", 0u, 0u, 0u, 0u, 0u, NULL};
static const jointer_sniffer_desc boot_sniffer = {"none", 0u, 0u, 0u, 0u, 0u, 0u};
static const jointer_cfg boot_cfg = {"bootstrap", 0u, JOINTER_VERSION_VALUE, 1u, 64u, 64u, 0u, 0u,
                                     &boot_lmic, &boot_sniffer, NULL, NULL, 1u, 0u, 0u, 0u, 0u};

static int open_boot(jointer_dev *dev, const char *spec)
{
    if (spec == NULL)
        return -EINVAL;
    if (strncmp(spec, "uio:", 4) == 0) {
        jointer_uio_params p = {NULL, NULL, 0, NULL};
        p.sysfs_root = getenv("JOINTER_UIO_SYSFS");
        p.dev_root = getenv("JOINTER_UIO_DEV");
        return jointer_uio_open(dev, &boot_cfg, spec + 4, &p, JOINTER_FORCE);
    }
    if (strncmp(spec, "devmem:", 7) == 0) {
        char *end;
        unsigned long long a;
        errno = 0;
        a = strtoull(spec + 7, &end, 0);
        if (errno != 0 || end == spec + 7 || *end != '\0' || spec[7] == '-' || spec[7] == '+')
            return -EINVAL;
        return jointer_devmem_open(dev, &boot_cfg, (uint64_t)a, getenv("JOINTER_DEVMEM_PATH"), JOINTER_FORCE);
    }
    return -EINVAL;   /* "devmem" alone: the base address is the descriptor's */
}

static void say(char *from, size_t from_len, const char *what, const char *path)
{
    if (from != NULL && from_len > 0)
        snprintf(from, from_len, "%s%s%s", what, path != NULL ? " " : "", path != NULL ? path : "");
}

static int from_rom(jointer_dev *dev, jointer_cfg **out)
{
    unsigned char *buf = (unsigned char *)malloc(JOINTER_DESCFILE_MAX);
    size_t len = 0;
    int r;

    if (buf == NULL)
        return -ENOMEM;
    r = jointer_descrom_read(dev, buf, JOINTER_DESCFILE_MAX, &len);
    if (r == 0)
        r = load_bytes(buf, len, out);
    free(buf);
    return r;
}

/* the device's identity (and descriptor from its ROM when it has one) */
static int probe(const char *spec, jointer_ident *id, jointer_cfg **rom)
{
    jointer_dev dev;
    int r = open_boot(&dev, spec);

    *rom = NULL;
    if (r < 0)
        return r;
    r = jointer_identify(&dev, id);
    if (r == 0 && (id->info & JOINTER_INFO_DESC_ROM) && from_rom(&dev, rom) < 0)
        *rom = NULL;
    jointer_close(&dev);
    return r;
}

int jointer_desc_probe(const char *device_spec, jointer_ident *id)
{
    jointer_dev dev;
    int r;

    if (id == NULL)
        return -EINVAL;
    r = open_boot(&dev, device_spec);
    if (r < 0)
        return r;
    r = jointer_identify(&dev, id);
    jointer_close(&dev);
    return r;
}

static int given_file(const char *spec, const char *path, unsigned flags, jointer_cfg **out)
{
    jointer_ident id;
    jointer_cfg *c, *rom;
    int r = jointer_descfile_load(path, &c);

    if (r < 0)
        return r;
    if (probe(spec, &id, &rom) == 0 && id.id == JOINTER_ID_VALUE && id.config_hash != c->config_hash
        && !(flags & JOINTER_DESC_FORCE)) {
        jointer_descfile_free(rom);
        jointer_descfile_free(c);
        return -ESTALE;
    }
    jointer_descfile_free(rom);
    *out = c;
    return 0;
}

int jointer_desc_resolve(const char *device_spec, const char *desc_file, unsigned flags, jointer_cfg **out,
                         char *from, size_t from_len)
{
    const char *env = getenv("JOINTER_DESC");
    const char *dirs = getenv("JOINTER_DESC_PATH");
    jointer_ident id;
    jointer_cfg *rom;
    char path[4096];
    int r;

    if (out == NULL)
        return -EINVAL;
    if (desc_file == NULL && env != NULL && env[0] != '\0')
        desc_file = env;
    if (desc_file != NULL) {
        r = given_file(device_spec, desc_file, flags, out);
        if (r == 0)
            say(from, from_len, "file", desc_file);
        return r;
    }
    r = probe(device_spec, &id, &rom);
    if (r < 0)
        return r;
    if (id.id != JOINTER_ID_VALUE)
        return -ENODEV;
    if (rom != NULL) {
        *out = rom;
        say(from, from_len, "rom", NULL);
        return 0;
    }
    r = jointer_descfile_find(dirs != NULL && dirs[0] != '\0' ? dirs : JOINTER_DESC_DIRS, id.config_hash, out,
                              path, sizeof path);
    if (r == 0)
        say(from, from_len, "search", path);
    return r;
}
