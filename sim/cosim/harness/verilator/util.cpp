// SPDX-License-Identifier: MIT
// util.cpp - see util.h.
#include "util.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "cosim-verilator: error: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::exit(2);
}

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

uint64_t need_u64(const YAML::Node &map, const char *key, const std::string &where)
{
    YAML::Node n = map.IsMap() ? map[key] : YAML::Node();
    if (!n || n.IsNull())
        die("%s.%s: missing", where.c_str(), key);
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

std::string hex_bytes(const uint8_t *b, unsigned n)
{
    static const char digits[] = "0123456789abcdef";
    std::string h;
    for (unsigned i = n; i-- > 0;) {
        h += digits[b[i] >> 4];
        h += digits[b[i] & 15u];
    }
    size_t z = h.find_first_not_of('0');
    return "0x" + (z == std::string::npos ? std::string("0") : h.substr(z));
}
