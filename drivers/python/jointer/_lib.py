# SPDX-License-Identifier: MIT
"""ctypes view of libjointer: the C structs of jointer_desc.h, jointer.h,
jointer_trace_file.h and jointer_pm.h, and the shared objects.

libjointer.so is found through, in order:
  - $JOINTER_LIB (another build of it, e.g. a cross-built one);
  - jointer/libjointer.so next to this file: the one setup.py built when the
    package was installed from its sdist or wheel;
  - build/drivers/shared/libjointer.so of the checkout this package sits in
    (`make py-lib`: an editable install builds no library).
A monitor's descriptor is a .jdesc file (read by libjointer's
jointer_descfile_load) or its generated <name>.c built as lib<name>.so
(`make py-lib CONFIG=f`, or jointer.build_descriptor()).
The Structure mirrors below must match the C layout; tests/test_abi.py
compares every size and offset with a C program.
"""
import ctypes
import ctypes.util
import os

u8, u16, u32, u64, i8 = ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int8
c_int, c_uint, c_char_p, c_void_p, c_size_t = ctypes.c_int, ctypes.c_uint, ctypes.c_char_p, ctypes.c_void_p, \
    ctypes.c_size_t
P = ctypes.POINTER

# ---- jointer_desc.h ---------------------------------------------------------
ID_VALUE = 0x4A4E5452
VERSION_VALUE = 0x00020000  # JOINTER_VERSION_VALUE
INFO_TIMESTAMP, INFO_MARK, INFO_SCRATCH = 0x20000, 0x40000, 0x80000
METRIC_WRAP, METRIC_THRESHOLD, METRIC_FILTER = 0x1, 0x2, 0x4
AGG_HISTOGRAM, AGG_MEAN = 4, 5
MODES = ("idle", "init", "filtering", "no_filtering")
EXTRACTORS = ("event", "time", "trace")
AGGREGATORS = ("sum", "max", "min", "last", "histogram", "mean")
FORCE, SELFTEST_NO_WRITE = 0x1, 0x2
ALL_LMICS = 0xFFFF


class MetricDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("result_offset", u32), ("threshold_offset", u32),
                ("low_reset", u64), ("high_reset", u64), ("sniffer", u16), ("lmic", u8), ("dcapf", u8),
                ("width", u8), ("extractor", u8), ("aggregator", u8), ("flags", u8), ("irq_bit", i8),
                ("buckets", u8), ("bounds", P(u32))]


SPAN_LEVEL, SPAN_BY_ID, SPAN_TRACK_VALUE = 0xFF, 0x01, 0x02


class SpanDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("begin", u8), ("end", u8), ("flags", u8)]


class TraceDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("reg_offset", u32), ("ram_offset", u32), ("depth", u32),
                ("low_reset", u32), ("high_reset", u32), ("sniffer", u16), ("lmic", u8), ("dcapf", u8),
                ("ring", u8), ("irq_bit", i8), ("filter", u8), ("relay", u8), ("clock_hz", u32),
                ("sink_bytes", u8), ("encoding", u8), ("sink_ring_log2", u8), ("num_lanes", u8),
                ("sync", u8), ("num_spans", u8), ("lane_names", P(c_char_p)), ("spans", P(SpanDesc)),
                ("clock", c_char_p)]


class SnifferDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("lmic", u8), ("index", u8), ("num_dcapfs", u8),
                ("pm_addresses", u8), ("pm_pc_width", u8), ("data_width", u8)]


class LmicDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("base", u32), ("first_sniffer", u16), ("num_sniffers", u8),
                ("num_irq", u8), ("clock_hz", u32), ("clock", c_char_p)]


class Cfg(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("config_hash", u32), ("version", u32), ("info", u32), ("span", u32),
                ("window", u32), ("base_address", u64), ("bus_clock_hz", u32),
                ("lmics", P(LmicDesc)), ("sniffers", P(SnifferDesc)), ("metrics", P(MetricDesc)),
                ("traces", P(TraceDesc)), ("num_lmics", u8), ("num_sniffers", u16), ("num_metrics", u16),
                ("num_traces", u16), ("num_dcapfs", u16)]


