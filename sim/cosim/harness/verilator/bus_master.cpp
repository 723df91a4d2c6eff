// SPDX-License-Identifier: MIT
// bus_master.cpp - see bus_master.h.
#include "bus_master.h"

#include <cstdio>

namespace {

std::string hex(uint64_t v)
{
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

} // namespace

void BusMaster::bind(const std::string &prefix, const std::function<Port *(const std::string &)> &port,
                     const BusTiming &t, const Clock &clock, HandshakeLog &log)
{
    auto P = [&](const char *s) { return port(prefix + "_" + s); };
    awaddr = P("awaddr");
    P("awprot");
    awvalid = P("awvalid");
    awready = P("awready");
    wdata = P("wdata");
    wstrb = P("wstrb");
    wvalid = P("wvalid");
    wready = P("wready");
    bresp = P("bresp");
    bvalid = P("bvalid");
    bready = P("bready");
    araddr = P("araddr");
    P("arprot");
    arvalid = P("arvalid");
    arready = P("arready");
    rdata = P("rdata");
    rresp = P("rresp");
    rvalid = P("rvalid");
    rready = P("rready");
    bready->set(t.bready);
    rready->set(t.rready);
    wstrb_value_ = t.wstrb;
    prefix_ = prefix;
    clock_ = &clock;
    log_ = &log;
}

void BusMaster::request(bool write, uint32_t a, uint32_t d)
{
    we = write;
    addr = a;
    data = d;
    st = PENDING;
    active = true;
}

void BusMaster::sample()
{
    s_awready = awready->get() != 0;
    s_wready = wready->get() != 0;
    s_bvalid = bvalid->get() != 0;
    s_bresp = (uint32_t)bresp->get();
    s_arready = arready->get() != 0;
    s_rvalid = rvalid->get() != 0;
    s_rdata = (uint32_t)rdata->get();
    s_rresp = (uint32_t)rresp->get();
}

void BusMaster::finish(uint32_t r, uint32_t v)
{
    resp = r;
    result = v;
    st = IDLE;
    active = false;
    ++transactions;
}

void BusMaster::start()
{
    if (we) {
        awaddr->set(addr);
        awvalid->set(1);
        wdata->set(data);
        wstrb->set(wstrb_value_);
        wvalid->set(1);
        aw_done = w_done = false;
        st = WRITE;
    } else {
        araddr->set(addr);
        arvalid->set(1);
        ar_done = false;
        st = READ;
    }
}

void BusMaster::drive()
{
    switch (st) {
    case PENDING:
        start();
        break;
    case WRITE:
        if (!aw_done && s_awready) {
            aw_done = true;
            awvalid->set(0);
            log("AW", hex(addr));
        }
        if (!w_done && s_wready) {
            w_done = true;
            wvalid->set(0);
            log("W", hex(data) + " " + hex(wstrb_value_));
        }
        if (s_bvalid) {
            log("B", std::to_string(s_bresp));
            finish(s_bresp, 0);
        }
        break;
    case READ:
        if (!ar_done && s_arready) {
            ar_done = true;
            arvalid->set(0);
            log("AR", hex(addr));
        }
        if (s_rvalid) {
            log("R", hex(s_rdata) + " " + std::to_string(s_rresp));
            finish(s_rresp, s_rdata);
        }
        break;
    case IDLE:
        break;
    }
}
