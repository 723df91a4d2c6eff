// SPDX-License-Identifier: MIT
// stimulus.cpp - see stimulus.h.
#include "stimulus.h"

#include "axi_stim.h"
#include "util.h"

namespace {

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

// a complete transaction per k on a tapped bus: request at edge r, the
// response resp_edges after it
struct AxiLiteStim : Stimulus {
    std::map<std::string, Port *> p;
    bool write = true;
    uint64_t start = 0, every = 3, count = 0, addr = 0, addr_step = 0, data = 0, data_step = 0,
             wstrb = 0, resp_edges = 1;

    int index_at(uint64_t m) const // transaction whose request cycle is edge m, or -1
    {
        if (m < start || (m - start) % every != 0)
            return -1;
        uint64_t k = (m - start) / every;
        return k < count ? (int)k : -1;
    }
    // edge m is within resp_edges + 1 edges after some request: the stimulus
    // drives the bus only there, so that two stimuli may share one bus (as
    // the GHDL harness does)
    bool near(uint64_t m) const
    {
        for (uint64_t d = 0; d <= resp_edges + 1 && d <= m; ++d)
            if (index_at(m - d) >= 0)
                return true;
        return false;
    }
    void drive_write(int kreq, bool req, bool resp)
    {
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
    }
    void drive_read(int kreq, int kresp, bool req, bool resp)
    {
        if (req)
            p["araddr"]->set(addr + (uint64_t)kreq * addr_step);
        if (resp)
            p["rdata"]->set(data + (uint64_t)kresp * data_step);
        p["arvalid"]->set(req);
        p["arready"]->set(req);
        p["rvalid"]->set(resp);
        p["rready"]->set(resp);
    }
    void drive() override
    {
        int kreq = index_at(n);
        int kresp = n >= resp_edges ? index_at(n - resp_edges) : -1;
        if (near(n) && write)
            drive_write(kreq, kreq >= 0, kresp >= 0);
        else if (near(n))
            drive_read(kreq, kresp, kreq >= 0, kresp >= 0);
        ++n;
        if (count == 0 || n > start + (count - 1) * every + resp_edges + 1) {
            done = true;
            active = false;
        }
    }
};

// `reset`: the clock's resetn low from offset_ps after edge start to
// offset_ps after edge start + cycles (the domain sees it low at `cycles`
// rising edges; its reset bridge asserts at once), like the initial reset
struct ResetStim : Stimulus {
    Port *rstn = nullptr;
    uint64_t start = 0, cycles = 1, offset_ps = 1;
    std::vector<PinEvent> *sched = nullptr;
    const uint64_t *now = nullptr;

    void drive() override
    {
        if (n == start)
            sched->push_back({*now + offset_ps, rstn, 0, nullptr});
        if (n == start + cycles) {
            sched->push_back({*now + offset_ps, rstn, 1, &done});
            active = false;
        }
        ++n;
    }
};

std::unique_ptr<Stimulus> make_pulses(const YAML::Node &s, const std::string &where, const StimulusEnv &e)
{
    const BusTiming &t = *e.timing;
    auto num = [&](const char *k) { return t.stim(s, "pulses", k, where); };
    std::unique_ptr<Pulses> p(new Pulses);
    p->port = e.port(get_str(s, "port", ""));
    p->bit = (int)num("bit");
    if (p->bit >= p->port->width || p->bit >= 64)
        die("%s: bit %d outside port %s", where.c_str(), p->bit, p->port->name.c_str());
    p->start = num("start");
    p->every = num("every");
    p->count = num("count");
    std::string vp = get_str(s, "value_port", "");
    if (vp.size())
        p->value_port = e.port(vp);
    p->value = num("value");
    p->value_step = num("value_step");
    if (p->every == 0)
        die("%s: every must be >= 1", where.c_str());
    return p;
}

std::unique_ptr<Stimulus> make_task(const YAML::Node &s, const std::string &where, const StimulusEnv &e)
{
    const BusTiming &t = *e.timing;
    auto num = [&](const char *k) { return t.stim(s, "task", k, where); };
    std::unique_ptr<Task> k(new Task);
    k->start_port = e.port(get_str(s, "start_port", ""));
    k->done_port = e.port(get_str(s, "done_port", ""));
    k->start = num("start");
    k->length = num("length");
    k->gap = num("gap");
    k->count = num("count");
    if (k->length == 0 || k->gap == 0)
        die("%s: length and gap must be >= 1", where.c_str());
    return k;
}

std::unique_ptr<Stimulus> make_axi4lite(const YAML::Node &s, const std::string &where, const StimulusEnv &e)
{
    const BusTiming &t = *e.timing;
    auto num = [&](const char *k) { return t.stim(s, "axi4lite", k, where); };
    std::unique_ptr<AxiLiteStim> a(new AxiLiteStim);
    std::string prefix = get_str(s, "prefix", "");
    for (const char *sig : {"awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bvalid",
                            "bready", "araddr", "arvalid", "arready", "rdata", "rvalid", "rready"})
        a->p[sig] = e.port(prefix + "_" + sig);
    a->write = get_bool(s, "write", true);
    a->start = num("start");
    a->every = num("every");
    a->count = num("count");
    a->addr = num("addr");
    a->addr_step = num("addr_step");
    a->data = num("data");
    a->data_step = num("data_step");
    a->resp_edges = t.axi4lite_resp_edges;
    int sw = a->p["wstrb"]->width;
    a->wstrb = get_u64(s, "wstrb", sw >= 64 ? UINT64_MAX : (UINT64_C(1) << sw) - 1u, where);
    if (a->every == 0)
        die("%s: every must be >= 1", where.c_str());
    return a;
}

std::unique_ptr<Stimulus> make_reset(const YAML::Node &s, const std::string &where, const StimulusEnv &e)
{
    std::unique_ptr<ResetStim> r(new ResetStim);
    r->rstn = e.clock->rstn;
    r->start = e.timing->stim(s, "reset", "start", where);
    r->cycles = e.timing->stim(s, "reset", "cycles", where);
    r->offset_ps = e.timing->offset_ps;
    r->sched = e.sched;
    r->now = e.now;
    if (r->cycles == 0)
        die("%s: cycles must be >= 1", where.c_str());
    return r;
}

// axi4 / axis: AxiRandStim's values on every port group (prefix) of the entry,
// each signal on the groups that have its port
struct AxiRand : Stimulus {
    std::unique_ptr<AxiRandStim> stim;
    std::map<std::string, std::vector<Port *>> ports; // signal -> its ports

