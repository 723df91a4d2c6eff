// SPDX-License-Identifier: MIT
// scenario_runner.cpp - see scenario_runner.h.
#include "scenario_runner.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "cosim_ports.h"
#include "util.h"

ScenarioRunner::ScenarioRunner(const RunnerPaths &paths)
    : timing_(BusTiming::load(paths.timing)), report_path_(paths.report)
{
    sc_ = YAML::LoadFile(paths.scenario);
    top_ = YAML::LoadFile(paths.top);
    ctx_.reset(new VerilatedContext);
    ctx_->timeunit(-12);
    ctx_->timeprecision(-12);
    model_.reset(new Vcosim_top(ctx_.get(), "top"));
    hs_log_.open(paths.handshakes, &now_);
    setup_ports();
    setup_clocks();
    setup_masters();
    setup_stimulus();
    setup_memories();
    irq_ = port(get_str(top_, "irq", "irq"));
    limit_ = get_u64(sc_, "run_ns", timing_.run_ns, "scenario") * 1000u;
    irq_ms_ns_ = get_u64(sc_, "irq_ms_ns", timing_.irq_ms_ns, "scenario");
    setup_trace(paths.fst);
    model_->eval(); // clocks are already 1: no edge at t = 0
    dump();
}

ScenarioRunner::~ScenarioRunner()
{
#if VM_TRACE
    if (tfp_)
        tfp_->close();
#endif
    model_->final();
}

Port *ScenarioRunner::port(const std::string &name)
{
    auto it = ports_.find(name);
    if (it == ports_.end())
        die("the top has no port '%s'", name.c_str());
    return &it->second;
}

Clock &ScenarioRunner::clock(const std::string &name)
{
    for (auto &c : clocks_)
        if (c.name == name)
            return c;
    die("no clock named '%s'", name.c_str());
}

// ---- setup ------------------------------------------------------------------

void ScenarioRunner::setup_ports()
{
    std::vector<CosimPortRef> refs;
    cosim_bind_ports(model_.get(), refs);
    for (const auto &r : refs) {
        Port p;
        p.name = r.name;
        p.width = r.width;
        p.input = r.input;
        p.p = r.ptr;
        ports_[p.name] = p;
    }
    for (auto &kv : ports_)
        if (kv.second.input)
            kv.second.set(0);
}

void ScenarioRunner::setup_clocks()
{
    std::string bus_name = get_str(top_, "bus_clock", "");
    YAML::Node over = sc_["clocks"];
    for (auto cn : top_["clocks"]) {
        Clock c;
        c.name = cn["name"].as<std::string>();
        double ns = cn["period_ns"].as<double>();
        if (over && over[c.name])
            ns = over[c.name].as<double>();
        c.period = timing_.period_ps(ns);
        if (c.period < timing_.grain_ps)
            die("clock %s: period %g ns is too short", c.name.c_str(), ns);
        c.high = c.period / 2u;
        c.next_fall = c.high;
        c.next_rise = c.period;
        c.clk = port(cn["clk"].as<std::string>());
        c.rstn = port(cn["resetn"].as<std::string>());
        c.clk->set(1);
        c.rstn->set(0);
        clocks_.push_back(c);
    }
    if (over)
        for (auto it : over) {
            bool known = false;
            for (auto &c : clocks_)
                known = known || c.name == it.first.as<std::string>();
            if (!known)
                die("scenario clocks: '%s' is not a clock of the top", it.first.as<std::string>().c_str());
        }
    bus_ = SIZE_MAX;
    for (size_t i = 0; i < clocks_.size(); ++i) {
        if (clocks_[i].name == bus_name)
            bus_ = i;
        maxp_ = std::max(maxp_, clocks_[i].period);
    }
    if (bus_ == SIZE_MAX)
        die("bus clock '%s' not among the clocks", bus_name.c_str());
    t_rel_ = timing_.release_periods * maxp_ + timing_.offset_ps;
}

