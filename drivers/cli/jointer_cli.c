// SPDX-License-Identifier: MIT
/*
 * jointer - command-line access to one jointer monitor (hosted Linux): the
 * options, the device, the shared helpers and the command table. The
 * commands are in jointer_cli_{control,read,trace,sink,pm}.c (jointer_cli.h).
 *
 * Generic (make cli): one binary for every monitor; the descriptor comes from
 * --desc FILE, $JOINTER_DESC, the device's descriptor ROM or the search path
 * $JOINTER_DESC_PATH by the config hash the device reports
 * (jointer_desc_resolve, doc/descriptor-file.md). Compiled in (make cli
 * CONFIG=f CLI_DESC=builtin): linked with the generated descriptor <name>.c
 * and compiled with -DJOINTER_CLI_CFG=<name>_cfg.
 *
 * Test hooks (environment): JOINTER_UIO_SYSFS replaces /sys/class/uio,
 * JOINTER_UIO_DEV /dev (where uio:name= finds uioN), JOINTER_DEVMEM_PATH replaces /dev/mem, JOINTER_DEVICE is the default
 * --device.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jointer_cli.h"

jointer_dev cli_dev;
static uint32_t bounds[4u * MAX_DCAPFS]; /* 2 INIT words per DCAPF, 4 on a wide sniffer */
#ifdef JOINTER_CLI_CFG
const jointer_cfg *cli_cfg = &JOINTER_CLI_CFG;
char cli_desc_from[4200] = "compiled in";
#else
const jointer_cfg *cli_cfg;
char cli_desc_from[4200];
static jointer_cfg *loaded_cfg;   /* jointer_descfile_free at exit */
static const char *desc_option;   /* --desc */
#endif
const char *cli_device_spec;
unsigned cli_open_flags;
volatile sig_atomic_t cli_stop_requested;

const char *const cli_mode_names[4] = {"idle", "init", "filtering", "no_filtering"};
const char *const cli_extractor_names[3] = {"event", "time", "trace"};
const char *const cli_aggregator_names[6] = {"sum", "max", "min", "last", "histogram", "mean"};

static void usage_monitor(FILE *f)
{
#ifdef JOINTER_CLI_CFG
    fprintf(f, "usage: jointer [--device SPEC] [--force] COMMAND [ARGS]\n"
               "monitor: %s (config hash 0x%08" PRIX32 ", compiled in)\n", CFG->name, CFG->config_hash);
#else
    fprintf(f, "usage: jointer [--device SPEC] [--desc FILE.jdesc] [--force] COMMAND [ARGS]\n"
               "monitor: the device's, described by --desc FILE, else $JOINTER_DESC, else the device's\n"
               "  descriptor ROM, else the *.jdesc of its config hash in $JOINTER_DESC_PATH\n"
               "  (default " JOINTER_DESC_DIRS ")\n");
#endif
}

static void usage(FILE *f)
{
    usage_monitor(f);
    fprintf(f,
            "commands:\n"
            "  info                          the descriptor and the device's identity\n"
            "  selftest                      ID, VERSION, CONFIG_HASH, INFO (+ SCRATCH when it has one)\n"
            "  mode SNIFFER MODE             idle | init | filtering | no_filtering\n"
            "  init DCAPF LOW HIGH           load a filter range, then FILTERING\n"
            "  run | stop | reset [LMIC]     every LMIC when none is named\n"
            "  read [METRIC...] [--format table|csv|json]\n"
            "  watch --interval MS [--count N] [--output FILE.csv] [METRIC...]\n"
            "  mark VALUE                    one MARK write (host timestamp event)\n"
            "  trace [TRACE] [--format table|csv|json]\n"
            "  trace TRACE --follow -o FILE [--watermark N] [--timeout-ms MS] [--records N]\n"
            "        [--duration-ms MS]      relay trace: drain to FILE until N records, MS or Ctrl-C\n"
            "        [--ring ADDR:SIZE] [--decode]   sink trace: its ring (default: map1 of a UIO device);\n"
            "                                a compact sink's units are stored as they are (encoding 1)\n"
            "                                unless --decode (raw records, encoding 0)\n"
            "  trace --convert FILE... [--format csv|json|vcd|perfetto]   --follow files as text, VCD, Perfetto\n"
            "  print                         every LMIC's registers (jointer_print_reg)\n"
            "  pm SNIFFER SYMFILE | --off    program monitor: load its addresses (NAME ENTRY [EXIT] lines)\n"
            "  profile SYMFILE [TRACE] [--input FILE.csv|FILE.jtr] [--period-ns P] [--format table|csv]\n"
            "                                per-function calls and cycles from a program monitor trace\n"
            "device: --device uio:/dev/uioN | uio:name=NODE | devmem:ADDR | devmem (default $JOINTER_DEVICE,\n"
            "        else uio:/dev/uio0); --force accepts a VERSION/CONFIG_HASH mismatch\n");
}

