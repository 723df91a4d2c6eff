/* SPDX-License-Identifier: MIT */
// axi_mem.h - the memory behind a trace sink's AXI4 master port,
// write channels only: sim/cosim/README.md "Memory on a master port".
// The same model, cycle for cycle, is harness/ghdl/axi_mem.py: both draw
// their back-pressure from one LCG, two draws per rising edge, so both
// simulators see the same AWREADY/WREADY/BVALID sequence. The queue depth,
// the LCG, the draw order, the error response and the 4 KB rule come from
// the contract (bus_timing.yaml, memory). AxiMemState is the model,
// AxiMemAgent drives it from the top's <port>_* signals.
//
// Per rising edge of its clock (with that clock's reset released, sampled
// before the edge): the handshakes of the edge (what the model drove and the
// DUT offered), then AW into a queue (aw_queue deep), a W beat into memory (its
// strobed byte lanes at the bus-aligned beat address, INCR), a B after WLAST
// `b_latency` edges later (SLVERR for burst number `error_burst`, 1-based, or
// for a beat outside [base, base + size)), then the outputs for the next edge.
// Violations counted (the run must report 0): WLAST not on the last beat, a
// burst that crosses 4 KB, a write outside the memory.
//
// Reset (its clock's resetn low at the edge, the initial one or a scenario's
// `reset` stimulus): the model stands for an interconnect + memory reset by
// the same proc_sys_reset as the sink, so a burst in flight is abandoned, as
// the sink's rst abandons it. Every burst in the queues at that edge is cut
// and counted in `cut_bursts` (its AW was accepted, or its W had started:
// here W never leads AW, WREADY needs a queued AW; and its B was not sent);
// the queues and the pending B responses are dropped, the outputs go low and
// the handshakes offered at that edge are ignored (the sink is in reset at
// the same edge). Beats already written stay in memory (a DDR does not undo
// writes; the host never reads them: WPTR only covers acknowledged bursts).
// The LCG keeps its state and no draw is taken during reset (both models
// resume the same AWREADY/WREADY sequence), `edge` counts edges out of reset.
#ifndef COSIM_AXI_MEM_H
#define COSIM_AXI_MEM_H

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "agent.h"
#include "bus_timing.h"
#include "handshake_log.h"

struct AxiMemCfg {
    std::string prefix;          // "m_axi_<trace>"
    uint64_t base = 0, size = 0; // bytes
    unsigned aw_stall = 0, w_stall = 0; // percent of edges the channel is not ready
    uint64_t b_latency = 0;      // edges from the last W beat to BVALID
    uint64_t error_burst = 0;    // 1-based burst answered SLVERR (0: none)
    uint32_t seed = 0;
};

class AxiMemState {
public:
    struct Burst {
        uint64_t addr;
        unsigned len, size, beat;
    };
    struct Resp {
        uint64_t ready;
        unsigned resp;
    };
    AxiMemState(const AxiMemCfg &c, const BusTiming &t) : cfg(c), mem(c.size, 0), t_(t), lcg_(c.seed) {}

    // one rising edge in reset: the bursts in flight are cut (header)
    void reset();
    // one rising edge; inputs sampled before it; data_bytes: bus width / 8,
    // wdata as little-endian bytes (data_bytes of them)
    void edge_step(bool awvalid, uint64_t awaddr, unsigned awlen, unsigned awsize, bool wvalid,
                   const uint8_t *wdata, uint64_t wstrb, bool wlast, bool bready, unsigned data_bytes);

    AxiMemCfg cfg;
    std::vector<uint8_t> mem;
    uint64_t edge = 0, bursts = 0, beats = 0, violations = 0, errors = 0, cut_bursts = 0;
    // outputs driven for the next edge
    bool awready = false, wready = false, bvalid = false;
    unsigned bresp = 0;

private:
    unsigned draw();
    void write_beat(const uint8_t *wdata, uint64_t wstrb, bool wlast, unsigned data_bytes);

    const BusTiming &t_;
    std::deque<Burst> aw_; // accepted, W not complete
    std::deque<Resp> b_;
    uint32_t lcg_;
};

// the model on the top's <prefix>_* ports, on its clock (reset by its resetn)
class AxiMemAgent : public Agent {
public:
    AxiMemAgent(const AxiMemCfg &c, const BusTiming &t) : st(c, t) {}
    void bind(const std::function<Port *(const std::string &)> &port, const Clock &clock, HandshakeLog &log);
    void sample() override;
    void drive() override;

    AxiMemState st;

private:
    unsigned data_bytes() const { return (unsigned)wdata->width / 8u; }
    void log_handshakes();

    Port *awaddr = nullptr, *awlen = nullptr, *awsize = nullptr, *awvalid = nullptr, *awready = nullptr,
         *wdata = nullptr, *wstrb = nullptr, *wlast = nullptr, *wvalid = nullptr, *wready = nullptr,
         *bresp = nullptr, *bvalid = nullptr, *bready = nullptr, *rstn = nullptr;
    const Clock *clock_ = nullptr;
    HandshakeLog *log_ = nullptr;
    bool s_rst = true, s_awvalid = false, s_wvalid = false, s_wlast = false, s_bready = false;
    uint64_t s_awaddr = 0, s_wstrb = 0;
    unsigned s_awlen = 0, s_awsize = 0;
    std::vector<uint8_t> s_wdata;
};

#endif
