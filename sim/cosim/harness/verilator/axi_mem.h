// axi_mem.h - the memory behind a trace sink's AXI4 master port,
// write channels only: sim/cosim/README.md "Memory on a master port".
// The same model, cycle for cycle, is sim/cosim/ghdl/axi_mem.py: both draw
// their back-pressure from one LCG, two draws per rising edge, so both
// simulators see the same AWREADY/WREADY/BVALID sequence.
//
// Per rising edge of its clock (with that clock's reset released, sampled
// before the edge): the handshakes of the edge (what the model drove and the
// DUT offered), then AW into a queue (8 deep), a W beat into memory (its
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
#include <string>
#include <vector>

struct AxiMemCfg {
    std::string prefix;          // "m_axi_<trace>"
    uint64_t base = 0, size = 0; // bytes
    unsigned aw_stall = 0, w_stall = 0; // percent of edges the channel is not ready
    uint64_t b_latency = 1;      // edges from the last W beat to BVALID
    uint64_t error_burst = 0;    // 1-based burst answered SLVERR (0: none)
    uint32_t seed = 1;
};

struct AxiMemState {
    struct Burst {
        uint64_t addr;
        unsigned len, size, beat;
    };
    struct Resp {
        uint64_t ready;
        unsigned resp;
    };
    AxiMemCfg cfg;
    std::vector<uint8_t> mem;
    std::deque<Burst> aw;        // accepted, W not complete
    std::deque<Resp> b;
    uint32_t lcg;
    uint64_t edge = 0, bursts = 0, beats = 0, violations = 0, errors = 0, cut_bursts = 0;
    // outputs driven for the next edge
    bool awready = false, wready = false, bvalid = false;
    unsigned bresp = 0;

    explicit AxiMemState(const AxiMemCfg &c) : cfg(c), mem(c.size, 0), lcg(c.seed) {}

    // next pseudo-random percentage (glibc-style LCG, 31 bits)
    unsigned draw()
    {
        lcg = (lcg * 1103515245u + 12345u) & 0x7FFFFFFFu;
        return (lcg >> 16) % 100u;
    }

    // one rising edge in reset: the bursts in flight are cut (header)
    void reset()
    {
        cut_bursts += aw.size() + b.size();
        aw.clear();
        b.clear();
        awready = wready = bvalid = false;
        bresp = 0;
    }

    // one rising edge; inputs sampled before it; data_bytes: bus width / 8,
    // wdata as little-endian bytes (data_bytes of them)
    void edge_step(bool awvalid, uint64_t awaddr, unsigned awlen, unsigned awsize, bool wvalid,
                   const uint8_t *wdata, uint64_t wstrb, bool wlast, bool bready, unsigned data_bytes)
    {
        ++edge;
        bool aw_hs = awvalid && awready, w_hs = wvalid && wready, b_hs = bvalid && bready;
        if (b_hs)
            b.pop_front();
        if (w_hs) {
            Burst &x = aw.front();
            uint64_t a = x.addr + (uint64_t)x.beat * (1u << x.size);
            uint64_t lane0 = a & ~(uint64_t)(data_bytes - 1u);
            bool bad = false;
            for (unsigned i = 0; i < data_bytes; ++i)
                if ((wstrb >> i) & 1u) {
                    uint64_t p = lane0 + i;
                    if (p < cfg.base || p >= cfg.base + cfg.size)
                        bad = true;
                    else
                        mem[p - cfg.base] = wdata[i];
                }
            violations += bad;
            ++beats;
            bool last = x.beat == x.len;
            violations += wlast != last;
            ++x.beat;
            if (last) {
                ++bursts;
                unsigned resp = bad || bursts == cfg.error_burst ? 2u : 0u;
                errors += resp != 0;
                b.push_back({edge + cfg.b_latency, resp});
                aw.pop_front();
            }
        }
        if (aw_hs) {
            uint64_t bytes = (uint64_t)(awlen + 1u) << awsize;
            violations += (awaddr & 0xFFFu) + bytes > 0x1000u; // crosses 4 KB
            aw.push_back({awaddr, awlen, awsize, 0});
        }
        unsigned r_aw = draw(), r_w = draw();
        awready = aw.size() < 8u && r_aw >= cfg.aw_stall;
        wready = !aw.empty() && r_w >= cfg.w_stall;
        bvalid = !b.empty() && b.front().ready <= edge;
        bresp = bvalid ? b.front().resp : 0u;
    }
};

#endif
