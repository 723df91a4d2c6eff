/* SPDX-License-Identifier: MIT */
// util.h - small helpers of the Verilator harness: the fatal error, the
// scenario / top / contract YAML readers (integers as YAML 1.1 writes them:
// 0x.., decimal) and JSON string quoting for the report.
#ifndef COSIM_UTIL_H
#define COSIM_UTIL_H

#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

[[noreturn]] void die(const char *fmt, ...);

uint64_t to_u64(const YAML::Node &n, const std::string &what);
uint64_t get_u64(const YAML::Node &map, const char *key, uint64_t dflt, const std::string &where);
// a required integer: die naming `where`.key when it is missing
uint64_t need_u64(const YAML::Node &map, const char *key, const std::string &where);
std::string get_str(const YAML::Node &map, const char *key, const std::string &dflt);
bool get_bool(const YAML::Node &map, const char *key, bool dflt);

std::string json_str(const std::string &s);
// "0x.." of a little-endian byte string, no leading zeros (the handshake log)
std::string hex_bytes(const uint8_t *b, unsigned n);

#endif
