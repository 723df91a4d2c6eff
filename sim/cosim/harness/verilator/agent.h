/* SPDX-License-Identifier: MIT */
// agent.h - what drives the top from a clock: an Agent samples the top's
// outputs just before a rising edge of its clock and changes its inputs
// right after it (sim/cosim/README.md, "Timing"); a Clock owns its agents;
// a PinEvent is a change of an input at a time of its own (odd ps: never on
// an edge, a resetn).
#ifndef COSIM_AGENT_H
#define COSIM_AGENT_H

#include <cstdint>
#include <string>
#include <vector>

#include "port.h"

struct Agent {
    bool active = false;
    virtual ~Agent() = default;
    virtual void sample() {}
    virtual void drive() = 0;
};

struct Clock {
    std::string name;
    uint64_t period = 0, high = 0, next_rise = 0, next_fall = 0, edges = 0;
    Port *clk = nullptr, *rstn = nullptr;
    std::vector<Agent *> agents;
    bool rising = false;
};

struct PinEvent {
    uint64_t t;
    Port *port;
    uint64_t value;
    bool *done; // set when applied, or null
};

#endif