/* uio:name=N that found no device or several: what is there (1: said so) */
int cli_uio_name_error(const char *spec, int err)
{
    jointer_uio_params p = {getenv("JOINTER_UIO_SYSFS"), NULL, 0, getenv("JOINTER_UIO_DEV")};
    char path[512], found[1024];

    if (strncmp(spec, "uio:name=", 9) != 0 || (err != -ENOENT && err != -ENOTUNIQ))
        return 0;
    jointer_uio_find(spec + 9, &p, path, sizeof path, found, sizeof found);
    fprintf(stderr, "jointer: %s: %s UIO device is named \"%s\"; found: %s\n"
                    "  hint: the name is the device-tree node's (cat /sys/class/uio/uio*/name)\n",
            spec, err == -ENOENT ? "no" : "more than one", spec + 9, found[0] ? found : "no UIO device at all");
    return 1;
}

static void cli_hint(int err)
{
    switch (-err) {
    case ENOENT:
        fprintf(stderr, "jointer: no such device: %s\n"
                        "  hint: is the bitstream loaded and the monitor's device-tree node bound to\n"
                        "  uio_pdrv_genirq (uio_pdrv_genirq.of_id=jointer,monitor-1.0)? ls /sys/class/uio/*/name;\n"
                        "  or try --device devmem:0x%" PRIX64 " as root\n",
                cli_device_spec, CFG->base_address);
        break;
    case EACCES:
    case EPERM:
        fprintf(stderr, "jointer: permission denied: %s\n"
                        "  hint: use UIO with a udev rule instead of root, e.g. in\n"
                        "  /etc/udev/rules.d/99-jointer.rules:\n"
                        "    SUBSYSTEM==\"uio\", ATTR{name}==\"%s\", GROUP=\"jointer\", MODE=\"0660\"\n"
                        "  then add yourself to group jointer (/dev/mem always needs root)\n",
                cli_device_spec, CFG->name);
        break;
    default:
        fprintf(stderr, "jointer: %s: %s\n", cli_device_spec, jointer_strerror(err));
        break;
    }
}

int cli_open_device(void)
{
    const char *spec = cli_device_spec;
    unsigned flags = cli_open_flags | JOINTER_FORCE; /* identity is checked below, with details */
    jointer_ident id;
    int r;

    if (strncmp(spec, "uio:", 4) == 0) {
        jointer_uio_params p = {getenv("JOINTER_UIO_SYSFS"), NULL, 0, getenv("JOINTER_UIO_DEV")};
        r = jointer_uio_open(&cli_dev, CFG, spec + 4, &p, flags);
        if (cli_uio_name_error(spec, r))
            return r;
    } else if (strcmp(spec, "devmem") == 0 || strncmp(spec, "devmem:", 7) == 0) {
        uint64_t addr = CFG->base_address;
        if (spec[6] == ':') {
            char *end;
            errno = 0;
            addr = strtoull(spec + 7, &end, 0);
            if (errno != 0 || end == spec + 7 || *end != '\0' || spec[7] == '-' || spec[7] == '+') {
                fprintf(stderr, "jointer: --device %s: \"%s\" is not an address (hex 0x43C00000 or "
                                "decimal, >= 0)\n", spec, spec + 7);
                return -EINVAL;
            }
            if ((addr & 3u) != 0) {
                fprintf(stderr, "jointer: --device %s: the address must be 4-byte aligned (the monitor's base "
                                "address; the descriptor's is 0x%" PRIX64 ")\n", spec, CFG->base_address);
                return -EINVAL;
            }
        }
        r = jointer_devmem_open(&cli_dev, CFG, addr, getenv("JOINTER_DEVMEM_PATH"), flags);
    } else {
        fprintf(stderr, "jointer: --device must be uio:/dev/uioN, devmem:ADDR or devmem, not \"%s\"\n", spec);
        return -EINVAL;
    }
    if (r == -ENODEV) {
        fprintf(stderr, "jointer: no jointer monitor at %s (the ID register is not 0x%08X \"JNTR\")\n"
                        "  hint: check the address, or which /dev/uioN is the monitor (/sys/class/uio/*/name)\n",
                spec, JOINTER_ID_VALUE);
        return r;
    }
    if (r == -EINVAL && strncmp(spec, "uio:", 4) == 0) {
        fprintf(stderr, "jointer: %s is not a usable UIO device for %s (name not uioN, or its map0 is\n"
                        "  smaller than the monitor's 0x%" PRIX32 " bytes)\n", spec, CFG->name, CFG->span);
        return r;
    }
    if (r < 0) {
        cli_hint(r);
        return r;
    }
    r = jointer_attach_bounds(&cli_dev, bounds, 4u * MAX_DCAPFS);
    if (r < 0) {
        fprintf(stderr, "jointer: monitor too large for this CLI (%u DCAPFs)\n", (unsigned)CFG->num_dcapfs);
        return r;
    }
    if (jointer_identify(&cli_dev, &id) == 0 && !(cli_open_flags & JOINTER_FORCE)) {
        if ((id.version >> 16) != (CFG->version >> 16)) {
            fprintf(stderr, "jointer: hardware VERSION 0x%08" PRIX32 ", this jointer supports 0x%08" PRIX32
                            "\n  hint: use a matching jointer release, or --force\n", id.version, CFG->version);
            return -EPROTONOSUPPORT;
        }
        if (jointer_selftest(&cli_dev, JOINTER_SELFTEST_NO_WRITE, NULL) == -ESTALE) {
#ifdef JOINTER_CLI_CFG
            fprintf(stderr, "jointer: config hash mismatch: the device at %s reports 0x%08" PRIX32
                            " (INFO 0x%08" PRIX32 "),\n  this jointer was built for %s, 0x%08" PRIX32 "\n"
                            "  hint: rebuild it from the YAML the bitstream was generated from\n"
                            "  (make cli CONFIG=that.yaml), or pass --force\n",
                    spec, id.config_hash, id.info, CFG->name, CFG->config_hash);
#else
            fprintf(stderr, "jointer: config hash mismatch: the descriptor (%s) is monitor %s, 0x%08" PRIX32
                            ", the device at %s reports 0x%08" PRIX32 ": another monitor's descriptor (pass its "
                            "own .jdesc, or --force)\n",
                    cli_desc_from, CFG->name, CFG->config_hash, spec, id.config_hash);
#endif
            return -ESTALE;
        }
    }
    return 0;
}

