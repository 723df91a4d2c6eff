// harness.cpp - the Verilator side of the co-simulation (sim/cosim/README.md).
//
// Clocks every domain of a Verilated top at its period (ps), releases the
// resets, plays the AXI4-Lite master on the monitor port (s_axi_*) and on the
// demo accelerator's control port (acc_axi_*), drives the scenario's
// stimulus, and runs the C application (app_main) on this thread: simulated
// time passes only inside the platform_* calls (app/platform.h), which step
// the model until their bus transaction, wait or stimulus is complete.
//
// Timing contract, shared with ghdl/cosim.py (the two must agree cycle for
// cycle, so both simulators report identical metrics):
// - clock c: high at t = 0, falls at high_c, rises at k * period_c (k >= 1);
//   periods are whole even numbers of ps;
// - every resetn is 0 from t = 0 and rises at t_rel (odd ps: never an edge);
// - the application starts right after the first bus-clock rising edge after
//   t_rel + 8 x the longest period;
// - agents (bus masters, stimulus) sample the top's outputs just before a
//   rising edge of their clock and change its inputs just after it; an
//   activity requested at time t starts at the first rising edge of its clock
//   strictly after t.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#include "axi_mem.h"
#include "cosim_ports.h"
#include "platform.h"

namespace {

[[noreturn]] void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "cosim-verilator: error: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::exit(2);
}

// ---- YAML helpers (integers as YAML 1.1 writes them: 0x.., decimal) -------

uint64_t to_u64(const YAML::Node &n, const std::string &what)
{
    if (!n.IsScalar())
        die("%s: expected an integer", what.c_str());
    std::string s = n.Scalar();
    if (s == "true" || s == "false")
        return s == "true" ? 1 : 0;
    const char *p = s.c_str();
    bool neg = *p == '-';
    if (neg)
        ++p;
    char *end = nullptr;
    errno = 0;
    uint64_t v = std::strtoull(p, &end, 0);
    if (errno != 0 || end == p || *end != '\0')
        die("%s: '%s' is not an integer", what.c_str(), s.c_str());
    return neg ? (uint64_t)(-(int64_t)v) : v;
}

uint64_t get_u64(const YAML::Node &map, const char *key, uint64_t dflt, const std::string &where)
{
    YAML::Node n = map[key];
    if (!n || n.IsNull())
        return dflt;
    return to_u64(n, where + "." + key);
}

std::string get_str(const YAML::Node &map, const char *key, const std::string &dflt)
{
    YAML::Node n = map[key];
    if (!n || n.IsNull())
        return dflt;
    return n.as<std::string>();
}

bool get_bool(const YAML::Node &map, const char *key, bool dflt)
{
    YAML::Node n = map[key];
    if (!n || n.IsNull())
        return dflt;
    return n.as<bool>();
}

// a period in ns (YAML number) -> whole even ps, as ghdl/cosim.py computes it
uint64_t period_ps(double ns)
{
    return 2u * (uint64_t)std::llround(ns * 500.0);
}

std::string json_str(const std::string &s)
{
    std::string o = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') {
            o += '\\';
            o += ch;
        } else if ((unsigned char)ch < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", ch);
            o += buf;
        } else {
            o += ch;
        }
    }
    return o + "\"";
}

// ---- ports ---------------------------------------------------------------

struct Port {
    std::string name;
    int width = 0;
    bool input = false;
    void *p = nullptr;

    uint64_t get() const
    {
        if (width <= 8)
            return *(const uint8_t *)p;
        if (width <= 16)
            return *(const uint16_t *)p;
        if (width <= 32)
            return *(const uint32_t *)p;
        if (width <= 64)
            return *(const uint64_t *)p;
        const uint32_t *w = (const uint32_t *)p;
        return (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    }
    void set(uint64_t v)
    {
        if (width < 64)
            v &= (UINT64_C(1) << width) - 1u;
        if (width <= 8)
            *(uint8_t *)p = (uint8_t)v;
        else if (width <= 16)
            *(uint16_t *)p = (uint16_t)v;
        else if (width <= 32)
            *(uint32_t *)p = (uint32_t)v;
        else if (width <= 64)
            *(uint64_t *)p = v;
        else {
            uint32_t *w = (uint32_t *)p;
            int words = (width + 31) / 32;
            for (int i = 0; i < words; ++i)
                w[i] = i == 0 ? (uint32_t)v : i == 1 ? (uint32_t)(v >> 32) : 0u;
        }
    }
    void set_bit(int bit, bool on)
    {
        uint64_t v = get();
        v = on ? (v | (UINT64_C(1) << bit)) : (v & ~(UINT64_C(1) << bit));
        set(v);
    }
};

class Harness;

// ---- agents: sample before a rising edge of their clock, drive after -------

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

// AXI4-Lite master, README "The bus master"
struct BusMaster : Agent {
    enum State { IDLE, PENDING, WRITE, READ };
    Port *awaddr, *awprot, *awvalid, *awready, *wdata, *wstrb, *wvalid, *wready, *bresp, *bvalid,
        *bready, *araddr, *arprot, *arvalid, *arready, *rdata, *rresp, *rvalid, *rready;
    State st = IDLE;
    bool we = false, aw_done = false, w_done = false, ar_done = false;
    uint32_t addr = 0, data = 0, result = 0, resp = 0;
    // pre-edge samples
    bool s_awready = false, s_wready = false, s_bvalid = false, s_arready = false, s_rvalid = false;
    uint32_t s_bresp = 0, s_rdata = 0, s_rresp = 0;
    uint64_t transactions = 0;

