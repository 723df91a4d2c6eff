// SPDX-License-Identifier: MIT
// axi_mem.cpp - see axi_mem.h.
#include "axi_mem.h"

#include <cstdio>

#include "util.h"

// next pseudo-random percentage (the contract's LCG)
unsigned AxiMemState::draw()
{
    lcg_ = (uint32_t)(((uint64_t)lcg_ * t_.lcg_mul + t_.lcg_inc) & t_.lcg_mask);
    return (unsigned)((lcg_ >> t_.lcg_shift) % t_.lcg_percent);
}

void AxiMemState::reset()
{
    cut_bursts += aw_.size() + b_.size();
    aw_.clear();
    b_.clear();
    awready = wready = bvalid = false;
    bresp = 0;
}

void AxiMemState::write_beat(const uint8_t *wdata, uint64_t wstrb, bool wlast, unsigned data_bytes)
{
    Burst &x = aw_.front();
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
        unsigned resp = bad || bursts == cfg.error_burst ? (unsigned)t_.slverr : 0u;
        errors += resp != 0;
        b_.push_back({edge + cfg.b_latency, resp});
        aw_.pop_front();
    }
}

void AxiMemState::edge_step(bool awvalid, uint64_t awaddr, unsigned awlen, unsigned awsize, bool wvalid,
                            const uint8_t *wdata, uint64_t wstrb, bool wlast, bool bready, unsigned data_bytes)
{
    ++edge;
    bool aw_hs = awvalid && awready, w_hs = wvalid && wready, b_hs = bvalid && bready;
    if (b_hs)
        b_.pop_front();
    if (w_hs)
        write_beat(wdata, wstrb, wlast, data_bytes);
    if (aw_hs) {
        uint64_t bytes = (uint64_t)(awlen + 1u) << awsize;
        violations += (awaddr % t_.boundary) + bytes > t_.boundary; // crosses the boundary
        aw_.push_back({awaddr, awlen, awsize, 0});
    }
    unsigned r_aw = 0, r_w = 0;
    for (const std::string &d : t_.draws)
        (d == "aw" ? r_aw : r_w) = draw();
    awready = aw_.size() < t_.aw_queue && r_aw >= cfg.aw_stall;
    wready = !aw_.empty() && r_w >= cfg.w_stall;
    bvalid = !b_.empty() && b_.front().ready <= edge;
    bresp = bvalid ? b_.front().resp : 0u;
}

void AxiMemAgent::bind(const std::function<Port *(const std::string &)> &port, const Clock &clock,
                       HandshakeLog &log)
{
    std::string p = st.cfg.prefix + "_";
    awaddr = port(p + "awaddr");
    awlen = port(p + "awlen");
    awsize = port(p + "awsize");
    awvalid = port(p + "awvalid");
    awready = port(p + "awready");
    wdata = port(p + "wdata");
    wstrb = port(p + "wstrb");
    wlast = port(p + "wlast");
    wvalid = port(p + "wvalid");
    wready = port(p + "wready");
    bresp = port(p + "bresp");
    bvalid = port(p + "bvalid");
    bready = port(p + "bready");
    rstn = clock.rstn;
    clock_ = &clock;
    log_ = &log;
}

void AxiMemAgent::sample()
{
    s_rst = rstn->get() == 0;
    s_awvalid = awvalid->get() != 0;
    s_awaddr = awaddr->get();
    s_awlen = (unsigned)awlen->get();
    s_awsize = (unsigned)awsize->get();
    s_wvalid = wvalid->get() != 0;
    s_wstrb = wstrb->get();
    s_wlast = wlast->get() != 0;
    s_bready = bready->get() != 0;
    s_wdata.assign(data_bytes(), 0);
    for (unsigned i = 0; i < data_bytes(); ++i)
        s_wdata[i] = wdata->byte(i);
}

// the handshakes of this edge, as the model will take them
void AxiMemAgent::log_handshakes()
{
    if (!log_->on())
        return;
    char b[64];
    if (s_awvalid && st.awready) {
        std::snprintf(b, sizeof b, "0x%llx %u %u", (unsigned long long)s_awaddr, s_awlen, s_awsize);
        log_->line(*clock_, st.cfg.prefix, "AW", b);
    }
    if (s_wvalid && st.wready) {
        std::snprintf(b, sizeof b, " 0x%llx %d", (unsigned long long)s_wstrb, (int)s_wlast);
        log_->line(*clock_, st.cfg.prefix, "W", hex_bytes(s_wdata.data(), data_bytes()) + b);
    }
    if (st.bvalid && s_bready)
        log_->line(*clock_, st.cfg.prefix, "B", std::to_string(st.bresp));
}

void AxiMemAgent::drive()
{
    if (s_rst) {
        st.reset();
    } else {
        log_handshakes();
        st.edge_step(s_awvalid, s_awaddr, s_awlen, s_awsize, s_wvalid, s_wdata.data(), s_wstrb, s_wlast,
                     s_bready, data_bytes());
    }
    awready->set(st.awready);
    wready->set(st.wready);
    bvalid->set(st.bvalid);
    bresp->set(st.bresp);
}
