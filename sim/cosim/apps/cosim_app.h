/* SPDX-License-Identifier: MIT */
/*
 * cosim_app.h - helpers shared by the co-simulation test applications
 * (scenario.c, marks.c, overflow_irq.c, soft_reset.c). Not needed by an
 * application that only uses platform.h and the generated driver (demo.c).
 *
 * cosim_cfg is the descriptor of the scenario's monitor: run.py writes a
 * one-line cosim_config.c (`const jointer_cfg *const cosim_cfg =
 * &<name>_cfg;`) next to the generated driver.
 */
#ifndef COSIM_APP_H
#define COSIM_APP_H

#include <stdint.h>
#include <stdio.h>

#include "jointer.h"
#include "jointer_trace_file.h"
#include "platform.h"

extern const jointer_cfg *const cosim_cfg;

/* bounds cache storage: DCAPFs of the largest monitor an app may open */
#define COSIM_MAX_DCAPFS 512u

/* evaluate a libjointer call; on a negative result print it and return 1 */
#define COSIM_TRY(call)                                                        \
    do {                                                                       \
        int cosim_r_ = (call);                                                 \
        if (cosim_r_ < 0) {                                                    \
            fprintf(stderr, "app: %s:%d: %s -> %d (%s)\n", __FILE__, __LINE__, \
                    #call, cosim_r_, jointer_strerror(cosim_r_));              \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* platform_monitor_io + jointer_init + bounds cache + jointer_selftest */
int cosim_open(jointer_dev *dev);

/*
 * The setup the harness passes in argv (from the scenario's `setup`):
 *   mode:<sniffer>=<idle|init|filtering|no_filtering>  (default no_filtering)
 *   bounds:<metric>=<low>:<high>                       (jointer_initialize)
 *   threshold:<metric>=<value>                         (jointer_set_threshold)
 * Every sniffer gets its mode, then the bounds and thresholds are loaded.
 */
int cosim_setup(jointer_dev *dev, int argc, char **argv);

/* value of a `key=value` argument, or NULL */
const char *cosim_arg(int argc, char **argv, const char *key);
/* the same as an unsigned number (strtoull base 0), or dflt */
uint64_t cosim_arg_u64(int argc, char **argv, const char *key, uint64_t dflt);

int cosim_run_all(jointer_dev *dev);
int cosim_stop_all(jointer_dev *dev);

/* platform_report of every metric (its name), each LMIC's STATUS
 * ("status.<lmic>") and each trace's FILL and STATUS ("<trace>.fill",
 * "<trace>.status"; a sink trace: "<trace>.wptr", "<trace>.lost",
 * "<trace>.status" from its registers) */
int cosim_report_all(jointer_dev *dev);

/* platform_expect of what cosim_report_all reports for a monitor that saw
 * nothing: every result at its reset value (all ones for min, else 0),
 * every STATUS, FILL and trace STATUS 0 (a sink: WPTR and LOST 0) */
void cosim_expect_idle(void);

/* (cosim_traces.c) the trace files of the generic application: start every
 * sink on its memory model (and sync it), then after the stop write every
 * trace and sink into <trace>.jtr in the run's directory, reporting
 * "<trace>.file_records" */
int cosim_traces_start(jointer_dev *dev);
int cosim_traces_write(jointer_dev *dev);

/* the host's clock of the applications, in ns: the simulated time plus
 * COSIM_HOST_EPOCH_NS, as a board's CLOCK_MONOTONIC counts from its boot, long
 * before the PL's reset (so a timeline that ignored the host's sync could not
 * look right by chance) */
#define COSIM_HOST_EPOCH_NS 7000000000ull
uint64_t cosim_host_ns(void);

/* (cosim_tfile.c, with jointer_trace_file.c in the scenario's app_sources)
 * a trace file written by an application, read back: rewind, header into
 * *h, up to max records into back (*n), close; reports file.records,
 * file.lost and file.complete. Returns 0, or 1 after printing the error */
int cosim_read_back(FILE *f, jointer_tfile_header *h, jointer_trace_record *back, uint32_t max,
                    uint32_t *n);

#endif /* COSIM_APP_H */
