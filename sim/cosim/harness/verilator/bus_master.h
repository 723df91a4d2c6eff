/* SPDX-License-Identifier: MIT */
// bus_master.h - the AXI4-Lite master on a port of the top (s_axi on the
// bus clock, acc_axi on clock accel), README "The bus master": one
// transaction at a time; write: AW and W valid together right after the
// start edge, each dropped after the edge at which its READY was seen, done
// at the first edge with BVALID; read: ARVALID until ARREADY, done at the
// first edge with RVALID. WSTRB, BREADY/RREADY and the error response come
// from the contract (bus_timing.yaml, master).
#ifndef COSIM_BUS_MASTER_H
#define COSIM_BUS_MASTER_H

#include <cstdint>
#include <functional>
#include <string>

#include "agent.h"
#include "bus_timing.h"
#include "handshake_log.h"

class BusMaster : public Agent {
public:
    // bind the <prefix>_* ports (port: name -> Port, dies on a missing one)
    void bind(const std::string &prefix, const std::function<Port *(const std::string &)> &port,
              const BusTiming &t, const Clock &clock, HandshakeLog &log);
    void request(bool write, uint32_t addr, uint32_t data);
    void sample() override;
    void drive() override;

    uint32_t result = 0, resp = 0;
    uint64_t transactions = 0;

private:
    enum State { IDLE, PENDING, WRITE, READ };
    void start();
    void finish(uint32_t r, uint32_t v);
    void log(const char *channel, const std::string &fields) { log_->line(*clock_, prefix_, channel, fields); }

    Port *awaddr = nullptr, *awvalid = nullptr, *awready = nullptr, *wdata = nullptr, *wstrb = nullptr,
         *wvalid = nullptr, *wready = nullptr, *bresp = nullptr, *bvalid = nullptr, *bready = nullptr,
         *araddr = nullptr, *arvalid = nullptr, *arready = nullptr, *rdata = nullptr, *rresp = nullptr,
         *rvalid = nullptr, *rready = nullptr;
    std::string prefix_;
    const Clock *clock_ = nullptr;
    HandshakeLog *log_ = nullptr;
    uint64_t wstrb_value_ = 0;
    State st = IDLE;
    bool we = false, aw_done = false, w_done = false, ar_done = false;
    uint32_t addr = 0, data = 0;
    // pre-edge samples
    bool s_awready = false, s_wready = false, s_bvalid = false, s_arready = false, s_rvalid = false;
    uint32_t s_bresp = 0, s_rdata = 0, s_rresp = 0;
};

#endif
