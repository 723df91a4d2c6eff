/* SPDX-License-Identifier: MIT */
/*
 * app_check.h - CHECK(call) for the co-simulation applications that use
 * the generated driver directly (demo.c, latency.c): evaluate a driver call;
 * when it returns non-zero, print "<APP_NAME>: <call>: <error text>" on
 * stderr and return 1 from the calling function (app_main: the run fails).
 *
 * The application defines APP_NAME (a string literal) before including it.
 */
#ifndef COSIM_APP_CHECK_H
#define COSIM_APP_CHECK_H

#include <stdio.h>

#include "jointer.h"

#ifndef APP_NAME
#error "define APP_NAME (the application's name) before including app_check.h"
#endif

#define CHECK(call)                                                          \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != 0) {                                                      \
            fprintf(stderr, APP_NAME ": %s: %s\n", #call, jointer_strerror(rc_)); \
            return 1;                                                        \
        }                                                                    \
    } while (0)

#endif /* COSIM_APP_CHECK_H */
