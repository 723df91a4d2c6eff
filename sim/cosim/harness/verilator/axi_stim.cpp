// SPDX-License-Identifier: MIT
// axi_stim.cpp - see axi_stim.h; every step mirrors harness/ghdl/axi_stim.py.
#include "axi_stim.h"

namespace {

const char *const WRITE[] = {"awvalid", "awready", "awaddr", "awlen", "awsize", "awburst", "awid", "wvalid",
                             "wready",  "wlast",   "wstrb",  "wdata", "bvalid", "bready",  "bresp", "bid"};
const char *const READ[] = {"arvalid", "arready", "araddr", "arlen", "arsize", "arburst", "arid",
                            "rvalid",  "rready",  "rlast",  "rdata", "rresp",  "rid"};
const char *const AXIS[] = {"tvalid", "tready", "tdata", "tkeep", "tlast", "tdest"};

} // namespace

AxiRandStim::AxiRandStim(bool axis, const AxiRandParams &p, const BusTiming &t) : axis_(axis), p_(p), t_(t)
{
    x_ = p.seed & t.lcg_mask;
    if (axis)
        for (const char *s : AXIS)
            out_[s] = 0;
    else if (p.write)
        for (const char *s : WRITE)
            out_[s] = 0;
    else
        for (const char *s : READ)
            out_[s] = 0;
    a_ = p.write ? "aw" : "ar";
    d_ = p.write ? "w" : "r";
    done_ = p.count == 0;
}

uint64_t AxiRandStim::raw()
{
    x_ = (x_ * t_.lcg_mul + t_.lcg_inc) & t_.lcg_mask;
    return x_ >> t_.lcg_shift;
}

const std::map<std::string, uint64_t> &AxiRandStim::edge()
{
    ++n_;
    if (n_ < (int64_t)p_.start || done_)
        return out_;
    bool v_ok = pct() >= p_.valid_stall;
    bool r_ok = pct() >= p_.ready_stall;
    if (axis_) {
        axis_edge(v_ok, r_ok);
        return out_;
    }
    axi_handshakes();
    axi_advance();
    axi_drive(v_ok);
    o(a_ + "ready") = r_ok && phase_ == "addr";
    o(d_ + "ready") = r_ok && phase_ == "data";
    if (p_.write)
        o("bready") = r_ok && phase_ == "resp";
    return out_;
}

bool AxiRandStim::next_starts()
{
    if (wait_) {
        --wait_;
        return false;
    }
    if (k_ < p_.count)
        return true;
    phase_ = "end";
    done_ = true;
    return false;
}

void AxiRandStim::burst_done()
{
    ++k_;
    phase_ = "gap";
    wait_ = next_wait(p_.gap);
}

void AxiRandStim::axi_handshakes()
{
    if (o(a_ + "valid") && o(a_ + "ready")) {
        o(a_ + "valid") = 0;
        phase_ = "data";
        beat_ = 0;
        if (!p_.write) {
            phase_ = "delay";
            wait_ = next_wait(p_.resp_delay);
        }
    } else if (o(d_ + "valid") && o(d_ + "ready")) {
        o(d_ + "valid") = 0;
        if (++beat_ == len_) {
            if (p_.write) {
                phase_ = "delay";
                wait_ = next_wait(p_.resp_delay);
            } else {
                burst_done();
            }
        }
    } else if (p_.write && o("bvalid") && o("bready")) {
        o("bvalid") = 0;
        burst_done();
    }
}

void AxiRandStim::axi_advance()
{
    if (phase_ == "gap" && next_starts()) {
        len_ = 1 + raw() % p_.max_len;
        burst_addr_ = p_.addr + ((raw() << p_.size) % p_.addr_span) + ((k_ & 1u) ? p_.alias : 0u);
        phase_ = "addr";
    }
    if (phase_ == "delay") {
        if (wait_)
            --wait_;
        else
            phase_ = p_.write ? "resp" : "data";
    }
}

void AxiRandStim::axi_drive(bool v_ok)
{
    if (phase_ == "addr" && !o(a_ + "valid") && v_ok) {
        o(a_ + "valid") = 1;
        o(a_ + "addr") = burst_addr_;
        o(a_ + "len") = len_ - 1;
        o(a_ + "size") = p_.size;
        o(a_ + "burst") = 1;
        o(a_ + "id") = p_.id;
    } else if (phase_ == "data" && !o(d_ + "valid") && v_ok) {
        o(d_ + "valid") = 1;
        o(d_ + "last") = beat_ == len_ - 1;
        o(d_ + "data") = (k_ << 16) | beat_;
        if (p_.write) {
            o("wstrb") = p_.strb;
        } else {
            o("rresp") = 0;
            o("rid") = p_.id;
        }
    } else if (phase_ == "resp" && !o("bvalid")) {
        o("bvalid") = 1;
        o("bresp") = 0;
        o("bid") = p_.id;
    }
}

void AxiRandStim::axis_edge(bool v_ok, bool r_ok)
{
    if (o("tvalid") && o("tready")) {
        o("tvalid") = 0;
        if (++beat_ == len_) {
            ++k_;
            phase_ = "gap";
            wait_ = next_wait(p_.gap);
        }
    }
    if (phase_ == "gap" && next_starts()) {
        len_ = 1 + raw() % p_.max_len;
        beat_ = 0;
        phase_ = "data";
    }
    if (phase_ == "data" && !o("tvalid") && v_ok) {
        o("tvalid") = 1;
        o("tlast") = beat_ == len_ - 1;
        o("tkeep") = p_.keep;
        o("tdata") = (k_ << 16) | beat_;
        o("tdest") = p_.dest;
    }
    o("tready") = r_ok && !done_;
}