void ScenarioRunner::setup_masters()
{
    auto P = [this](const std::string &n) { return port(n); };
    YAML::Node mon = top_["monitor"];
    mon_.bind(get_str(mon, "prefix", "s_axi"), P, timing_, clocks_[bus_], hs_log_);
    mon_base_ = need_u64(mon, "base", "top.monitor");
    mon_span_ = need_u64(mon, "span", "top.monitor");
    clocks_[bus_].agents.push_back(&mon_);
    YAML::Node acc = top_["accel"];
    if (acc && acc.IsMap()) {
        has_acc_ = true;
        Clock &c = clock(get_str(acc, "clock", "accel"));
        acc_.bind(get_str(acc, "prefix", "acc_axi"), P, timing_, c, hs_log_);
        acc_base_ = need_u64(acc, "base", "top.accel");
        acc_span_ = need_u64(acc, "span", "top.accel");
        c.agents.push_back(&acc_);
    }
}

void ScenarioRunner::setup_stimulus()
{
    YAML::Node list = sc_["stimulus"];
    if (!list)
        return;
    int i = 0;
    for (auto s : list) {
        std::string where = "stimulus[" + std::to_string(i++) + "]";
        Clock &c = clock(get_str(s, "clock", get_str(top_, "bus_clock", "")));
        StimulusEnv env{[this](const std::string &n) { return port(n); },
                        [this](const std::string &n) { return ports_.count(n) > 0; }, &c, &sched_, &now_, &timing_};
        std::unique_ptr<Stimulus> st = make_stimulus(s, where, env);
        c.agents.push_back(st.get());
        stims_.push_back(std::move(st));
    }
}

// scenario `memories`: the memory model on each master port
void ScenarioRunner::setup_memories()
{
    YAML::Node list = sc_["memories"];
    if (!list)
        return;
    int i = 0;
    for (auto m : list) {
        std::string where = "memories[" + std::to_string(i++) + "]";
        AxiMemCfg c;
        c.prefix = get_str(m, "port", "");
        c.base = timing_.mem(m, "base", where);
        c.size = timing_.mem(m, "size", where);
        c.aw_stall = (unsigned)timing_.mem(m, "aw_stall", where);
        c.w_stall = (unsigned)timing_.mem(m, "w_stall", where);
        c.b_latency = timing_.mem(m, "b_latency", where);
        c.error_burst = timing_.mem(m, "error_burst", where);
        c.seed = (uint32_t)timing_.mem(m, "seed", where);
        uint64_t g = timing_.boundary;
        if (c.size == 0 || c.size % g || c.base % g || c.aw_stall > timing_.max_stall ||
            c.w_stall > timing_.max_stall)
            die("%s: size/base must be multiples of %llu, stalls 0..%llu", where.c_str(), (unsigned long long)g,
                (unsigned long long)timing_.max_stall);
        std::unique_ptr<AxiMemAgent> a(new AxiMemAgent(c, timing_));
        Clock &ck = clock(get_str(m, "clock", get_str(top_, "bus_clock", "")));
        a->bind([this](const std::string &n) { return port(n); }, ck, hs_log_);
        a->active = true;
        ck.agents.push_back(a.get());
        mems_.push_back(std::move(a));
    }
}

void ScenarioRunner::setup_trace(const std::string &fst_path)
{
    if (fst_path.empty())
        return;
#if VM_TRACE
    ctx_->traceEverOn(true);
    tfp_.reset(new VerilatedFstC);
    model_->trace(tfp_.get(), 99);
    tfp_->open(fst_path.c_str());
#else
    die("waves requested but the model was built without --trace-fst");
#endif
}

// ---- time ---------------------------------------------------------------------

uint64_t ScenarioRunner::next_event() const
{
    uint64_t t = UINT64_MAX;
    for (const auto &c : clocks_)
        t = std::min(t, std::min(c.next_rise, c.next_fall));
    if (!released_)
        t = std::min(t, t_rel_);
    for (const auto &e : sched_)
        t = std::min(t, e.t);
    return t;
}

