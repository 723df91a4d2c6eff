/* SPDX-License-Identifier: MIT */
// stimulus.h - the scenario's `stimulus` entries (sim/cosim/README.md):
// pulses, task (start/done), axi4lite (both sides of a tapped bus), reset, and
// axi4 / axis (seeded random bursts and packets on one or more port groups, axi_stim.h),
// each an Agent on its clock; edge n = 0 is the first rising edge of that
// clock after platform_stimulus_start(). Defaults of the keys a scenario
// leaves out and the axi4lite response delay come from the contract
// (bus_timing.yaml, stimulus). ghdl/stimulus.py drives the same.
#ifndef COSIM_STIMULUS_H
#define COSIM_STIMULUS_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "agent.h"
#include "bus_timing.h"

struct Stimulus : Agent {
    std::string kind;
    uint64_t n = 0;
    bool done = false;
};

// what a stimulus entry needs from the runner
struct StimulusEnv {
    std::function<Port *(const std::string &)> port; // dies on a missing port
    std::function<bool(const std::string &)> has;    // the top has this port
    Clock *clock = nullptr;                          // the entry's clock
    std::vector<PinEvent> *sched = nullptr;          // pin changes between edges (reset)
    const uint64_t *now = nullptr;                   // simulated time, ps
    const BusTiming *timing = nullptr;
};

// the entry s (where: "stimulus[i]" for errors); dies on a bad entry
std::unique_ptr<Stimulus> make_stimulus(const YAML::Node &s, const std::string &where, const StimulusEnv &env);

#endif
