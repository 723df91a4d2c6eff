/* SPDX-License-Identifier: MIT */
// cosim_ports.h - the port table of a Verilated top (sim/cosim/README.md).
//
// run.py writes cosim_ports.cpp for each top from the port list of the
// Verilog that `ghdl synth --out=verilog` wrote: one entry per port, with a
// pointer into the model (CData/SData/IData/QData by width, the word array
// of a VlWide above 64 bits).
#ifndef COSIM_PORTS_H
#define COSIM_PORTS_H

#include <cstdint>
#include <vector>

class Vcosim_top;

struct CosimPortRef {
    const char *name;
    int width;      // bits
    bool input;     // an input of the top (the harness drives it)
    void *ptr;      // uint8_t/uint16_t/uint32_t/uint64_t, or uint32_t[] above 64 bits
};

void cosim_bind_ports(Vcosim_top *model, std::vector<CosimPortRef> &out);

#endif
