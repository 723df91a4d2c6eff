// SPDX-License-Identifier: MIT
// main.cpp - the Verilator co-simulation executable (sim/cosim/README.md):
// the command line, apps/platform.h served by the ScenarioRunner (the C
// application calls it on this thread), and the application's run.
//
//     <exe> --scenario S.yaml --top TOP.yaml --timing bus_timing.yaml
//           [--report R.json] [--fst W.fst] [--handshakes H.log]
#include <cerrno>
#include <string>
#include <vector>

#include "platform.h"
#include "scenario_runner.h"
#include "util.h"

namespace {

ScenarioRunner *g_run = nullptr;

int io_read32(void *, uint32_t off, uint32_t *v) { return g_run->mon_read(off, v); }
int io_write32(void *, uint32_t off, uint32_t v) { return g_run->mon_write(off, v); }
int io_wait_irq(void *, int timeout_ms) { return g_run->wait_irq(timeout_ms); }
const jointer_io_ops io_ops = {io_read32, io_write32, io_wait_irq};

RunnerPaths parse_args(int argc, char **argv)
{
    RunnerPaths p;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&](const char *opt) -> std::string {
            if (i + 1 >= argc)
                die("%s needs a value", opt);
            return argv[++i];
        };
        if (a == "--scenario")
            p.scenario = val("--scenario");
        else if (a == "--top")
            p.top = val("--top");
        else if (a == "--timing")
            p.timing = val("--timing");
        else if (a == "--report")
            p.report = val("--report");
        else if (a == "--fst")
            p.fst = val("--fst");
        else if (a == "--handshakes")
            p.handshakes = val("--handshakes");
        else
            die("usage: %s --scenario S.yaml --top TOP.yaml --timing bus_timing.yaml [--report R.json] "
                "[--fst W.fst] [--handshakes H.log]",
                argv[0]);
    }
    if (p.scenario.empty() || p.top.empty() || p.timing.empty())
        die("--scenario, --top and --timing are required");
    return p;
}

} // namespace

extern "C" {

int platform_monitor_io(jointer_io *io)
{
    if (io == nullptr)
        return -EINVAL;
    *io = jointer_io_from_ops(&io_ops, nullptr);
    return 0;
}
uint32_t platform_read32(uint32_t addr) { return g_run->plat_read(addr); }
void platform_write32(uint32_t addr, uint32_t value) { g_run->plat_write(addr, value); }
void platform_wait_ns(uint64_t ns) { g_run->wait_ns(ns); }
void platform_stimulus_start(void) { g_run->stimulus_start(); }
void platform_stimulus_wait(void) { g_run->stimulus_wait(); }
void platform_report(const char *name, uint64_t value) { g_run->report(name, value); }
void platform_expect(const char *name, uint64_t value) { g_run->expect(name, value); }
uint64_t platform_monitor_transactions(void) { return g_run->monitor_transactions(); }
uint64_t platform_bus_cycles(void) { return g_run->bus_cycles(); }
uint64_t platform_time_ps(void) { return g_run->time_ps(); }
void platform_bus_reset(uint64_t cycles) { g_run->bus_reset(cycles); }
int platform_ring(const char *port, volatile void **mem, uint32_t *bus_addr, uint32_t *size)
{
    return g_run->ring(port, mem, bus_addr, size);
}

} // extern "C"

int main(int argc, char **argv)
{
    RunnerPaths paths = parse_args(argc, argv);
    int rc;
    {
        ScenarioRunner run(paths);
        g_run = &run;
        run.start();
        std::vector<std::string> args = run.app_argv();
        std::vector<char *> av;
        for (auto &s : args)
            av.push_back(&s[0]);
        av.push_back(nullptr);
        int app_rc = app_main((int)args.size(), av.data());
        rc = run.finish(app_rc);
        g_run = nullptr;
    }
    return rc;
}
