/* SPDX-License-Identifier: MIT */
/*
 * jointer_descfile.h - a monitor's descriptor (jointer_cfg) read at run time
 * from its descriptor file <name>.jdesc (doc/descriptor-file.md), so one
 * program serves every monitor.
 *
 * Portable part (drivers/src/jointer_descfile.c, bare metal too, no malloc):
 * parse a buffer into a jointer_cfg whose tables live in the caller's arena
 * and whose strings point into the buffer. Hosted part
 * (drivers/src/jointer_descfile_load.c, Linux): load a file, find one by
 * config hash, resolve the descriptor of a device.
 */
#ifndef JOINTER_DESCFILE_H
#define JOINTER_DESCFILE_H

#include <stddef.h>
#include <stdint.h>

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

#define JOINTER_DESCFILE_MAGIC   "JDSC"
#define JOINTER_DESCFILE_FORMAT  3u        /* the format jointer-gen writes: 64-bit filter
                                            * bounds, a sniffer's data width (2), a trace's
                                            * lanes, spans and clock name (3) */
#define JOINTER_DESCFILE_FORMAT_MIN 1u     /* the oldest one read (32-bit bounds) */
#define JOINTER_DESCFILE_HEADER  64u       /* header bytes */
#define JOINTER_DESCFILE_MAX     (1u << 20) /* jointer_descfile_load's size limit */

/*
 * Errors of both: -EINVAL truncated or malformed (an offset, count or index
 * outside the file or its tables), -EILSEQ not a descriptor (bad magic),
 * -EPROTONOSUPPORT another format version, -EBADMSG CRC mismatch,
 * parse only: -ENOSPC arena smaller than jointer_descfile_arena_size's.
 * buf may hold more bytes than the file (a padded ROM): the rest is ignored.
 */
int jointer_descfile_arena_size(const void *buf, size_t len, size_t *need);
/* tables live in arena, strings point into buf: both must outlive cfg */
int jointer_descfile_parse(const void *buf, size_t len, void *arena, size_t arena_len, jointer_cfg *cfg);

/* ---- hosted (Linux): drivers/src/jointer_descfile_load.c -------------------- */

/* read and parse a file (at most JOINTER_DESCFILE_MAX bytes) into one malloc'd
 * block; -errno of open/read, -EFBIG too large, or a parse error */
int jointer_descfile_load(const char *path, jointer_cfg **out);
void jointer_descfile_free(jointer_cfg *cfg);

/* the first *.jdesc (in directory order, sorted by name) of the ':'-separated
 * dirs whose config hash matches; path (may be NULL) receives its path.
 * -ENOENT none. Files that do not parse are skipped. */
int jointer_descfile_find(const char *dirs, uint32_t config_hash, jointer_cfg **out, char *path,
                          size_t path_len);

#ifndef JOINTER_DESC_DIRS
#define JOINTER_DESC_DIRS "/usr/share/jointer/desc:/usr/local/share/jointer/desc"
#endif

/* flags of jointer_desc_resolve */
#define JOINTER_DESC_FORCE 0x1u /* (JOINTER_FORCE) a file whose config hash is not the device's is used */

/*
 * Which descriptor for device_spec ("uio:/dev/uioN", "devmem:ADDR"): desc_file
 * if not NULL, else $JOINTER_DESC, else the device's descriptor ROM (INFO bit
 * JOINTER_INFO_DESC_ROM), else the first file of $JOINTER_DESC_PATH (default
 * JOINTER_DESC_DIRS) whose config hash is the device's CONFIG_HASH. The device
 * is opened with a bootstrap descriptor (the global window only) to read its
 * identity, then closed; a given file is checked against it: -ESTALE when its
 * config hash differs (unless JOINTER_DESC_FORCE). When the device cannot be
 * opened a given file is still returned (the caller's open reports why).
 * from (may be NULL) receives "file PATH", "rom" or "search PATH".
 * *out is freed with jointer_descfile_free.
 */
int jointer_desc_resolve(const char *device_spec, const char *desc_file, unsigned flags, jointer_cfg **out,
                         char *from, size_t from_len);

/* the identity (ID, VERSION, CONFIG_HASH, INFO) of the device at device_spec,
 * read through the bootstrap descriptor (the global window only) */
int jointer_desc_probe(const char *device_spec, jointer_ident *id);

/* ---- descriptor ROM (drivers/src/jointer_descrom.c) ------------------------- */

#ifndef JOINTER_INFO_DESC_ROM
#define JOINTER_INFO_DESC_ROM 0x00100000u /* INFO bit 20: the monitor holds its .jdesc in a ROM */
#endif

/* the .jdesc bytes of the monitor's ROM into buf (cap bytes), *len = file
 * length; -ENOTSUP no ROM */
int jointer_descrom_read(jointer_dev *dev, void *buf, size_t cap, size_t *len);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_DESCFILE_H */