# ---- jointer.h ---------------------------------------------------------------
READ32 = ctypes.CFUNCTYPE(c_int, c_void_p, u32, P(u32))
WRITE32 = ctypes.CFUNCTYPE(c_int, c_void_p, u32, u32)
WAIT_IRQ = ctypes.CFUNCTYPE(c_int, c_void_p, c_int)
LOG_FN = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_int, c_char_p)


class IoOps(ctypes.Structure):
    _fields_ = [("read32", READ32), ("write32", WRITE32), ("wait_irq", WAIT_IRQ)]


class Io(ctypes.Structure):
    _fields_ = [("base", c_void_p), ("ops", P(IoOps)), ("ctx", c_void_p)]


class Port(ctypes.Structure):
    _fields_ = [("close", c_void_p), ("lock", c_void_p), ("map", c_void_p), ("map_len", c_size_t), ("fd", c_int),
                ("irq_fd", c_int), ("irq_count", u32)]


class Dev(ctypes.Structure):
    _fields_ = [("base", c_void_p), ("ops", c_void_p), ("ctx", c_void_p), ("metrics", c_void_p),
                ("fast_metrics", u32), ("cfg", c_void_p), ("bounds", c_void_p), ("bounds_words", u32),
                ("control", u32 * 16), ("pending", u32 * 16), ("irq_enable", u32), ("log", c_void_p), ("log_ctx", c_void_p),
                ("clock", c_void_p), ("clock_ctx", c_void_p), ("port", Port), ("rings", c_void_p),
                ("sink_ops", c_void_p)]


class Ident(ctypes.Structure):
    _fields_ = [("id", u32), ("version", u32), ("config_hash", u32), ("info", u32)]


class UioParams(ctypes.Structure):
    _fields_ = [("sysfs_root", c_char_p), ("irq_path", c_char_p), ("map", c_uint), ("dev_root", c_char_p)]


class CompactState(ctypes.Structure):
    _fields_ = [("ts", u32), ("data", u32), ("synced", u8)]


class SinkRing(ctypes.Structure):
    pass


SinkRing._fields_ = [("mem", c_void_p), ("bus_addr", u32), ("size", u32), ("rptr", u32), ("trace", c_uint),
                     ("compact", CompactState), ("next", P(SinkRing))]


class RingMap(ctypes.Structure):
    _fields_ = [("mem", c_void_p), ("bus_addr", u32), ("size", u32)]


class TraceRecord(ctypes.Structure):
    _fields_ = [("timestamp", u32), ("data", u32)]


# ---- jointer_trace_file.h ------------------------------------------------------
TFILE_HEADER_BYTES, TFILE_RECORD_BYTES, TFILE_COMPLETE = 104, 8, 0x1
TFILE_ENC_RAW, TFILE_ENC_COMPACT = 0, 1


class TfileReader(ctypes.Structure):
    _fields_ = [("st", CompactState), ("items", u64), ("skipped", u64)]


TFILE_MAX_SYNCS, TFILE_NAME, MAX_LANES, MAX_SPANS = 4, 24, 16, 16


class TfileSync(ctypes.Structure):
    _fields_ = [("before_ns", u64), ("after_ns", u64)]


class TfileSpan(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * TFILE_NAME), ("begin", u8), ("end", u8), ("flags", u8)]


class TfileHeader(ctypes.Structure):
    _fields_ = [("version", u16), ("encoding", u16), ("config_hash", u32), ("clock_hz", u32), ("depth", u32),
                ("flags", u32), ("lost", u32), ("records", u64), ("monitor", ctypes.c_char * 32),
                ("trace", ctypes.c_char * 32), ("data_offset", u32), ("clock", ctypes.c_char * 32),
                ("num_lanes", u8), ("sync", u8), ("num_spans", u8), ("num_syncs", u8),
                ("lane_names", (ctypes.c_char * TFILE_NAME) * MAX_LANES), ("spans", TfileSpan * MAX_SPANS),
                ("syncs", TfileSync * TFILE_MAX_SYNCS)]