void ScenarioRunner::step()
{
    uint64_t t = next_event();
    if (t > limit_) {
        report_.error("simulated time limit exceeded (run_ns = " + std::to_string(limit_ / 1000u) + ")");
        finish(-ETIMEDOUT);
        std::exit(1);
    }
    now_ = t;
    for (auto &c : clocks_) {
        c.rising = c.next_rise == t;
        if (c.rising)
            for (Agent *a : c.agents)
                if (a->active)
                    a->sample();
    }
    if (clocks_[bus_].rising)
        irq_pre_ = irq_->get() != 0;
    for (auto &c : clocks_) {
        if (c.rising) {
            c.clk->set(1);
            c.next_rise += c.period;
            ++c.edges;
        }
        if (c.next_fall == t) {
            c.clk->set(0);
            c.next_fall += c.period;
        }
    }
    if (!released_ && t == t_rel_) {
        for (auto &c : clocks_)
            c.rstn->set(1);
        released_ = true;
    }
    for (size_t i = 0; i < sched_.size();)
        if (sched_[i].t == t) {
            sched_[i].port->set(sched_[i].value);
            if (sched_[i].done)
                *sched_[i].done = true;
            sched_.erase(sched_.begin() + (long)i);
        } else {
            ++i;
        }
    ctx_->time(t);
    model_->eval();
    bool dirty = false;
    for (auto &c : clocks_)
        if (c.rising)
            for (Agent *a : c.agents)
                if (a->active) {
                    a->drive();
                    dirty = true;
                }
    if (dirty)
        model_->eval();
    dump();
}

void ScenarioRunner::dump()
{
#if VM_TRACE
    if (tfp_)
        tfp_->dump(now_);
#endif
}

// process every event before time t; the application is then at t
void ScenarioRunner::run_to(uint64_t t)
{
    while (next_event() < t)
        step();
    now_ = std::max(now_, t);
}

void ScenarioRunner::next_bus_edge()
{
    do
        step();
    while (!clocks_[bus_].rising);
}

void ScenarioRunner::run_edges(uint64_t n)
{
    uint64_t target = clocks_[bus_].edges + n;
    while (clocks_[bus_].edges < target)
        step();
}

// ---- platform -------------------------------------------------------------------

void ScenarioRunner::start()
{
    run_to(t_rel_ + timing_.app_start_periods * maxp_);
    next_bus_edge();
    wall0_ = std::chrono::steady_clock::now();
}

int ScenarioRunner::bus(BusMaster &m, bool write, uint32_t addr, uint32_t data, uint32_t *out)
{
    m.request(write, addr, data);
    while (m.active)
        step();
    if (out)
        *out = m.result;
    return m.resp >= timing_.error_resp ? -EIO : 0;
}

int ScenarioRunner::wait_irq(int timeout_ms)
{
    uint64_t edges = UINT64_MAX;
    if (timeout_ms >= 0) {
        uint64_t ps = (uint64_t)timeout_ms * irq_ms_ns_ * 1000u;
        uint64_t p = clocks_[bus_].period;
        edges = std::max<uint64_t>(timing_.irq_min_edges, (ps + p - 1) / p);
    }
    for (uint64_t i = 0; i < edges; ++i) {
        next_bus_edge();
        if (irq_pre_)
            return 0;
    }
    return -ETIMEDOUT;
}

namespace {

bool in(uint32_t addr, uint64_t base, uint64_t span)
{
    return addr >= base && (uint64_t)addr < base + span;
}

} // namespace

uint32_t ScenarioRunner::plat_read(uint32_t addr)
{
    uint32_t v = 0;
    int r;
    if (in(addr, mon_base_, mon_span_))
        r = bus(mon_, false, addr - (uint32_t)mon_base_, 0, &v);
    else if (has_acc_ && in(addr, acc_base_, acc_span_))
        r = bus(acc_, false, addr - (uint32_t)acc_base_, 0, &v);
    else
        r = -ENODEV;
    if (r) {
        bus_error("read", addr, r);
        v = 0;
    }
    return v;
}

void ScenarioRunner::plat_write(uint32_t addr, uint32_t v)
{
    int r;
    if (in(addr, mon_base_, mon_span_))
        r = bus(mon_, true, addr - (uint32_t)mon_base_, v, nullptr);
    else if (has_acc_ && in(addr, acc_base_, acc_span_))
        r = bus(acc_, true, addr - (uint32_t)acc_base_, v, nullptr);
    else
        r = -ENODEV;
    if (r)
        bus_error("write", addr, r);
}

