/* SPDX-License-Identifier: MIT */
// port.h - one port of the Verilated top (cosim_ports.h gives its width and
// a pointer into the model): read and write it as an integer, whatever
// Verilator's storage for its width (CData .. QData, a VlWide word array).
#ifndef COSIM_PORT_H
#define COSIM_PORT_H

#include <cstdint>
#include <string>

struct Port {
    std::string name;
    int width = 0;
    bool input = false;
    void *p = nullptr;

    // the low 64 bits
    uint64_t get() const
    {
        if (width <= 8)
            return *(const uint8_t *)p;
        if (width <= 16)
            return *(const uint16_t *)p;
        if (width <= 32)
            return *(const uint32_t *)p;
        if (width <= 64)
            return *(const uint64_t *)p;
        const uint32_t *w = (const uint32_t *)p;
        return (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    }
    // byte i of the value (any width), little-endian
    uint8_t byte(unsigned i) const
    {
        if (width <= 64)
            return (uint8_t)(get() >> (8u * i));
        return (uint8_t)(((const uint32_t *)p)[i / 4u] >> (8u * (i % 4u)));
    }
    // v masked to the width; above 64 bits the upper words are 0
    void set(uint64_t v)
    {
        if (width < 64)
            v &= (UINT64_C(1) << width) - 1u;
        if (width <= 8)
            *(uint8_t *)p = (uint8_t)v;
        else if (width <= 16)
            *(uint16_t *)p = (uint16_t)v;
        else if (width <= 32)
            *(uint32_t *)p = (uint32_t)v;
        else if (width <= 64)
            *(uint64_t *)p = v;
        else {
            uint32_t *w = (uint32_t *)p;
            int words = (width + 31) / 32;
            for (int i = 0; i < words; ++i)
                w[i] = i == 0 ? (uint32_t)v : i == 1 ? (uint32_t)(v >> 32) : 0u;
        }
    }
    void set_bit(int bit, bool on)
    {
        uint64_t v = get();
        v = on ? (v | (UINT64_C(1) << bit)) : (v & ~(UINT64_C(1) << bit));
        set(v);
    }
};

#endif
