// SPDX-License-Identifier: MIT
/*
 * jointer_descrom.c - the descriptor ROM reader (jointer_descfile.h).
 *
 * A monitor generated with `monitor.global.descriptor: rom` holds its
 * descriptor file (<name>.jdesc) in a ROM of the global block (INFO bit
 * JOINTER_INFO_DESC_ROM): write a word index to DESC_INDEX, read the word at
 * DESC_DATA (file byte 4i+k = bits 8k+7..8k of word i). This reads the
 * 16-byte head first for the file length (header offset 8), then every word,
 * so a host needs no file to know the monitor. Portable (bare metal too):
 * no allocation, the bytes go to the caller's buffer; every register access
 * error is returned. Checking the bytes (magic, version, CRC) is
 * jointer_descfile_parse's; only what the read itself needs is checked here.
 */
#include "jointer_descfile.h"
#include "jointer_internal.h"

#define HEAD_WORDS 4u                          /* magic, format/header size, length, CRC */
#define ROM_MAX_WORDS 65535u                   /* DESC_INDEX's range (the global block's limit) */

static void put_word(unsigned char *p, uint32_t w, size_t n)
{
    for (size_t k = 0; k < n; k++)
        p[k] = (unsigned char)(w >> (8u * k));
}

static int rom_word(jointer_dev *dev, uint32_t i, uint32_t *w)
{
    int r = wr(dev, JOINTER_REG_DESC_INDEX, i);
    return r < 0 ? r : rd(dev, JOINTER_REG_DESC_DATA, w);
}

/* the head's 16 bytes, *length its file length */
static int read_head(jointer_dev *dev, unsigned char head[4u * HEAD_WORDS], uint32_t *length)
{
    uint32_t w;
    int r;

    for (uint32_t i = 0; i < HEAD_WORDS; i++) {
        r = rom_word(dev, i, &w);
        if (r < 0)
            return r;
        put_word(head + 4u * i, w, 4);
    }
    if (head[0] != 'J' || head[1] != 'D' || head[2] != 'S' || head[3] != 'C')
        return -EILSEQ;   /* the ROM does not hold a descriptor file */
    *length = (uint32_t)head[8] | (uint32_t)head[9] << 8 | (uint32_t)head[10] << 16
              | (uint32_t)head[11] << 24;
    if (*length < 4u * HEAD_WORDS || *length > 4u * ROM_MAX_WORDS)
        return -EINVAL;   /* a length no ROM can hold */
    return 0;
}

int jointer_descrom_read(jointer_dev *dev, void *buf, size_t cap, size_t *len)
{
    unsigned char head[4u * HEAD_WORDS];
    unsigned char *out = buf;
    jointer_ident id;
    uint32_t length, w;
    int r;

    if (!ready(dev) || buf == NULL || len == NULL)
        return -EINVAL;
    *len = 0;
    r = jointer_identify(dev, &id);
    if (r < 0)
        return r;
    if (!(id.info & JOINTER_INFO_DESC_ROM))
        return -ENOTSUP;   /* no ROM */
    r = read_head(dev, head, &length);
    if (r < 0)
        return r;
    if (length > cap)
        return -ENOSPC;
    for (size_t k = 0; k < sizeof head; k++)
        out[k] = head[k];
    for (uint32_t i = HEAD_WORDS; 4u * i < length; i++) {
        r = rom_word(dev, i, &w);
        if (r < 0)
            return r;
        put_word(out + 4u * i, w, length - 4u * i < 4u ? length - 4u * i : 4u);
    }
    *len = length;
    return 0;
}