# ---- jointer_pm.h --------------------------------------------------------------
PM_NO_INDEX = 0xFF


class PmFunction(ctypes.Structure):
    _fields_ = [("entry", u8), ("exit", u8)]


class PmStats(ctypes.Structure):
    _fields_ = [("calls", u32), ("unmatched_entries", u32), ("unmatched_exits", u32), ("total", u64),
                ("min", u32), ("max", u32)]


class PmFrame(ctypes.Structure):
    _fields_ = [("timestamp", u32), ("function", u16)]


STRUCTS = {"jointer_metric_desc": MetricDesc, "jointer_trace_desc": TraceDesc,
           "jointer_sniffer_desc": SnifferDesc, "jointer_lmic_desc": LmicDesc, "jointer_cfg": Cfg,
           "jointer_io_ops": IoOps, "jointer_io": Io, "jointer_port": Port, "jointer_dev": Dev,
           "jointer_ident": Ident, "jointer_uio_params": UioParams, "jointer_trace_record": TraceRecord,
           "jointer_tfile_header": TfileHeader, "jointer_pm_function": PmFunction,
           "jointer_pm_stats": PmStats, "jointer_pm_frame": PmFrame,
           "jointer_compact_state": CompactState, "jointer_sink_ring": SinkRing, "jointer_ring_map": RingMap,
           "jointer_span_desc": SpanDesc, "jointer_tfile_sync": TfileSync, "jointer_tfile_span": TfileSpan}

# ---- the shared objects ----------------------------------------------------------
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(PACKAGE_DIR, "libjointer.so")
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(PACKAGE_DIR)))
SHARED_DIR = os.path.join(CHECKOUT, "build", "drivers", "shared")

