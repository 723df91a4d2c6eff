// SPDX-License-Identifier: MIT
/*
 * mock_shim.c - what Python needs to drive the C mock (drivers/tests/mock)
 * through ctypes: its size (to allocate it) and its ops seam by pointer.
 * Test code, built into libjointer_mock.so with the mock by make py-driver-test.
 */
#include <stddef.h>

#include "jointer_mock.h"

size_t pymock_size(void);
void pymock_io(mock_hw *m, jointer_io *io);
void pymock_set_result(mock_hw *m, unsigned metric, uint64_t value);

size_t pymock_size(void)
{
    return sizeof(mock_hw);
}

void pymock_io(mock_hw *m, jointer_io *io)
{
    *io = mock_io(m);
}

void pymock_set_result(mock_hw *m, unsigned metric, uint64_t value)
{
    if (metric < MOCK_MAX_METRICS)
        m->result[metric] = value;
}

void pymock_set_mark_sniffer(mock_hw *m, int sniffer);

void pymock_set_mark_sniffer(mock_hw *m, int sniffer)
{
    m->mark_sniffer = sniffer;
}
