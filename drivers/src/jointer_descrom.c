/*
 * jointer_descrom.c - the descriptor ROM reader (jointer_descfile.h).
 * Placeholder until the monitor's descriptor ROM exists: it answers whether
 * the monitor says it has one (INFO bit JOINTER_INFO_DESC_ROM) and reads
 * nothing (-ENOTSUP), so jointer_desc_resolve falls through to the search
 * path. The ROM's reader replaces this file.
 */
#include "jointer_descfile.h"

int jointer_descrom_read(jointer_dev *dev, void *buf, size_t cap, size_t *len)
{
    jointer_ident id;
    int r;

    if (dev == NULL || buf == NULL || len == NULL)
        return -EINVAL;
    (void)cap;
    r = jointer_identify(dev, &id);
    if (r < 0)
        return r;
    *len = 0;
    if (!(id.info & JOINTER_INFO_DESC_ROM))
        return -ENOTSUP;   /* no ROM */
    return -ENOTSUP;       /* a ROM, but this placeholder has no reader */
}