int cli_parse_u32(const char *s, uint32_t *v)
{
    char *end;
    unsigned long long x;
    errno = 0;
    x = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0' || x > 0xFFFFFFFFull || s[0] == '-')
        return -1;
    *v = (uint32_t)x;
    return 0;
}

int cli_fail(int r, const char *what)
{
    fprintf(stderr, "jointer: %s: %s\n", what, jointer_strerror(r));
    return 1;
}

int cli_parse_format(const char *s, enum fmt *f)
{
    if (strcmp(s, "table") == 0)
        *f = FMT_TABLE;
    else if (strcmp(s, "csv") == 0)
        *f = FMT_CSV;
    else if (strcmp(s, "json") == 0)
        *f = FMT_JSON;
    else
        return -1;
    return 0;
}

void cli_on_signal(int sig)
{
    (void)sig;
    cli_stop_requested = 1;
}

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#ifndef JOINTER_CLI_CFG
/* what is wrong with a descriptor file, in words */
static const char *desc_error(int r)
{
    switch (-r) {
    case ENOENT: return "no such file";
    case EACCES: return "permission denied";
    case EILSEQ: return "not a jointer descriptor file (no JDSC magic)";
    case EPROTONOSUPPORT: return "written for another jointer (format or major version): this jointer reads "
                                 "formats 1 to 3 of version 2; regenerate it with this jointer-gen";
    case EISDIR: return "a directory, not a descriptor file (give the <name>.jdesc inside)";
    case ESPIPE: return "a FIFO or socket, not a descriptor file (a regular <name>.jdesc file)";
    case ENODEV: return "a device, not a descriptor file (a regular <name>.jdesc file)";
    case EBADMSG: return "damaged (CRC mismatch)";
    case EFBIG: return "too large for a descriptor file (more than 1 MiB)";
    case EINVAL: return "truncated or malformed descriptor file";
    default: return jointer_strerror(r);
    }
}

/* no descriptor: say why in one line (the device's config hash when it has one) */
static void no_descriptor(int r)
{
    const char *dirs = getenv("JOINTER_DESC_PATH");
    jointer_ident id;

    if (dirs == NULL || dirs[0] == '\0')
        dirs = JOINTER_DESC_DIRS;
    if (r == -ENOENT && jointer_desc_probe(cli_device_spec, &id) == 0)
        fprintf(stderr, "jointer: no descriptor for the monitor at %s (config hash 0x%08" PRIX32 "): no ROM, "
                        "no matching *.jdesc in %s; pass --desc FILE.jdesc or set JOINTER_DESC_PATH\n",
                cli_device_spec, id.config_hash, dirs);
    else if (strcmp(cli_device_spec, "devmem") == 0)
        fprintf(stderr, "jointer: --device devmem takes its address from the descriptor: pass --desc FILE.jdesc "
                        "or --device devmem:ADDR\n");
    else if (strncmp(cli_device_spec, "uio:/dev/", 9) == 0 && (r == -ENOENT || r == -EINVAL))
        fprintf(stderr, "jointer: cannot read the identity of %s to find its descriptor: %s (it reads "
                        "%s/%s/maps/map0/{addr,size,offset} and maps %s; JOINTER_UIO_SYSFS moves the first: "
                        "doc/integration.md, \"A fake device\"); pass --desc FILE.jdesc\n", cli_device_spec,
                r == -ENOENT ? "no such file" : "map0 too small or not a UIO device",
                getenv("JOINTER_UIO_SYSFS") != NULL ? getenv("JOINTER_UIO_SYSFS") : "/sys/class/uio",
                cli_device_spec + 9, cli_device_spec + 4);
    else
        fprintf(stderr, "jointer: cannot read the identity of %s to find its descriptor: %s; pass --desc "
                        "FILE.jdesc\n", cli_device_spec, jointer_strerror(r));
}

