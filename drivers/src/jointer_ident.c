// SPDX-License-Identifier: MIT
/*
 * jointer_ident.c - identity and self-test: ID, VERSION, CONFIG_HASH,
 * INFO against the descriptor; the SCRATCH test.
 */
#include "jointer_internal.h"

int jointer_identify(jointer_dev *dev, jointer_ident *found)
{
    int r;

    if (!ready(dev) || found == NULL)
        return -EINVAL;
    r = rd(dev, JOINTER_REG_ID, &found->id);
    if (r == 0)
        r = rd(dev, JOINTER_REG_VERSION, &found->version);
    if (r == 0)
        r = rd(dev, JOINTER_REG_CONFIG_HASH, &found->config_hash);
    if (r == 0)
        r = rd(dev, JOINTER_REG_INFO, &found->info);
    return r;
}

static int scratch(jointer_dev *dev, uint32_t pattern)
{
    uint32_t v = ~pattern;
    int r = wr(dev, JOINTER_REG_SCRATCH, pattern);
    if (r == 0)
        r = rd(dev, JOINTER_REG_SCRATCH, &v);
    if (r == 0 && v != pattern)
        r = -EIO;
    return r;
}

int jointer_selftest(jointer_dev *dev, unsigned flags, jointer_ident *found)
{
    jointer_ident id;
    uint32_t old, log2w = 0;
    int r, r2;


    if (!ready(dev))
        return -EINVAL;
    r = jointer_identify(dev, &id);
    if (found != NULL)
        *found = id;
    if (r < 0)
        return r;
    if (id.id != JOINTER_ID_VALUE) {
        LOG(dev, JOINTER_LOG_ERROR, -ENODEV, "selftest: ID is not JNTR (no jointer monitor here)");
        return -ENODEV;
    }
    while ((2u << log2w) <= dev->cfg->window)
        log2w++;
    if ((id.version >> 16) != (dev->cfg->version >> 16))
        r = -EPROTONOSUPPORT;
    else if (id.config_hash != dev->cfg->config_hash
             || (id.info & 0xFFFFu) != (dev->cfg->num_lmics | log2w << 8)
             || (id.info & JOINTER_INFO_FEATURES) != (dev->cfg->info & JOINTER_INFO_FEATURES))
        r = -ESTALE;
    if (r < 0) {
        LOG(dev, (flags & JOINTER_FORCE) ? JOINTER_LOG_WARN : JOINTER_LOG_ERROR, r,
            r == -ESTALE ? "selftest: CONFIG_HASH/INFO differ: the monitor was built from another configuration"
                         : "selftest: VERSION major differs from the driver's");
        if (!(flags & JOINTER_FORCE))
            return r;
    }
    if ((flags & JOINTER_SELFTEST_NO_WRITE) || !(dev->cfg->info & JOINTER_INFO_SCRATCH))
        return 0;
    r = rd(dev, JOINTER_REG_SCRATCH, &old);
    if (r < 0)
        return r;
    r = scratch(dev, 0xA5A5A5A5u);
    if (r == 0)
        r = scratch(dev, 0x5A5A5A5Au);
    r2 = wr(dev, JOINTER_REG_SCRATCH, old);
    if (r == 0)
        r = r2;
    if (r < 0)
        LOG(dev, JOINTER_LOG_ERROR, r, "selftest: SCRATCH does not hold its value");
    return r;
}
