// SPDX-License-Identifier: MIT
// handshake_log.cpp - see handshake_log.h.
#include "handshake_log.h"

#include "agent.h"
#include "util.h"

void HandshakeLog::open(const std::string &path, const uint64_t *now)
{
    now_ = now;
    if (path.empty())
        return;
    f_ = std::fopen(path.c_str(), "w");
    if (!f_)
        die("cannot write %s", path.c_str());
}

void HandshakeLog::close()
{
    if (f_)
        std::fclose(f_);
    f_ = nullptr;
}

void HandshakeLog::line(const Clock &c, const std::string &bus, const char *channel, const std::string &fields)
{
    if (!f_)
        return;
    std::fprintf(f_, "%llu %s %llu %s %s %s\n", (unsigned long long)*now_, c.name.c_str(),
                 (unsigned long long)c.edges, bus.c_str(), channel, fields.c_str());
}