    void drive() override
    {
        for (const auto &kv : stim->edge())
            for (Port *pt : ports[kv.first])
                pt->set(kv.second);
        ++n;
        if (stim->done()) {
            done = true;
            active = false;
        }
    }
};

std::vector<std::string> prefixes(const YAML::Node &s, const std::string &where)
{
    std::vector<std::string> out;
    if (s["prefixes"]) {
        if (!s["prefixes"].IsSequence())
            die("%s.prefixes: expected a list of port prefixes", where.c_str());
        for (auto x : s["prefixes"])
            out.push_back(x.as<std::string>());
    } else {
        out.push_back(get_str(s, "prefix", ""));
    }
    return out;
}

uint64_t width_of(const std::vector<std::string> &pre, const std::string &sig, const StimulusEnv &e)
{
    for (const auto &p : pre)
        if (e.has(p + "_" + sig))
            return (uint64_t)e.port(p + "_" + sig)->width;
    return 0;
}

AxiRandParams rand_params(const YAML::Node &s, const std::string &kind, const std::vector<std::string> &pre,
                          const std::string &where, const StimulusEnv &e)
{
    const BusTiming &t = *e.timing;
    auto num = [&](const char *k) { return t.stim(s, kind, k, where); };
    AxiRandParams p;
    p.start = num("start");
    p.count = num("count");
    p.seed = num("seed");
    p.max_len = num("max_len");
    p.valid_stall = num("valid_stall");
    p.ready_stall = num("ready_stall");
    p.gap = num("gap");
    if (kind == "axi4") {
        p.write = get_bool(s, "write", true);
        p.addr = num("addr");
        p.addr_span = num("addr_span");
        p.resp_delay = num("resp_delay");
        p.id = num("id");
        p.alias = num("alias");
        uint64_t bytes = p.write ? width_of(pre, "wstrb", e) : width_of(pre, "rdata", e) / 8;
        uint64_t lg = 0;
        while ((UINT64_C(2) << lg) <= (bytes ? bytes : 1))
            ++lg;
        p.size = get_u64(s, "size", lg, where);
        p.strb = bytes >= 64 ? UINT64_MAX : (UINT64_C(1) << bytes) - 1u;
        if (p.addr_span == 0 || (UINT64_C(1) << p.size) > (bytes ? bytes : 1))
            die("%s: addr_span must be >= 1, 2^size <= the data bytes (%llu)", where.c_str(),
                (unsigned long long)bytes);
    } else {
        p.dest = num("dest");
        uint64_t kw = width_of(pre, "tkeep", e);
        p.keep = kw >= 64 ? UINT64_MAX : (UINT64_C(1) << kw) - 1u;
    }
    if (p.max_len < 1 || p.max_len > 256 || p.valid_stall > t.max_stall || p.ready_stall > t.max_stall)
        die("%s: max_len must be 1..256, valid_stall and ready_stall 0..%llu", where.c_str(),
            (unsigned long long)t.max_stall);
    return p;
}

std::unique_ptr<Stimulus> make_axi_rand(const YAML::Node &s, const std::string &kind, const std::string &where,
                                        const StimulusEnv &e)
{
    std::unique_ptr<AxiRand> a(new AxiRand);
    std::vector<std::string> pre = prefixes(s, where);
    AxiRandParams p = rand_params(s, kind, pre, where, e);
    a->stim.reset(new AxiRandStim(kind == "axis", p, *e.timing));
    std::vector<std::string> sigs;
    for (const auto &kv : a->stim->values())
        sigs.push_back(kv.first);
    for (const auto &pf : pre) {
        bool any = false;
        for (const auto &sig : sigs)
            if (e.has(pf + "_" + sig)) {
                a->ports[sig].push_back(e.port(pf + "_" + sig));
                any = true;
            }
        if (!any)
            die("%s: the top has no port %s_%s (nor any other %s signal of prefix '%s')", where.c_str(),
                pf.c_str(), sigs[0].c_str(), kind.c_str(), pf.c_str());
    }
    return a;
}

} // namespace

std::unique_ptr<Stimulus> make_stimulus(const YAML::Node &s, const std::string &where, const StimulusEnv &env)
{
    std::string kind = get_str(s, "kind", "");
    std::unique_ptr<Stimulus> st;
    if (kind == "pulses")
        st = make_pulses(s, where, env);
    else if (kind == "task")
        st = make_task(s, where, env);
    else if (kind == "axi4lite")
        st = make_axi4lite(s, where, env);
    else if (kind == "reset")
        st = make_reset(s, where, env);
    else if (kind == "axi4" || kind == "axis")
        st = make_axi_rand(s, kind, where, env);
    else
        die("%s: unknown kind '%s' (pulses, task, axi4lite, reset, axi4, axis)", where.c_str(), kind.c_str());
    st->kind = kind;
    return st;
}
