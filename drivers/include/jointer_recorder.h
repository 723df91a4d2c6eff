/* SPDX-License-Identifier: MIT */
/*
 * jointer_recorder.h - an access recorder: a jointer_io that forwards every
 * register access to another jointer_io and logs it (op, offset, value,
 * result). Counts bus transactions in tests and benchmarks. No OS header.
 */
#ifndef JOINTER_RECORDER_H
#define JOINTER_RECORDER_H

#include "jointer.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

typedef struct jointer_access {
    uint32_t offset;
    uint32_t value;  /* written, or read (when result == 0) */
    int result;      /* what the inner access returned */
    uint8_t write;   /* 1 write, 0 read */
} jointer_access;

typedef struct jointer_recorder {
    jointer_io inner;
    jointer_access *log;   /* may be NULL: count only */
    uint32_t capacity;     /* entries of log */
    uint32_t count;        /* accesses since the last clear (may exceed capacity) */
    uint32_t reads, writes;
} jointer_recorder;

/* rec records the accesses through *io to inner; log may be NULL */
int jointer_recorder_init(jointer_recorder *rec, const jointer_io *inner,
                          jointer_access *log, uint32_t capacity, jointer_io *io);
void jointer_recorder_clear(jointer_recorder *rec);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_RECORDER_H */