# name: (restype, argtypes)
_PROTOS = {
    "jointer_init": (c_int, [P(Dev), P(Cfg), P(Io)]),
    "jointer_attach_bounds": (c_int, [P(Dev), c_void_p, u32]),
    "jointer_set_log": (None, [P(Dev), LOG_FN, c_void_p]),
    "jointer_open_ex": (c_int, [P(Dev), P(Cfg), c_char_p, c_uint]),
    "jointer_uio_open": (c_int, [P(Dev), P(Cfg), c_char_p, P(UioParams), c_uint]),
    "jointer_devmem_open": (c_int, [P(Dev), P(Cfg), u64, c_char_p, c_uint]),
    "jointer_close": (c_int, [P(Dev)]),
    "jointer_initialize": (c_int, [P(Dev), c_uint, c_uint, c_uint, u64, u64]),
    "jointer_bounds_words": (u32, [P(Cfg)]),
    "jointer_set_mode": (c_int, [P(Dev), c_uint, c_uint, c_int]),
    "jointer_get_mode": (c_int, [P(Dev), c_uint, c_uint, P(c_int)]),
    "jointer_run": (c_int, [P(Dev), c_uint]),
    "jointer_stop": (c_int, [P(Dev), c_uint]),
    "jointer_reset": (c_int, [P(Dev), c_uint]),
    "jointer_status": (c_int, [P(Dev), c_uint, P(u32)]),
    "jointer_read": (c_int, [P(Dev), c_uint, P(u64)]),
    "jointer_dev_size": (c_size_t, []),
    "jointer_read_all": (c_int, [P(Dev), P(u64), c_size_t]),
    "jointer_set_threshold": (c_int, [P(Dev), c_uint, u64]),
    "jointer_read_threshold": (c_int, [P(Dev), c_uint, P(u64)]),
    "jointer_histogram_buckets": (c_int, [P(Dev), c_uint]),
    "jointer_histogram_bucket": (c_int, [P(Dev), c_uint, c_uint, P(u64), P(u64)]),
    "jointer_read_histogram": (c_int, [P(Dev), c_uint, P(u64), c_size_t]),
    "jointer_read_mean": (c_int, [P(Dev), c_uint, P(u64), P(u64)]),
    "jointer_timestamp": (c_int, [P(Dev), P(u64)]),
    "jointer_mark": (c_int, [P(Dev), u32]),
    "jointer_trace_read": (c_int, [P(Dev), c_uint, c_void_p, u32, P(u32)]),
    "jointer_trace_status": (c_int, [P(Dev), c_uint, P(u32), P(u32)]),
    "jointer_trace_set_watermark": (c_int, [P(Dev), c_uint, u32]),
    "jointer_trace_drain": (c_int, [P(Dev), c_uint, c_void_p, u32, P(u32)]),
    "jointer_trace_lost": (c_int, [P(Dev), c_uint, P(u32)]),
    "jointer_sink_start": (c_int, [P(Dev), c_uint, P(SinkRing), c_void_p, u32, u32, u32]),
    "jointer_sink_stop": (c_int, [P(Dev), c_uint]),
    "jointer_sink_detach": (c_int, [P(Dev), c_uint]),
    "jointer_sink_status": (c_int, [P(Dev), c_uint, P(u32), P(u32), P(u32)]),
    "jointer_sink_sync": (c_int, [P(Dev), c_uint, c_void_p, c_void_p, P(u64), P(u64)]),
    "jointer_monotonic_ns": (u64, [c_void_p]),
    "jointer_uio_ring_open": (c_int, [P(RingMap), c_char_p, P(UioParams)]),
    "jointer_version": (u32, []),
    "jointer_version_string": (c_char_p, []),
    "jointer_uio_find": (c_int, [c_char_p, P(UioParams), c_char_p, c_size_t, c_char_p, c_size_t]),
    "jointer_devmem_ring_open": (c_int, [P(RingMap), u64, u32, c_char_p]),
    "jointer_ring_close": (c_int, [P(RingMap)]),
    "jointer_irq_enable": (c_int, [P(Dev), c_uint, u32]),
    "jointer_irq_status": (c_int, [P(Dev), c_uint, P(u32)]),
    "jointer_irq_ack": (c_int, [P(Dev), c_uint, u32]),
    "jointer_irq_wait": (c_int, [P(Dev), c_int, P(u32)]),
    "jointer_identify": (c_int, [P(Dev), P(Ident)]),
    "jointer_selftest": (c_int, [P(Dev), c_uint, P(Ident)]),
    "jointer_strerror": (c_char_p, [c_int]),
    "jointer_find_metric": (c_int, [P(Cfg), c_char_p]),
    "jointer_find_trace": (c_int, [P(Cfg), c_char_p]),
    "jointer_find_sniffer": (c_int, [P(Cfg), c_char_p]),
    "jointer_find_lmic": (c_int, [P(Cfg), c_char_p]),
    "jointer_pm_program": (c_int, [P(Dev), c_uint, c_uint, P(u32), c_uint, u32]),
    "jointer_pm_enable": (c_int, [P(Dev), c_uint, c_uint, u32]),
    "jointer_pm_profile": (c_int, [c_void_p, u32, P(PmFunction), c_uint, P(PmFrame), c_uint, P(PmStats)]),
    "jointer_tfile_read_header": (c_int, [c_void_p, P(TfileHeader)]),
    "jointer_tfile_read": (c_int, [c_void_p, c_void_p, u32, P(u32)]),
    "jointer_tfile_header_init": (c_int, [P(TfileHeader), P(Cfg), c_uint]),
    "jointer_tfile_write_header": (c_int, [c_void_p, P(TfileHeader)]),
    "jointer_tfile_append": (c_int, [c_void_p, P(TfileHeader), c_void_p, u32]),
    "jointer_tfile_finish": (c_int, [c_void_p, P(TfileHeader), u32]),
    "jointer_tfile_add_sync": (c_int, [P(TfileHeader), u64, u64]),
    "jointer_tfile_append_units": (c_int, [c_void_p, P(TfileHeader), c_void_p, u32]),
    "jointer_tfile_reader_init": (None, [P(TfileReader)]),
    "jointer_tfile_read_records": (c_int, [c_void_p, P(TfileHeader), P(TfileReader), c_void_p, u32, P(u32)]),
    "jointer_compact_reset": (None, [P(CompactState)]),
    "jointer_compact_decode": (c_int, [P(CompactState), c_void_p, u32, c_void_p, u32, P(u32), P(u32)]),
}
STRUCTS["jointer_tfile_reader"] = TfileReader  # trace files of either encoding