/* the generic CLI's descriptor (JOINTER_FORCE: the device check, with details, is cli_open_device's) */
static int resolve_descriptor(void)
{
    const char *file = desc_option;
    int r;

    if (file == NULL && getenv("JOINTER_DESC") != NULL && getenv("JOINTER_DESC")[0] != '\0')
        file = getenv("JOINTER_DESC");
    r = jointer_desc_resolve(cli_device_spec, file, JOINTER_DESC_FORCE, &loaded_cfg, cli_desc_from,
                             sizeof cli_desc_from);
    if (r < 0 && file == NULL && cli_uio_name_error(cli_device_spec, r))
        return r;
    if (r < 0 && file != NULL)
        fprintf(stderr, "jointer: %s%s: %s\n", desc_option != NULL ? "--desc " : "JOINTER_DESC=", file,
                desc_error(r));
    else if (r < 0)
        no_descriptor(r);
    if (r < 0)
        return r;
    cli_cfg = loaded_cfg;
    return 0;
}

/* trace --convert reads a trace file alone: no descriptor */
static int needs_descriptor(const char *cmd, int argc, char **argv)
{
    int i;
    for (i = 0; strcmp(cmd, "trace") == 0 && i < argc; i++)
        if (strcmp(argv[i], "--convert") == 0)
            return 0;
    return 1;
}
#endif

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
} cli_command;

static const cli_command commands[] = {
    {"info", cli_cmd_info},   {"selftest", cli_cmd_selftest}, {"mode", cli_cmd_mode},
    {"init", cli_cmd_init},   {"run", cli_cmd_run},           {"stop", cli_cmd_stop},
    {"reset", cli_cmd_reset}, {"read", cli_cmd_read},         {"watch", cli_cmd_watch},
    {"mark", cli_cmd_mark},   {"trace", cli_cmd_trace},       {"print", cli_cmd_print},
    {"pm", cli_cmd_pm},       {"profile", cli_cmd_profile},
};

int main(int argc, char **argv)
{
    const char *cmd;
    int i = 1, rc;
    size_t k;

    cli_device_spec = getenv("JOINTER_DEVICE");
    if (cli_device_spec == NULL || cli_device_spec[0] == '\0')
        cli_device_spec = "uio:/dev/uio0";
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            cli_device_spec = argv[++i];
        else if (strcmp(argv[i], "--device") == 0) {
            fprintf(stderr, "jointer: option --device needs a value: uio:/dev/uioN, devmem:ADDR or devmem\n");
            return 2;
        }
        else if (strncmp(argv[i], "--device=", 9) == 0)
            cli_device_spec = argv[i] + 9;
        else if (strcmp(argv[i], "--force") == 0)
            cli_open_flags |= JOINTER_FORCE;
#ifndef JOINTER_CLI_CFG
        else if (strcmp(argv[i], "--desc") == 0 && i + 1 < argc)
            desc_option = argv[++i];
        else if (strcmp(argv[i], "--desc") == 0) {
            fprintf(stderr, "jointer: option --desc needs a value: a descriptor file <name>.jdesc\n");
            return 2;
        } else if (strncmp(argv[i], "--desc=", 7) == 0)
            desc_option = argv[i] + 7;
#endif
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "jointer: unknown option %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    cmd = argv[i++];
    argc -= i;
    argv += i;
#ifndef JOINTER_CLI_CFG
    if (needs_descriptor(cmd, argc, argv) && resolve_descriptor() < 0)
        return 1;
#endif
    rc = -1;
    for (k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(cmd, commands[k].name) == 0)
            rc = commands[k].run(argc, argv);
    if (rc < 0) {
        fprintf(stderr, "jointer: unknown command \"%s\"\n", cmd);
        usage(stderr);
        rc = 2;
    }
    jointer_close(&cli_dev);
#ifndef JOINTER_CLI_CFG
    jointer_descfile_free(loaded_cfg);
#endif
    return rc;
}
