# SPDX-License-Identifier: MIT
# drivers/sources.mk - the one list of libjointer's sources (file names in
# drivers/src/). Read by drivers.mk and by the Python tools
# (scripts/driver_sources.py: sim/cosim/run.py, the Python package): keep it
# to `NAME := words` lines, words being file names or $(NAME) of a line above.

# the core proper, one file per concern: set-up, descriptor check, control,
# results, interrupts, identity, error texts
DRV_BASE_SRCS     := jointer.c jointer_check.c jointer_control.c jointer_results.c jointer_irq.c \
                     jointer_ident.c jointer_strerror.c
# the register logic: every build of the driver has these
DRV_CORE_SRCS     := $(DRV_BASE_SRCS) jointer_trace.c jointer_sink.c jointer_compact.c jointer_pm.c jointer_histogram.c jointer_global.c
# portable C99 (bare metal too): the core, names, the recorder, the bare-metal port,
# the descriptor file parser and the descriptor ROM reader
DRV_PORTABLE_SRCS := $(DRV_CORE_SRCS) jointer_names.c jointer_recorder.c jointer_port_baremetal.c \
                     jointer_descfile.c jointer_descrom.c
# hosted Linux: jointer_open, the UIO and /dev/mem ports and their glue, printing, trace files,
# descriptor files (load, find by config hash, resolve a device's)
DRV_HOSTED_SRCS   := jointer_open.c jointer_port_linux.c jointer_port_uio.c jointer_uio_name.c jointer_port_devmem.c \
                     jointer_port_ring.c jointer_print.c jointer_trace_file.c jointer_descfile_load.c
# what a co-simulation app links (its I/O is the simulator's, not a port)
DRV_SIM_SRCS      := $(DRV_CORE_SRCS) jointer_names.c jointer_print.c
# hosted: the trace-file converters (CSV, JSON, VCD, Perfetto) of the CLI and the Python package
DRV_HOSTED_SRCS   := $(DRV_HOSTED_SRCS) jointer_export.c jointer_export_fmt.c jointer_export_vcd.c jointer_export_spans.c \
                     jointer_export_perfetto.c