    void request(bool write, uint32_t a, uint32_t d)
    {
        we = write;
        addr = a;
        data = d;
        st = PENDING;
        active = true;
    }
    void sample() override
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
    void finish(uint32_t r, uint32_t v)
    {
        resp = r;
        result = v;
        st = IDLE;
        active = false;
        ++transactions;
    }
    void drive() override
    {
        switch (st) {
        case PENDING:
            if (we) {
                awaddr->set(addr);
                awvalid->set(1);
                wdata->set(data);
                wstrb->set(0xF);
                wvalid->set(1);
                aw_done = w_done = false;
                st = WRITE;
            } else {
                araddr->set(addr);
                arvalid->set(1);
                ar_done = false;
                st = READ;
            }
            break;
        case WRITE:
            if (!aw_done && s_awready) {
                aw_done = true;
                awvalid->set(0);
            }
            if (!w_done && s_wready) {
                w_done = true;
                wvalid->set(0);
            }
            if (s_bvalid)
                finish(s_bresp, 0);
            break;
        case READ:
            if (!ar_done && s_arready) {
                ar_done = true;
                arvalid->set(0);
            }
            if (s_rvalid)
                finish(s_rresp, s_rdata);
            break;
        case IDLE:
            break;
        }
    }
};

// stimulus: edge n = 0 is the first rising edge of the clock after the start
struct Stimulus : Agent {
    std::string kind;
    uint64_t n = 0;
    bool done = false;
};

struct Pulses : Stimulus {
    Port *port = nullptr, *value_port = nullptr;
    int bit = 0;
    uint64_t start = 0, every = 1, count = 0, value = 0, value_step = 0;
    bool high = false;

    void drive() override
    {
        bool fire = false;
        uint64_t k = 0;
        if (n >= start && (n - start) % every == 0) {
            k = (n - start) / every;
            fire = k < count;
        }
        if (fire) {
            port->set_bit(bit, true);
            if (value_port)
                value_port->set(value + k * value_step);
        } else if (high) {
            port->set_bit(bit, false);
        }
        high = fire;
        ++n;
        if (!fire && (count == 0 || n > start + (count - 1) * every + 1)) {
            done = true;
            active = false;
        }
    }
};

struct Task : Stimulus {
    Port *start_port = nullptr, *done_port = nullptr;
    uint64_t start = 0, length = 1, gap = 1, count = 0;
    bool s_high = false, d_high = false;

    void drive() override
    {
        bool s = false, d = false;
        uint64_t span = length + gap;
        if (n >= start) {
            uint64_t off = n - start;
            uint64_t k = off / span, r = off % span;
            s = k < count && r == 0;
            d = k < count && r == length;
        }
        if (s != s_high)
            start_port->set(s);
        if (d != d_high)
            done_port->set(d);
        s_high = s;
        d_high = d;
        ++n;
        if (!s && !d && (count == 0 || n > start + (count - 1) * span + length + 1)) {
            done = true;
            active = false;
        }
    }
};

struct AxiLiteStim : Stimulus {
    std::map<std::string, Port *> p;
    bool write = true;
    uint64_t start = 0, every = 3, count = 0, addr = 0, addr_step = 0, data = 0, data_step = 0,
             wstrb = 0;