# jointer_descfile.h: descriptor files (.jdesc) and "which descriptor for this
# device"; bound when the library has them (an older libjointer still loads)
DESC_FROM_LEN = 4096 + 16
DESC_FORCE = 0x1  # JOINTER_DESC_FORCE
DESCFILE_MAX = 1 << 20  # JOINTER_DESCFILE_MAX
INFO_DESC_ROM = 0x00100000
_DESCFILE_PROTOS = {
    "jointer_descfile_arena_size": (c_int, [c_void_p, c_size_t, P(c_size_t)]),
    "jointer_descfile_parse": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, P(Cfg)]),
    "jointer_descfile_load": (c_int, [c_char_p, P(P(Cfg))]),
    "jointer_descfile_free": (None, [P(Cfg)]),
    "jointer_descfile_find": (c_int, [c_char_p, u32, P(P(Cfg)), c_void_p, c_size_t]),
    "jointer_desc_resolve": (c_int, [c_char_p, c_char_p, c_uint, P(P(Cfg)), c_void_p, c_size_t]),
    "jointer_descrom_read": (c_int, [P(Dev), c_void_p, c_size_t, P(c_size_t)]),
}

_lib = None
_libc = None


class LibraryNotFound(OSError):
    pass


def lib_path():
    """Where libjointer.so is: $JOINTER_LIB, else the package's own, else the checkout's build/."""
    env = os.environ.get("JOINTER_LIB")
    if env:
        if not os.path.exists(env):
            raise LibraryNotFound(2, "JOINTER_LIB=%s: no such file" % env)
        return env
    dev = os.path.join(SHARED_DIR, "libjointer.so")
    for p in (BUNDLED, dev):
        if os.path.exists(p):
            return p
    raise LibraryNotFound(2, "libjointer.so not found: neither %s (installed from the sdist or a wheel) nor %s "
                             "(`make py-lib` in a checkout); reinstall the package, or set JOINTER_LIB" % (BUNDLED, dev))


def lib():
    """libjointer, loaded once (RTLD_GLOBAL: descriptors built against it resolve)."""
    global _lib
    if _lib is None:
        so = ctypes.CDLL(lib_path(), mode=ctypes.RTLD_GLOBAL)
        for name, (res, args) in _PROTOS.items():
            fn = getattr(so, name)
            fn.restype, fn.argtypes = res, args
        for name, (res, args) in _DESCFILE_PROTOS.items():
            fn = getattr(so, name, None)
            if fn is not None:
                fn.restype, fn.argtypes = res, args
        _lib = so
    return _lib


def need(name):
    """libjointer's function name, or LibraryNotFound naming the library that lacks it."""
    fn = getattr(lib(), name, None)
    if fn is None:
        raise LibraryNotFound(38, "%s has no %s: a libjointer without descriptor files; reinstall the "
                                  "package (or `make py-lib`)" % (lib_path(), name))
    return fn


def libc():
    """The C library: FILE * for the trace-file reader."""
    global _libc
    if _libc is None:
        c = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        c.fopen.restype, c.fopen.argtypes = c_void_p, [c_char_p, c_char_p]
        c.fclose.restype, c.fclose.argtypes = c_int, [c_void_p]
        _libc = c
    return _libc


def strerror(err):
    return lib().jointer_strerror(err).decode()
