// SPDX-License-Identifier: MIT
// report.cpp - see report.h.
#include "report.h"

#include <cstdio>

#include "util.h"

void Report::put(Values &v, const std::string &name, uint64_t val)
{
    for (auto &kv : v)
        if (kv.first == name) {
            kv.second = val;
            return;
        }
    v.emplace_back(name, val);
}

bool Report::find(const Values &v, const std::string &n, uint64_t *out)
{
    for (const auto &kv : v)
        if (kv.first == n) {
            *out = kv.second;
            return true;
        }
    return false;
}

void Report::error(const std::string &e)
{
    errors_.push_back(e);
    std::fprintf(stderr, "cosim-verilator: %s\n", e.c_str());
}

std::vector<Report::Check> Report::checks(const Values &expect_yaml) const
{
    std::vector<Check> out;
    for (const auto *src : {&expect_yaml, &app_expect_})
        for (const auto &kv : *src) {
            Check c{kv.first, src == &expect_yaml ? "scenario" : "app", false, kv.second, 0, false};
            c.has_got = find(metrics_, kv.first, &c.got);
            c.ok = c.has_got && c.got == c.expected;
            out.push_back(c);
        }
    return out;
}

namespace {

void dump_map(FILE *f, const char *key, const Report::Values &v)
{
    std::fprintf(f, "  \"%s\": {", key);
    for (size_t i = 0; i < v.size(); ++i)
        std::fprintf(f, "%s\n    %s: %llu", i ? "," : "", json_str(v[i].first).c_str(),
                     (unsigned long long)v[i].second);
    std::fprintf(f, "%s},\n", v.empty() ? "" : "\n  ");
}

} // namespace

bool Report::write(const std::string &path, const YAML::Node &scenario_expect, const Run &run) const
{
    Values expect_yaml;
    if (scenario_expect)
        for (auto it : scenario_expect)
            expect_yaml.emplace_back(it.first.as<std::string>(),
                                     to_u64(it.second, "expect." + it.first.as<std::string>()));
    std::vector<Check> cs = checks(expect_yaml);
    bool pass = run.app_rc == 0 && errors_.empty();
    for (const auto &c : cs)
        pass = pass && c.ok;

    FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        die("cannot write %s", path.c_str());
    std::fprintf(f, "{\n  \"simulator\": \"verilator\",\n");
    std::fprintf(f, "  \"scenario\": %s,\n", json_str(run.scenario).c_str());
    std::fprintf(f, "  \"top\": %s,\n", json_str(run.top).c_str());
    std::fprintf(f, "  \"app\": %s,\n", json_str(run.app).c_str());
    std::fprintf(f, "  \"app_rc\": %d,\n", run.app_rc);
    dump_map(f, "metrics", metrics_);
    dump_map(f, "app_expect", app_expect_);
    dump_map(f, "expect", expect_yaml);
    std::fprintf(f, "  \"checks\": [");
    for (size_t i = 0; i < cs.size(); ++i) {
        const Check &c = cs[i];
        std::fprintf(f, "%s\n    {\"name\": %s, \"source\": \"%s\", \"expected\": %llu, \"got\": ", i ? "," : "",
                     json_str(c.name).c_str(), c.source.c_str(), (unsigned long long)c.expected);
        if (c.has_got)
            std::fprintf(f, "%llu", (unsigned long long)c.got);
        else
            std::fprintf(f, "null");
        std::fprintf(f, ", \"ok\": %s}", c.ok ? "true" : "false");
    }
    std::fprintf(f, "%s],\n", cs.empty() ? "" : "\n  ");
    std::fprintf(f, "  \"errors\": [");
    for (size_t i = 0; i < errors_.size(); ++i)
        std::fprintf(f, "%s%s", i ? ", " : "", json_str(errors_[i]).c_str());
    std::fprintf(f, "],\n");
    std::fprintf(f, "  \"monitor_transactions\": %llu,\n", (unsigned long long)run.monitor_transactions);
    std::fprintf(f, "  \"accel_transactions\": %llu,\n", (unsigned long long)run.accel_transactions);
    std::fprintf(f, "  \"bus_errors\": %llu,\n", (unsigned long long)run.bus_errors);
    std::fprintf(f, "  \"sim_time_ps\": %llu,\n", (unsigned long long)run.sim_time_ps);
    std::fprintf(f, "  \"cycles\": {");
    for (size_t i = 0; i < run.cycles.size(); ++i)
        std::fprintf(f, "%s%s: %llu", i ? ", " : "", json_str(run.cycles[i].first).c_str(),
                     (unsigned long long)run.cycles[i].second);
    std::fprintf(f, "},\n");
    std::fprintf(f, "  \"wall_s\": %.6f,\n", run.wall_s);
    std::fprintf(f, "  \"pass\": %s\n}\n", pass ? "true" : "false");
    std::fclose(f);
    return pass;
}
