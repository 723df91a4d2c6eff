/* SPDX-License-Identifier: MIT */
// axi_stim.h - the `axi4` and `axis` stimulus kinds: seeded random bursts and
// packets with random VALID gaps and READY back-pressure, both sides of the
// tapped bus played by the harness, edge by edge. The C++ twin of
// harness/ghdl/axi_stim.py (the reference: the same draws in the same order,
// the same values; its docstring is the specification); stimulus.cpp drives
// the values on every port group of the entry.
#ifndef COSIM_AXI_STIM_H
#define COSIM_AXI_STIM_H

#include <cstdint>
#include <map>
#include <string>

#include "bus_timing.h"

struct AxiRandParams {
    bool write = true;
    uint64_t start = 0, count = 0, seed = 1, max_len = 16, valid_stall = 0, ready_stall = 0, gap = 0;
    uint64_t addr = 0, addr_span = 0x10000, resp_delay = 0, id = 0, size = 0, strb = 0; // axi4
    uint64_t alias = 0;                                   // axi4: added to every odd burst's address
    uint64_t dest = 0, keep = 0;                                                         // axis
};

class AxiRandStim {
  public:
    AxiRandStim(bool axis, const AxiRandParams &p, const BusTiming &t);
    // one rising edge: the values to drive until the next one (signal -> value)
    const std::map<std::string, uint64_t> &edge();
    bool done() const { return done_; }
    // the signals it drives and their values now (before the first edge: all 0)
    const std::map<std::string, uint64_t> &values() const { return out_; }

  private:
    uint64_t raw();
    uint64_t pct() { return raw() % t_.lcg_percent; }
    uint64_t next_wait(uint64_t max) { return raw() % (max + 1); }
    void axi_handshakes();
    void axi_advance();
    void axi_drive(bool v_ok);
    void burst_done();
    bool next_starts(); // in a gap: the next burst / packet starts at this edge
    void axis_edge(bool v_ok, bool r_ok);
    uint64_t &o(const std::string &s) { return out_[s]; }

    bool axis_;
    AxiRandParams p_;
    const BusTiming &t_;
    std::map<std::string, uint64_t> out_;
    std::string a_, d_; // address and data channel: aw, w or ar, r
    uint64_t x_ = 0;
    int64_t n_ = -1;
    std::string phase_ = "gap";
    uint64_t wait_ = 0, k_ = 0, beat_ = 0, len_ = 0, burst_addr_ = 0;
    bool done_ = false;
};

#endif
