/* SPDX-License-Identifier: MIT */
// handshake_log.h - the per-cycle log of the AXI handshakes of the bus
// models (the AXI4-Lite masters, the memories), one line per handshake:
//
//     <time ps> <clock> <cycle> <bus> <channel> <fields>
//
// cycle = the rising edge of the agent's clock at which the handshake
// happened. ghdl/cosim.py writes the same lines (ghdl/handshakes.py), and
// tests/test_cycle_compare.py compares the two logs line by line.
#ifndef COSIM_HANDSHAKE_LOG_H
#define COSIM_HANDSHAKE_LOG_H

#include <cstdint>
#include <cstdio>
#include <string>

struct Clock;

class HandshakeLog {
public:
    HandshakeLog() = default;
    HandshakeLog(const HandshakeLog &) = delete;
    HandshakeLog &operator=(const HandshakeLog &) = delete;
    ~HandshakeLog() { close(); }

    // start writing to path (empty: no log); now: the simulated time in ps
    void open(const std::string &path, const uint64_t *now);
    void close();
    bool on() const { return f_ != nullptr; }
    // one handshake at the current edge of clock c
    void line(const Clock &c, const std::string &bus, const char *channel, const std::string &fields);

private:
    FILE *f_ = nullptr;
    const uint64_t *now_ = nullptr;
};

#endif
