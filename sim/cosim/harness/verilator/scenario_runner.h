/* SPDX-License-Identifier: MIT */
// scenario_runner.h - the Verilator side of the co-simulation
// (sim/cosim/README.md): builds the model of the top and its agents from the
// scenario, top.yaml and the timing contract (bus_timing.yaml), clocks every
// domain at its period (ps), releases the resets, and serves the platform
// calls of the application (apps/platform.h), which run on this thread:
// simulated time passes only inside them, stepping the model until their bus
// transaction, wait or stimulus is complete.
//
// Timing (the contract's numbers; ghdl/cosim.py follows the same rules):
// - clock c: high at t = 0, falls at high_c, rises at k * period_c (k >= 1);
//   periods are whole multiples of grain_ps (even);
// - every resetn is 0 from t = 0 and rises at t_rel = release_periods x the
//   longest period + offset_ps (odd: never an edge);
// - the application starts right after the first bus-clock rising edge after
//   t_rel + app_start_periods x the longest period;
// - agents (bus masters, memories, stimulus) sample the top's outputs just
//   before a rising edge of their clock and change its inputs just after it;
//   an activity requested at time t starts at the first rising edge of its
//   clock strictly after t.
#ifndef COSIM_SCENARIO_RUNNER_H
#define COSIM_SCENARIO_RUNNER_H

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "Vcosim_top.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "agent.h"
#include "axi_mem.h"
#include "bus_master.h"
#include "bus_timing.h"
#include "handshake_log.h"
#include "report.h"
#include "stimulus.h"

struct RunnerPaths {
    std::string scenario, top, timing, report = "report.json", fst, handshakes;
};

class ScenarioRunner {
public:
    explicit ScenarioRunner(const RunnerPaths &paths);
    ~ScenarioRunner();
    ScenarioRunner(const ScenarioRunner &) = delete;
    ScenarioRunner &operator=(const ScenarioRunner &) = delete;

    // to the application's start; its argv from the scenario's setup
    void start();
    std::vector<std::string> app_argv() const;
    // write the report; the exit status (0: pass)
    int finish(int app_rc);

    // ---- platform.h -----------------------------------------------------
    int mon_read(uint32_t off, uint32_t *v) { return bus(mon_, false, off, 0, v); }
    int mon_write(uint32_t off, uint32_t v) { return bus(mon_, true, off, v, nullptr); }
    int wait_irq(int timeout_ms);
    uint32_t plat_read(uint32_t addr);
    void plat_write(uint32_t addr, uint32_t v);
    void wait_ns(uint64_t ns);
    void bus_reset(uint64_t cycles);
    void stimulus_start();
    void stimulus_wait();
    void report(const char *name, uint64_t v) { report_.metric(name, v); }
    void expect(const char *name, uint64_t v) { report_.expect(name, v); }
    int ring(const char *prefix, volatile void **mem, uint32_t *bus_addr, uint32_t *size);
    uint64_t monitor_transactions() const { return mon_.transactions; }
    uint64_t bus_cycles() const { return clocks_[bus_].edges; }
    uint64_t time_ps() const { return now_; }

private:
    Port *port(const std::string &name);
    Clock &clock(const std::string &name);
    void setup_ports();
    void setup_clocks();
    void setup_masters();
    void setup_stimulus();
    void setup_memories();
    void setup_trace(const std::string &fst_path);

    uint64_t next_event() const;
    void step();
    void dump();
    void run_to(uint64_t t);
    void next_bus_edge();
    void run_edges(uint64_t n);
    int bus(BusMaster &m, bool write, uint32_t addr, uint32_t data, uint32_t *out);
    void bus_error(const char *what, uint32_t addr, int r);
    void report_memories();

    YAML::Node sc_, top_;
    BusTiming timing_;
    std::string report_path_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vcosim_top> model_;
#if VM_TRACE
    std::unique_ptr<VerilatedFstC> tfp_;
#endif
    std::map<std::string, Port> ports_;
    std::vector<Clock> clocks_;
    size_t bus_ = 0;
    uint64_t now_ = 0, t_rel_ = 0, maxp_ = 0, limit_ = 0, irq_ms_ns_ = 0;
    bool released_ = false;
    std::vector<PinEvent> sched_; // `reset` stimulus edges of a resetn
    HandshakeLog hs_log_;
    BusMaster mon_, acc_;
    bool has_acc_ = false;
    uint64_t mon_base_ = 0, mon_span_ = 0, acc_base_ = 0, acc_span_ = 0;
    std::vector<std::unique_ptr<Stimulus>> stims_;
    std::vector<std::unique_ptr<AxiMemAgent>> mems_;
    bool stim_started_ = false;
    Port *irq_ = nullptr;
    bool irq_pre_ = false;
    Report report_;
    uint64_t bus_errors_ = 0;
    std::chrono::steady_clock::time_point wall0_;
};

#endif
