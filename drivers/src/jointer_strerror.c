// SPDX-License-Identifier: MIT
/*
 * jointer_strerror.c - the text of every error code the library returns;
 * the library's version.
 */
#include "jointer_internal.h"

uint32_t jointer_version(void)
{
    return (uint32_t)JOINTER_VERSION_NUMBER;
}

const char *jointer_version_string(void)
{
    return JOINTER_VERSION_STRING;
}

const char *jointer_strerror(int err)
{
    static const struct { int code; const char *text; } tab[] = {
        {0, "success"},
        {EINVAL, "invalid argument (index out of range for this monitor, NULL pointer, bad or truncated descriptor)"},
        {ERANGE, "value out of range (wider than the metric, low > high, beyond the trace depth)"},
        {ENOBUFS, "no bounds cache attached (jointer_attach_bounds) or too small"},
        {ENOTSUP, "not supported by this metric, trace or device (no threshold, no filter, not that kind of "
                  "trace, no TIMESTAMP/MARK register)"},
        {ENOTCONN, "sink trace not started: no ring attached (jointer_sink_start first)"},
        {EIO, "bus error or inconsistent register value"},
        {ETIMEDOUT, "timed out waiting for the interrupt"},
        {ENODEV, "no jointer monitor there (ID register is not JNTR)"},
        {EPROTONOSUPPORT, "hardware VERSION or descriptor file format not supported by this driver"},
        {ESTALE, "config hash mismatch: the monitor was built from another configuration"},
        {ENOENT, "no such device or name"},
        {EACCES, "permission denied"},
        {EBADF, "device not open"},
        {EILSEQ, "not a jointer descriptor file (no JDSC magic)"},
        {EBADMSG, "descriptor file damaged (CRC mismatch)"},
        {ENOSPC, "descriptor arena too small (jointer_descfile_arena_size)"},
        {EFBIG, "descriptor file too large (more than 1 MiB)"},
        {ENOTUNIQ, "several devices have that name (uio:name=)"},
        {EPROTO, "program compiled against another libjointer (sizeof(jointer_dev) differs)"},
    };
    unsigned i;

    if (err < 0)
        err = -err;
    for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].code == err)
            return tab[i].text;
    return "unknown error";
}