    int index_at(uint64_t m) const // transaction whose request cycle is edge m, or -1
    {
        if (m < start || (m - start) % every != 0)
            return -1;
        uint64_t k = (m - start) / every;
        return k < count ? (int)k : -1;
    }
    void drive() override
    {
        int kreq = index_at(n);
        int kresp = n >= 1 ? index_at(n - 1) : -1;
        bool req = kreq >= 0, resp = kresp >= 0;
        if (write) {
            if (req) {
                p["awaddr"]->set(addr + (uint64_t)kreq * addr_step);
                p["wdata"]->set(data + (uint64_t)kreq * data_step);
                p["wstrb"]->set(wstrb);
            }
            p["awvalid"]->set(req);
            p["awready"]->set(req);
            p["wvalid"]->set(req);
            p["wready"]->set(req);
            p["bvalid"]->set(resp);
            p["bready"]->set(resp);
        } else {
            if (req)
                p["araddr"]->set(addr + (uint64_t)kreq * addr_step);
            if (resp)
                p["rdata"]->set(data + (uint64_t)kresp * data_step);
            p["arvalid"]->set(req);
            p["arready"]->set(req);
            p["rvalid"]->set(resp);
            p["rready"]->set(resp);
        }
        ++n;
        if (count == 0 || n > start + (count - 1) * every + 2) {
            done = true;
            active = false;
        }
    }
};

// a change of an input at a time of its own (odd ps: never on a clock edge)
struct PinEvent {
    uint64_t t;
    Port *port;
    uint64_t value;
    bool *done; // set when applied, or null
};

// `reset`: the clock's resetn low from 1 ps after edge start to 1 ps after
// edge start + cycles (the domain sees it low at `cycles` rising edges; its
// reset bridge asserts at once), like the initial reset at an odd ps
struct ResetStim : Stimulus {
    Port *rstn = nullptr;
    uint64_t start = 0, cycles = 1;
    std::vector<PinEvent> *sched = nullptr;
    const uint64_t *now = nullptr;

    void drive() override
    {
        if (n == start)
            sched->push_back({*now + 1u, rstn, 0, nullptr});
        if (n == start + cycles) {
            sched->push_back({*now + 1u, rstn, 1, &done});
            active = false;
        }
        ++n;
    }
};

// ---- the harness -------------------------------------------------------------

// the memory on a trace sink's AXI4 master port (axi_mem.h)
struct AxiMemAgent : Agent {
    AxiMemState st;
    Port *awaddr, *awlen, *awsize, *awvalid, *awready, *wdata, *wstrb, *wlast, *wvalid, *wready,
        *bresp, *bvalid, *bready, *rstn;
    bool s_rst = true, s_awvalid = false, s_wvalid = false, s_wlast = false, s_bready = false;
    uint64_t s_awaddr = 0, s_wstrb = 0;
    unsigned s_awlen = 0, s_awsize = 0;
    std::vector<uint8_t> s_wdata;

    explicit AxiMemAgent(const AxiMemCfg &c) : st(c) {}
    unsigned data_bytes() const { return (unsigned)wdata->width / 8u; }
    void sample() override
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
        if (wdata->width <= 64) {
            uint64_t v = wdata->get();
            for (unsigned i = 0; i < data_bytes(); ++i)
                s_wdata[i] = (uint8_t)(v >> (8u * i));
        } else {
            const uint32_t *w = (const uint32_t *)wdata->p;
            for (unsigned i = 0; i < data_bytes(); ++i)
                s_wdata[i] = (uint8_t)(w[i / 4u] >> (8u * (i % 4u)));
        }
    }
    void drive() override
    {
        if (s_rst)
            st.reset();
        else
            st.edge_step(s_awvalid, s_awaddr, s_awlen, s_awsize, s_wvalid, s_wdata.data(), s_wstrb, s_wlast,
                         s_bready, data_bytes());
        awready->set(st.awready);
        wready->set(st.wready);
        bvalid->set(st.bvalid);
        bresp->set(st.bresp);
    }
};

class Harness {
public:
    Harness(const std::string &scenario_path, const std::string &top_path,
            const std::string &report_path, const std::string &fst_path)
        : report_path_(report_path)
    {
        sc_ = YAML::LoadFile(scenario_path);
        top_ = YAML::LoadFile(top_path);
        ctx_.reset(new VerilatedContext);
        ctx_->timeunit(-12);
        ctx_->timeprecision(-12);
        model_.reset(new Vcosim_top(ctx_.get(), "top"));
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
        setup_clocks();
        setup_masters();
        setup_stimulus();
        setup_memories();
        irq_ = &port(get_str(top_, "irq", "irq"));
        limit_ = get_u64(sc_, "run_ns", 1000000, "scenario") * 1000u;
        irq_ms_ns_ = get_u64(sc_, "irq_ms_ns", 1000, "scenario");
        if (fst_path.size()) {
#if VM_TRACE
            ctx_->traceEverOn(true);
            tfp_.reset(new VerilatedFstC);
            model_->trace(tfp_.get(), 99);
            tfp_->open(fst_path.c_str());
#else
            die("waves requested but the model was built without --trace-fst");
#endif
        }
        model_->eval(); // clocks are already 1: no edge at t = 0
        dump();
    }

    ~Harness()
    {
#if VM_TRACE
        if (tfp_)
            tfp_->close();
#endif
        model_->final();
    }

