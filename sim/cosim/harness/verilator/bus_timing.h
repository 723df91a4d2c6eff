/* SPDX-License-Identifier: MIT */
// bus_timing.h - the cycle-timing contract of the co-simulation
// (harness/bus_timing.yaml), read at run time: clock grain and pin offset,
// reset release and application start, scenario defaults, the AXI4-Lite
// master's constants, the stimulus defaults and the memory model's rules.
// ghdl/bus_timing.py reads the same file for the GHDL harness.
#ifndef COSIM_BUS_TIMING_H
#define COSIM_BUS_TIMING_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

struct BusTiming {
    uint64_t grain_ps = 0, offset_ps = 0;
    uint64_t release_periods = 0, app_start_periods = 0;
    uint64_t run_ns = 0, irq_ms_ns = 0;
    uint64_t wstrb = 0, bready = 0, rready = 0, error_resp = 0, irq_min_edges = 0;
    uint64_t axi4lite_resp_edges = 0;
    std::map<std::string, YAML::Node> stim_defaults; // kind -> {key: value}
    uint64_t aw_queue = 0, slverr = 0, boundary = 0, max_stall = 0;
    uint64_t lcg_mul = 0, lcg_inc = 0, lcg_mask = 0, lcg_shift = 0, lcg_percent = 0;
    std::vector<std::string> draws; // "aw", "w" in draw order
    YAML::Node mem_defaults;

    // the contract file; dies with the file and the key on a bad one
    static BusTiming load(const std::string &path);
    // a period in ns -> whole ps, a multiple of grain_ps
    uint64_t period_ps(double ns) const;
    // a stimulus key of `kind`: the scenario's value, else the contract's default
    uint64_t stim(const YAML::Node &s, const std::string &kind, const char *key, const std::string &where) const;
    // a memory key: the scenario's value, else the contract's default
    uint64_t mem(const YAML::Node &m, const char *key, const std::string &where) const;
};

#endif
