/* SPDX-License-Identifier: MIT */
// report.h - what a run reports (sim/cosim/README.md, "Reports"): the
// metrics and expectations the application gives through platform.h, the
// errors of the run, the checks (the scenario's `expect` and the app's
// platform_expect against the reported metrics) and report.json.
#ifndef COSIM_REPORT_H
#define COSIM_REPORT_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

class Report {
public:
    using Values = std::vector<std::pair<std::string, uint64_t>>; // in the order first reported

    // the facts of the run besides the values
    struct Run {
        std::string scenario, top, app;
        int app_rc = 0;
        uint64_t monitor_transactions = 0, accel_transactions = 0, bus_errors = 0, sim_time_ps = 0;
        Values cycles; // rising edges per clock
        double wall_s = 0;
    };

    void metric(const std::string &name, uint64_t v) { put(metrics_, name, v); }
    void expect(const std::string &name, uint64_t v) { put(app_expect_, name, v); }
    // an error of the run (the run fails); also printed
    void error(const std::string &e);

    // check, write report.json at path; true when the run passes
    bool write(const std::string &path, const YAML::Node &scenario_expect, const Run &run) const;

private:
    struct Check {
        std::string name, source;
        bool has_got;
        uint64_t expected, got;
        bool ok;
    };
    static void put(Values &v, const std::string &name, uint64_t val);
    static bool find(const Values &v, const std::string &n, uint64_t *out);
    std::vector<Check> checks(const Values &expect_yaml) const;

    Values metrics_, app_expect_;
    std::vector<std::string> errors_;
};

#endif
