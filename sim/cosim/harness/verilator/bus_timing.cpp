// SPDX-License-Identifier: MIT
// bus_timing.cpp - see bus_timing.h.
#include "bus_timing.h"

#include <cmath>

#include "util.h"

namespace {

YAML::Node section(const YAML::Node &root, const char *key, const std::string &file)
{
    YAML::Node n = root[key];
    if (!n || !n.IsMap())
        die("%s: %s: missing (a mapping)", file.c_str(), key);
    return n;
}

} // namespace

BusTiming BusTiming::load(const std::string &path)
{
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::Exception &e) {
        die("%s: %s", path.c_str(), e.what());
    }
    if (!root.IsMap())
        die("%s: not a mapping", path.c_str());
    BusTiming t;
    YAML::Node c = section(root, "clock", path), r = section(root, "reset", path);
    YAML::Node sc = section(root, "scenario", path), m = section(root, "master", path);
    YAML::Node st = section(root, "stimulus", path), mem = section(root, "memory", path);
    t.grain_ps = need_u64(c, "grain_ps", path + ": clock");
    t.offset_ps = need_u64(c, "offset_ps", path + ": clock");
    if (t.grain_ps < 2 || t.grain_ps % 2 || t.offset_ps % 2 == 0)
        die("%s: clock: grain_ps must be even, offset_ps odd", path.c_str());
    t.release_periods = need_u64(r, "release_periods", path + ": reset");
    t.app_start_periods = need_u64(r, "app_start_periods", path + ": reset");
    t.run_ns = need_u64(sc, "run_ns", path + ": scenario");
    t.irq_ms_ns = need_u64(sc, "irq_ms_ns", path + ": scenario");
    t.wstrb = need_u64(m, "wstrb", path + ": master");
    t.bready = need_u64(m, "bready", path + ": master");
    t.rready = need_u64(m, "rready", path + ": master");
    t.error_resp = need_u64(m, "error_resp", path + ": master");
    t.irq_min_edges = need_u64(m, "irq_min_edges", path + ": master");
    t.axi4lite_resp_edges = need_u64(st, "axi4lite_resp_edges", path + ": stimulus");
    YAML::Node d = section(st, "defaults", path + ": stimulus");
    for (const char *kind : {"pulses", "task", "axi4lite", "reset", "axi4", "axis"}) {
        if (!d[kind] || !d[kind].IsMap())
            die("%s: stimulus.defaults.%s: missing (a mapping)", path.c_str(), kind);
        t.stim_defaults[kind] = d[kind];
    }
    t.aw_queue = need_u64(mem, "aw_queue", path + ": memory");
    t.slverr = need_u64(mem, "slverr", path + ": memory");
    t.boundary = need_u64(mem, "boundary", path + ": memory");
    t.max_stall = need_u64(mem, "max_stall", path + ": memory");
    YAML::Node lcg = section(mem, "lcg", path + ": memory");
    t.lcg_mul = need_u64(lcg, "mul", path + ": memory.lcg");
    t.lcg_inc = need_u64(lcg, "inc", path + ": memory.lcg");
    t.lcg_mask = need_u64(lcg, "mask", path + ": memory.lcg");
    t.lcg_shift = need_u64(lcg, "shift", path + ": memory.lcg");
    t.lcg_percent = need_u64(lcg, "percent", path + ": memory.lcg");
    if (t.boundary == 0 || t.aw_queue == 0 || t.lcg_percent == 0 || t.lcg_mask > 0xFFFFFFFFu)
        die("%s: memory: boundary, aw_queue and lcg.percent must be > 0, lcg.mask 32 bits", path.c_str());
    YAML::Node dr = mem["draws"];
    if (!dr || !dr.IsSequence())
        die("%s: memory.draws: missing (a list)", path.c_str());
    for (auto x : dr)
        t.draws.push_back(x.as<std::string>());
    if (t.draws.size() != 2 || t.draws[0] == t.draws[1] ||
        (t.draws[0] != "aw" && t.draws[0] != "w") || (t.draws[1] != "aw" && t.draws[1] != "w"))
        die("%s: memory.draws: expected aw and w, once each", path.c_str());
    t.mem_defaults = section(mem, "defaults", path + ": memory");
    return t;
}

uint64_t BusTiming::period_ps(double ns) const
{
    return grain_ps * (uint64_t)std::llround(ns * 1000.0 / (double)grain_ps);
}

uint64_t BusTiming::stim(const YAML::Node &s, const std::string &kind, const char *key,
                         const std::string &where) const
{
    YAML::Node n = s[key];
    if (n && !n.IsNull())
        return to_u64(n, where + "." + key);
    return need_u64(stim_defaults.at(kind), key, "bus_timing.yaml: stimulus.defaults." + kind);
}

uint64_t BusTiming::mem(const YAML::Node &m, const char *key, const std::string &where) const
{
    YAML::Node n = m[key];
    if (n && !n.IsNull())
        return to_u64(n, where + "." + key);
    return need_u64(mem_defaults, key, "bus_timing.yaml: memory.defaults");
}
