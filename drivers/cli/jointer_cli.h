/* SPDX-License-Identifier: MIT */
/*
 * jointer_cli.h - what the files of the jointer CLI share: the device it
 * opened, the options, the helpers, and one function per command (the
 * command table is in jointer_cli.c).
 */
#ifndef JOINTER_CLI_H
#define JOINTER_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "jointer.h"
#include "jointer_descfile.h"
#include "jointer_hosted.h"
#include "jointer_pm.h"
#include "jointer_trace_file.h"

/* -DJOINTER_CLI_CFG=<name>_cfg (linked with <name>.c): the descriptor is
 * compiled in; without it the CLI is the generic one (jointer_desc_resolve) */
#ifdef JOINTER_CLI_CFG
extern const jointer_cfg JOINTER_CLI_CFG;
#endif

extern const jointer_cfg *cli_cfg;             /* the monitor's descriptor */
extern char cli_desc_from[4200];               /* where it came from (jointer info) */
#define CFG cli_cfg

#define MAX_DCAPFS 1024u
#define MAX_METRICS 1024u

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

extern jointer_dev cli_dev;                    /* opened by cli_open_device */
extern const char *cli_device_spec;            /* --device */
extern unsigned cli_open_flags;                /* --force: JOINTER_FORCE */
extern volatile sig_atomic_t cli_stop_requested;  /* SIGINT/SIGTERM (watch, trace --follow) */
extern const char *const cli_mode_names[4];
extern const char *const cli_extractor_names[3];
extern const char *const cli_aggregator_names[6];

/* open --device, check its identity; prints what is wrong (with a hint) */
int cli_open_device(void);
int cli_uio_name_error(const char *spec, int err);
/* a 32-bit unsigned (decimal, 0x hex, 0 octal); -1 when not one */
int cli_parse_u32(const char *s, uint32_t *v);
/* prints "jointer: WHAT: error" to stderr, returns the exit status 1 */
int cli_fail(int r, const char *what);
int cli_parse_format(const char *s, enum fmt *f);
void cli_on_signal(int sig);
double cli_now_ms(void);

/* commands: argc/argv are the command's arguments; return the exit status */
/* trace --follow of a sink trace (jointer_cli_sink.c): 0, or an exit status */
int cli_sink_begin(unsigned tr, const char *ring_spec, uint32_t wm_records);
/* stop, drain the rest (records through sink, or units through usink when
 * not NULL; nothing when max is 0), detach and unmap the ring */
int cli_sink_end(unsigned tr, jointer_trace_record *buf, uint64_t *units, uint32_t max,
                 jointer_trace_sink sink, jointer_unit_sink usink, void *ctx, uint64_t *drained);
int cli_cmd_info(int argc, char **argv);
int cli_cmd_selftest(int argc, char **argv);
int cli_cmd_mode(int argc, char **argv);
int cli_cmd_init(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_stop(int argc, char **argv);
int cli_cmd_reset(int argc, char **argv);
int cli_cmd_mark(int argc, char **argv);
int cli_cmd_print(int argc, char **argv);
int cli_cmd_read(int argc, char **argv);
int cli_cmd_watch(int argc, char **argv);
int cli_cmd_trace(int argc, char **argv);
int cli_cmd_pm(int argc, char **argv);
int cli_cmd_profile(int argc, char **argv);

#endif