void ScenarioRunner::bus_error(const char *what, uint32_t addr, int r)
{
    char buf[128];
    std::snprintf(buf, sizeof buf, "platform %s of 0x%08X failed (%s)", what, addr,
                  r == -EIO ? "SLVERR" : "no peripheral there");
    ++bus_errors_;
    report_.error(buf);
}

void ScenarioRunner::wait_ns(uint64_t ns)
{
    uint64_t p = clocks_[bus_].period;
    run_edges((ns * 1000u + p - 1) / p);
}

void ScenarioRunner::bus_reset(uint64_t cycles)
{
    Clock &b = clocks_[bus_];
    b.rstn->set(0);
    run_edges(cycles);
    b.rstn->set(1);
}

void ScenarioRunner::stimulus_start()
{
    if (stim_started_) {
        report_.error("platform_stimulus_start called twice");
        return;
    }
    stim_started_ = true;
    for (auto &s : stims_)
        s->active = true;
}

void ScenarioRunner::stimulus_wait()
{
    if (!stim_started_) {
        report_.error("platform_stimulus_wait before platform_stimulus_start");
        return;
    }
    for (;;) {
        bool all = true;
        for (auto &s : stims_)
            all = all && s->done;
        if (all)
            break;
        step();
    }
}

int ScenarioRunner::ring(const char *prefix, volatile void **mem, uint32_t *bus_addr, uint32_t *size)
{
    for (auto &m : mems_)
        if (prefix == nullptr || m->st.cfg.prefix == prefix) {
            *mem = m->st.mem.data();
            *bus_addr = (uint32_t)m->st.cfg.base;
            *size = (uint32_t)m->st.cfg.size;
            return 0;
        }
    return -ENODEV;
}

// ---- the run --------------------------------------------------------------------

std::vector<std::string> ScenarioRunner::app_argv() const
{
    std::vector<std::string> v{get_str(sc_, "app", "app")};
    YAML::Node setup = sc_["setup"];
    if (!setup || !setup.IsMap())
        return v;
    if (setup["modes"])
        for (auto it : setup["modes"])
            v.push_back("mode:" + it.first.as<std::string>() + "=" + it.second.as<std::string>());
    if (setup["bounds"])
        for (auto it : setup["bounds"]) {
            YAML::Node b = it.second;
            if (!b.IsSequence() || b.size() != 2)
                die("setup.bounds.%s: expected [low, high]", it.first.as<std::string>().c_str());
            v.push_back("bounds:" + it.first.as<std::string>() + "=" + std::to_string(to_u64(b[0], "bounds")) +
                        ":" + std::to_string(to_u64(b[1], "bounds")));
        }
    if (setup["thresholds"])
        for (auto it : setup["thresholds"])
            v.push_back("threshold:" + it.first.as<std::string>() + "=" +
                        std::to_string(to_u64(it.second, "thresholds")));
    if (setup["args"])
        for (auto a : setup["args"])
            v.push_back(a.as<std::string>());
    return v;
}

// the memory models' counts, as metrics the scenario can expect
void ScenarioRunner::report_memories()
{
    for (auto &m : mems_) {
        const std::string n = "mem." + m->st.cfg.prefix + ".";
        report_.metric(n + "bursts", m->st.bursts);
        report_.metric(n + "beats", m->st.beats);
        report_.metric(n + "violations", m->st.violations);
        report_.metric(n + "slverr", m->st.errors);
        report_.metric(n + "cut_bursts", m->st.cut_bursts);
    }
}

int ScenarioRunner::finish(int app_rc)
{
    report_memories();
    hs_log_.close();
    Report::Run run;
    run.scenario = get_str(sc_, "scenario", "");
    run.top = get_str(top_, "top", "");
    run.app = get_str(sc_, "app", "");
    run.app_rc = app_rc;
    run.monitor_transactions = mon_.transactions;
    run.accel_transactions = acc_.transactions;
    run.bus_errors = bus_errors_;
    run.sim_time_ps = now_;
    for (const auto &c : clocks_)
        run.cycles.emplace_back(c.name, c.edges);
    run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
    return report_.write(report_path_, sc_["expect"], run) ? 0 : 1;
}