    Port &port(const std::string &name)
    {
        auto it = ports_.find(name);
        if (it == ports_.end())
            die("the top has no port '%s'", name.c_str());
        return it->second;
    }
    bool has_port(const std::string &name) const { return ports_.count(name) != 0; }

    // ---- time ---------------------------------------------------------------

    uint64_t next_event() const
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

    void step()
    {
        uint64_t t = next_event();
        if (t > limit_) {
            error("simulated time limit exceeded (run_ns = " + std::to_string(limit_ / 1000u) + ")");
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
        ++steps_;
    }

    void dump()
    {
#if VM_TRACE
        if (tfp_)
            tfp_->dump(now_);
#endif
    }

    // process every event before time T; the application is then at T
    void run_to(uint64_t T)
    {
        while (next_event() < T)
            step();
        now_ = std::max(now_, T);
    }

    void next_bus_edge()
    {
        do
            step();
        while (!clocks_[bus_].rising);
    }

    // ---- platform -------------------------------------------------------------

    void start()
    {
        uint64_t maxp = 0;
        for (auto &c : clocks_)
            maxp = std::max(maxp, c.period);
        run_to(t_rel_ + 8u * maxp);
        next_bus_edge();
        wall0_ = std::chrono::steady_clock::now();
    }

    int bus(BusMaster &m, bool write, uint32_t addr, uint32_t data, uint32_t *out)
    {
        m.request(write, addr, data);
        while (m.active)
            step();
        if (out)
            *out = m.result;
        return m.resp >= 2 ? -EIO : 0;
    }

    int mon_read(uint32_t off, uint32_t *v) { return bus(mon_, false, off, 0, v); }
    int mon_write(uint32_t off, uint32_t v) { return bus(mon_, true, off, v, nullptr); }

    int wait_irq(int timeout_ms)
    {
        uint64_t edges = UINT64_MAX;
        if (timeout_ms >= 0) {
            uint64_t ps = (uint64_t)timeout_ms * irq_ms_ns_ * 1000u;
            edges = std::max<uint64_t>(1, (ps + clocks_[bus_].period - 1) / clocks_[bus_].period);
        }
        for (uint64_t i = 0; i < edges; ++i) {
            next_bus_edge();
            if (irq_pre_)
                return 0;
        }
        return -ETIMEDOUT;
    }

    bool in(uint32_t addr, uint64_t base, uint64_t span) const
    {
        return addr >= base && (uint64_t)addr < base + span;
    }

    uint32_t plat_read(uint32_t addr)
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

    void plat_write(uint32_t addr, uint32_t v)
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

    void bus_error(const char *what, uint32_t addr, int r)
    {
        char buf[128];
        std::snprintf(buf, sizeof buf, "platform %s of 0x%08X failed (%s)", what, addr,
                      r == -EIO ? "SLVERR" : "no peripheral there");
        ++bus_errors_;
        error(buf);
    }

    void wait_ns(uint64_t ns)
    {
        const Clock &b = clocks_[bus_];
        uint64_t n = (ns * 1000u + b.period - 1) / b.period;
        uint64_t target = b.edges + n;
        while (clocks_[bus_].edges < target)
            step();
    }

    void bus_reset(uint64_t cycles)
    {
        Clock &b = clocks_[bus_];
        b.rstn->set(0);
        uint64_t target = b.edges + cycles;
        while (clocks_[bus_].edges < target)
            step();
        b.rstn->set(1);
    }

    void stimulus_start()
    {
        if (stim_started_) {
            error("platform_stimulus_start called twice");
            return;
        }
        stim_started_ = true;
        for (auto &s : stims_)
            s->active = true;
    }

    void stimulus_wait()
    {
        if (!stim_started_) {
            error("platform_stimulus_wait before platform_stimulus_start");
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

    void report(const char *name, uint64_t v) { put(metrics_, name, v); }

    int ring(const char *prefix, volatile void **mem, uint32_t *bus_addr, uint32_t *size)
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
    void expect(const char *name, uint64_t v) { put(app_expect_, name, v); }
    uint64_t monitor_transactions() const { return mon_.transactions; }
    uint64_t bus_cycles() const { return clocks_[bus_].edges; }

    // ---- report -----------------------------------------------------------------

    void error(const std::string &e)
    {
        errors_.push_back(e);
        std::fprintf(stderr, "cosim-verilator: %s\n", e.c_str());
    }

    std::vector<std::string> app_argv()
    {
        std::vector<std::string> v{get_str(sc_, "app", "app")};
        YAML::Node setup = sc_["setup"];
        if (setup && setup.IsMap()) {
            if (setup["modes"])
                for (auto it : setup["modes"])
                    v.push_back("mode:" + it.first.as<std::string>() + "=" + it.second.as<std::string>());
            if (setup["bounds"])
                for (auto it : setup["bounds"]) {
                    YAML::Node b = it.second;
                    if (!b.IsSequence() || b.size() != 2)
                        die("setup.bounds.%s: expected [low, high]", it.first.as<std::string>().c_str());
                    v.push_back("bounds:" + it.first.as<std::string>() + "=" +
                                std::to_string(to_u64(b[0], "bounds")) + ":" +
                                std::to_string(to_u64(b[1], "bounds")));
                }
            if (setup["thresholds"])
                for (auto it : setup["thresholds"])
                    v.push_back("threshold:" + it.first.as<std::string>() + "=" +
                                std::to_string(to_u64(it.second, "thresholds")));
            if (setup["args"])
                for (auto a : setup["args"])
                    v.push_back(a.as<std::string>());
        }
        return v;
    }

    int finish(int app_rc)
    {
        report_memories();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
        struct Check {
            std::string name, source;
            bool has_expected, has_got;
            uint64_t expected, got;
            bool ok;
        };
        std::vector<Check> checks;
        auto find = [](const std::vector<std::pair<std::string, uint64_t>> &v, const std::string &n,
                       uint64_t *out) {
            for (const auto &kv : v)
                if (kv.first == n) {
                    *out = kv.second;
                    return true;
                }
            return false;
        };
        std::vector<std::pair<std::string, uint64_t>> expect_yaml;
        if (sc_["expect"])
            for (auto it : sc_["expect"])
                expect_yaml.emplace_back(it.first.as<std::string>(),
                                         to_u64(it.second, "expect." + it.first.as<std::string>()));
        for (const auto &kv : expect_yaml) {
            Check c{kv.first, "scenario", true, false, kv.second, 0, false};
            c.has_got = find(metrics_, kv.first, &c.got);
            c.ok = c.has_got && c.got == c.expected;
            checks.push_back(c);
        }
        for (const auto &kv : app_expect_) {
            Check c{kv.first, "app", true, false, kv.second, 0, false};
            c.has_got = find(metrics_, kv.first, &c.got);
            c.ok = c.has_got && c.got == c.expected;
            checks.push_back(c);
        }
        bool pass = app_rc == 0 && errors_.empty();
        for (const auto &c : checks)
            pass = pass && c.ok;

        FILE *f = std::fopen(report_path_.c_str(), "w");
        if (!f)
            die("cannot write %s", report_path_.c_str());
        std::fprintf(f, "{\n  \"simulator\": \"verilator\",\n");
        std::fprintf(f, "  \"scenario\": %s,\n", json_str(get_str(sc_, "scenario", "")).c_str());
        std::fprintf(f, "  \"top\": %s,\n", json_str(get_str(top_, "top", "")).c_str());
        std::fprintf(f, "  \"app\": %s,\n", json_str(get_str(sc_, "app", "")).c_str());
        std::fprintf(f, "  \"app_rc\": %d,\n", app_rc);
        auto dump_map = [&](const char *key, const std::vector<std::pair<std::string, uint64_t>> &v) {
            std::fprintf(f, "  \"%s\": {", key);
            for (size_t i = 0; i < v.size(); ++i)
                std::fprintf(f, "%s\n    %s: %llu", i ? "," : "", json_str(v[i].first).c_str(),
                             (unsigned long long)v[i].second);
            std::fprintf(f, "%s},\n", v.empty() ? "" : "\n  ");
        };
        dump_map("metrics", metrics_);
        dump_map("app_expect", app_expect_);
        dump_map("expect", expect_yaml);
        std::fprintf(f, "  \"checks\": [");
        for (size_t i = 0; i < checks.size(); ++i) {
            const Check &c = checks[i];
            std::fprintf(f, "%s\n    {\"name\": %s, \"source\": \"%s\", \"expected\": %llu, \"got\": ",
                         i ? "," : "", json_str(c.name).c_str(), c.source.c_str(),
                         (unsigned long long)c.expected);
            if (c.has_got)
                std::fprintf(f, "%llu", (unsigned long long)c.got);
            else
                std::fprintf(f, "null");
            std::fprintf(f, ", \"ok\": %s}", c.ok ? "true" : "false");
        }
        std::fprintf(f, "%s],\n", checks.empty() ? "" : "\n  ");
        std::fprintf(f, "  \"errors\": [");
        for (size_t i = 0; i < errors_.size(); ++i)
            std::fprintf(f, "%s%s", i ? ", " : "", json_str(errors_[i]).c_str());
        std::fprintf(f, "],\n");
        std::fprintf(f, "  \"monitor_transactions\": %llu,\n", (unsigned long long)mon_.transactions);
        std::fprintf(f, "  \"accel_transactions\": %llu,\n", (unsigned long long)acc_.transactions);
        std::fprintf(f, "  \"bus_errors\": %llu,\n", (unsigned long long)bus_errors_);
        std::fprintf(f, "  \"sim_time_ps\": %llu,\n", (unsigned long long)now_);
        std::fprintf(f, "  \"cycles\": {");
        for (size_t i = 0; i < clocks_.size(); ++i)
            std::fprintf(f, "%s%s: %llu", i ? ", " : "", json_str(clocks_[i].name).c_str(),
                         (unsigned long long)clocks_[i].edges);
        std::fprintf(f, "},\n");
        std::fprintf(f, "  \"wall_s\": %.6f,\n", wall);
        std::fprintf(f, "  \"pass\": %s\n}\n", pass ? "true" : "false");
        std::fclose(f);
        return pass ? 0 : 1;
    }

private:
    void put(std::vector<std::pair<std::string, uint64_t>> &v, const char *name, uint64_t val)
    {
        for (auto &kv : v)
            if (kv.first == name) {
                kv.second = val;
                return;
            }
        v.emplace_back(name, val);
    }

    void setup_clocks()
    {
        std::string bus_name = get_str(top_, "bus_clock", "");
        YAML::Node over = sc_["clocks"];
        for (auto cn : top_["clocks"]) {
            Clock c;
            c.name = cn["name"].as<std::string>();
            double ns = cn["period_ns"].as<double>();
            if (over && over[c.name])
                ns = over[c.name].as<double>();
            c.period = period_ps(ns);
            if (c.period < 2)
                die("clock %s: period %g ns is too short", c.name.c_str(), ns);
            c.high = c.period / 2u;
            c.next_fall = c.high;
            c.next_rise = c.period;
            c.clk = &port(cn["clk"].as<std::string>());
            c.rstn = &port(cn["resetn"].as<std::string>());
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
        uint64_t maxp = 0;
        for (size_t i = 0; i < clocks_.size(); ++i) {
            if (clocks_[i].name == bus_name)
                bus_ = i;
            maxp = std::max(maxp, clocks_[i].period);
        }
        if (bus_ == SIZE_MAX)
            die("bus clock '%s' not among the clocks", bus_name.c_str());
        t_rel_ = 10u * maxp + 1u;
    }

    Clock &clock(const std::string &name)
    {
        for (auto &c : clocks_)
            if (c.name == name)
                return c;
        die("no clock named '%s'", name.c_str());
    }

    void bind_master(BusMaster &m, const std::string &prefix)
    {
        auto P = [&](const char *s) { return &port(prefix + "_" + s); };
        m.awaddr = P("awaddr");
        m.awprot = P("awprot");
        m.awvalid = P("awvalid");
        m.awready = P("awready");
        m.wdata = P("wdata");
        m.wstrb = P("wstrb");
        m.wvalid = P("wvalid");
        m.wready = P("wready");
        m.bresp = P("bresp");
        m.bvalid = P("bvalid");
        m.bready = P("bready");
        m.araddr = P("araddr");
        m.arprot = P("arprot");
        m.arvalid = P("arvalid");
        m.arready = P("arready");
        m.rdata = P("rdata");
        m.rresp = P("rresp");
        m.rvalid = P("rvalid");
        m.rready = P("rready");
        m.bready->set(1);
        m.rready->set(1);
    }

    void setup_masters()
    {
        YAML::Node mon = top_["monitor"];
        bind_master(mon_, get_str(mon, "prefix", "s_axi"));
        mon_base_ = get_u64(mon, "base", 0, "top.monitor");
        mon_span_ = get_u64(mon, "span", 0, "top.monitor");
        clocks_[bus_].agents.push_back(&mon_);
        YAML::Node acc = top_["accel"];
        if (acc && acc.IsMap()) {
            has_acc_ = true;
            bind_master(acc_, get_str(acc, "prefix", "acc_axi"));
            acc_base_ = get_u64(acc, "base", PLATFORM_ACCEL_BASE, "top.accel");
            acc_span_ = get_u64(acc, "span", PLATFORM_ACCEL_SPAN, "top.accel");
            clock(get_str(acc, "clock", "accel")).agents.push_back(&acc_);
        }
    }

    void setup_stimulus()
    {
        YAML::Node list = sc_["stimulus"];
        if (!list)
            return;
        int i = 0;
        for (auto s : list) {
            std::string where = "stimulus[" + std::to_string(i++) + "]";
            std::string kind = get_str(s, "kind", "");
            std::string clk = get_str(s, "clock", get_str(top_, "bus_clock", ""));
            std::unique_ptr<Stimulus> st;
            if (kind == "pulses") {
                auto *p = new Pulses;
                st.reset(p);
                p->port = &port(get_str(s, "port", ""));
                p->bit = (int)get_u64(s, "bit", 0, where);
                if (p->bit >= p->port->width || p->bit >= 64)
                    die("%s: bit %d outside port %s", where.c_str(), p->bit, p->port->name.c_str());
                p->start = get_u64(s, "start", 0, where);
                p->every = get_u64(s, "every", 1, where);
                p->count = get_u64(s, "count", 1, where);
                std::string vp = get_str(s, "value_port", "");
                if (vp.size())
                    p->value_port = &port(vp);
                p->value = get_u64(s, "value", 0, where);
                p->value_step = get_u64(s, "value_step", 0, where);
                if (p->every == 0)
                    die("%s: every must be >= 1", where.c_str());
            } else if (kind == "task") {
                auto *t = new Task;
                st.reset(t);
                t->start_port = &port(get_str(s, "start_port", ""));
                t->done_port = &port(get_str(s, "done_port", ""));
                t->start = get_u64(s, "start", 0, where);
                t->length = get_u64(s, "length", 1, where);
                t->gap = get_u64(s, "gap", 1, where);
                t->count = get_u64(s, "count", 1, where);
                if (t->length == 0 || t->gap == 0)
                    die("%s: length and gap must be >= 1", where.c_str());
            } else if (kind == "axi4lite") {
                auto *a = new AxiLiteStim;
                st.reset(a);
                std::string prefix = get_str(s, "prefix", "");
                for (const char *sig : {"awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid",
                                        "wready", "bvalid", "bready", "araddr", "arvalid",
                                        "arready", "rdata", "rvalid", "rready"})
                    a->p[sig] = &port(prefix + "_" + sig);
                a->write = get_bool(s, "write", true);
                a->start = get_u64(s, "start", 0, where);
                a->every = get_u64(s, "every", 3, where);
                a->count = get_u64(s, "count", 1, where);
                a->addr = get_u64(s, "addr", 0, where);
                a->addr_step = get_u64(s, "addr_step", 0, where);
                a->data = get_u64(s, "data", 0, where);
                a->data_step = get_u64(s, "data_step", 0, where);
                int sw = a->p["wstrb"]->width;
                a->wstrb = get_u64(s, "wstrb", sw >= 64 ? UINT64_MAX : (UINT64_C(1) << sw) - 1u, where);
                if (a->every == 0)
                    die("%s: every must be >= 1", where.c_str());
            } else if (kind == "reset") {
                auto *r = new ResetStim;
                st.reset(r);
                r->rstn = clock(clk).rstn;
                r->start = get_u64(s, "start", 0, where);
                r->cycles = get_u64(s, "cycles", 1, where);
                r->sched = &sched_;
                r->now = &now_;
                if (r->cycles == 0)
                    die("%s: cycles must be >= 1", where.c_str());
            } else {
                die("%s: unknown kind '%s' (pulses, task, axi4lite, reset)", where.c_str(), kind.c_str());
            }
            st->kind = kind;
            clock(clk).agents.push_back(st.get());
            stims_.push_back(std::move(st));
        }
    }

    // scenario `memories`: the memory model on each master port
    void setup_memories()
    {
        YAML::Node list = sc_["memories"];
        if (!list)
            return;
        int i = 0;
        for (auto m : list) {
            std::string where = "memories[" + std::to_string(i++) + "]";
            AxiMemCfg c;
            c.prefix = get_str(m, "port", "");
            c.base = get_u64(m, "base", 0, where);
            c.size = get_u64(m, "size", 0x10000, where);
            c.aw_stall = (unsigned)get_u64(m, "aw_stall", 0, where);
            c.w_stall = (unsigned)get_u64(m, "w_stall", 0, where);
            c.b_latency = get_u64(m, "b_latency", 1, where);
            c.error_burst = get_u64(m, "error_burst", 0, where);
            c.seed = (uint32_t)get_u64(m, "seed", 1, where);
            if (c.size == 0 || c.size % 4096u || c.base % 4096u || c.aw_stall > 99 || c.w_stall > 99)
                die("%s: size/base must be multiples of 4096, stalls 0..99", where.c_str());
            std::unique_ptr<AxiMemAgent> a(new AxiMemAgent(c));
            std::string p = c.prefix + "_";
            a->awaddr = &port(p + "awaddr");
            a->awlen = &port(p + "awlen");
            a->awsize = &port(p + "awsize");
            a->awvalid = &port(p + "awvalid");
            a->awready = &port(p + "awready");
            a->wdata = &port(p + "wdata");
            a->wstrb = &port(p + "wstrb");
            a->wlast = &port(p + "wlast");
            a->wvalid = &port(p + "wvalid");
            a->wready = &port(p + "wready");
            a->bresp = &port(p + "bresp");
            a->bvalid = &port(p + "bvalid");
            a->bready = &port(p + "bready");
            Clock &ck = clock(get_str(m, "clock", get_str(top_, "bus_clock", "")));
            a->rstn = ck.rstn;
            a->active = true;
            ck.agents.push_back(a.get());
            mems_.push_back(std::move(a));
        }
    }

    // the memory models' counts, as metrics the scenario can expect
    void report_memories()
    {
        for (auto &m : mems_) {
            const std::string n = "mem." + m->st.cfg.prefix + ".";
            put(metrics_, (n + "bursts").c_str(), m->st.bursts);
            put(metrics_, (n + "beats").c_str(), m->st.beats);
            put(metrics_, (n + "violations").c_str(), m->st.violations);
            put(metrics_, (n + "slverr").c_str(), m->st.errors);
            put(metrics_, (n + "cut_bursts").c_str(), m->st.cut_bursts);
        }
    }

    YAML::Node sc_, top_;
    std::vector<std::unique_ptr<AxiMemAgent>> mems_;
    std::string report_path_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vcosim_top> model_;
#if VM_TRACE
    std::unique_ptr<VerilatedFstC> tfp_;
#endif
    std::map<std::string, Port> ports_;
    std::vector<Clock> clocks_;
    size_t bus_ = 0;
    uint64_t now_ = 0, t_rel_ = 0, limit_ = 0, irq_ms_ns_ = 1000, steps_ = 0;
    bool released_ = false;
    std::vector<PinEvent> sched_; // `reset` stimulus edges of a resetn
    BusMaster mon_, acc_;
    bool has_acc_ = false;
    uint64_t mon_base_ = 0, mon_span_ = 0, acc_base_ = 0, acc_span_ = 0;
    std::vector<std::unique_ptr<Stimulus>> stims_;
    bool stim_started_ = false;
    Port *irq_ = nullptr;
    bool irq_pre_ = false;
    std::vector<std::pair<std::string, uint64_t>> metrics_, app_expect_;
    std::vector<std::string> errors_;
    uint64_t bus_errors_ = 0;
    std::chrono::steady_clock::time_point wall0_;
};

Harness *g_h = nullptr;

int io_read32(void *, uint32_t off, uint32_t *v) { return g_h->mon_read(off, v); }
int io_write32(void *, uint32_t off, uint32_t v) { return g_h->mon_write(off, v); }
int io_wait_irq(void *, int timeout_ms) { return g_h->wait_irq(timeout_ms); }
const jointer_io_ops io_ops = {io_read32, io_write32, io_wait_irq};

} // namespace

// ---- app/platform.h ---------------------------------------------------------

extern "C" {

int platform_monitor_io(jointer_io *io)
{
    if (io == nullptr)
        return -EINVAL;
    *io = jointer_io_from_ops(&io_ops, nullptr);
    return 0;
}
uint32_t platform_read32(uint32_t addr) { return g_h->plat_read(addr); }
void platform_write32(uint32_t addr, uint32_t value) { g_h->plat_write(addr, value); }
void platform_wait_ns(uint64_t ns) { g_h->wait_ns(ns); }
void platform_stimulus_start(void) { g_h->stimulus_start(); }
void platform_stimulus_wait(void) { g_h->stimulus_wait(); }
void platform_report(const char *name, uint64_t value) { g_h->report(name, value); }
void platform_expect(const char *name, uint64_t value) { g_h->expect(name, value); }
uint64_t platform_monitor_transactions(void) { return g_h->monitor_transactions(); }
uint64_t platform_bus_cycles(void) { return g_h->bus_cycles(); }
void platform_bus_reset(uint64_t cycles) { g_h->bus_reset(cycles); }
int platform_ring(const char *port, volatile void **mem, uint32_t *bus_addr, uint32_t *size)
{
    return g_h->ring(port, mem, bus_addr, size);
}

} // extern "C"

int main(int argc, char **argv)
{
    std::string scenario, top, report = "report.json", fst;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&](const char *opt) -> std::string {
            if (i + 1 >= argc)
                die("%s needs a value", opt);
            return argv[++i];
        };
        if (a == "--scenario")
            scenario = val("--scenario");
        else if (a == "--top")
            top = val("--top");
        else if (a == "--report")
            report = val("--report");
        else if (a == "--fst")
            fst = val("--fst");
        else
            die("usage: %s --scenario S.yaml --top TOP.yaml [--report R.json] [--fst W.fst]", argv[0]);
    }
    if (scenario.empty() || top.empty())
        die("--scenario and --top are required");
    int rc;
    {
        Harness h(scenario, top, report, fst);
        g_h = &h;
        h.start();
        std::vector<std::string> args = h.app_argv();
        std::vector<char *> av;
        for (auto &s : args)
            av.push_back(&s[0]);
        av.push_back(nullptr);
        int app_rc = app_main((int)args.size(), av.data());
        rc = h.finish(app_rc);
        g_h = nullptr;
    }
    return rc;
}
