# SPDX-License-Identifier: MIT
"""jointer.Monitor: one jointer monitor driven through libjointer (ctypes).

Every register access is libjointer's; this module converts arguments
(names to indices through the descriptor), results (dicts, lists, numpy
arrays) and errors (JointerError with errno and the driver's message).

    m = jointer.Monitor.open("uio:/dev/uio0")       # its descriptor: ROM, $JOINTER_DESC, search path
    m = jointer.Monitor.open("uio:/dev/uio0", desc="selective_accumulations.jdesc")
    m.run(); ...; m.stop(); print(m.metrics())
"""
import ctypes
import errno as E
import os
import time

import numpy as np

from . import _lib
from ._lib import u32, u64
from .descriptor import Descriptor
from .errors import JointerError
from .uio import uio_name_error, uio_params

TRACE_DTYPE = np.dtype([("timestamp", "<u4"), ("data", "<u4")])  # jointer_trace_record
_NOW_NS = ctypes.CFUNCTYPE(u64, ctypes.c_void_p)                    # jointer_sink_sync's clock
MODES = {name: i for i, name in enumerate(_lib.MODES)}


def _as_descriptor(d):
    if isinstance(d, Descriptor):
        return d
    if isinstance(d, str) and d.endswith((".yaml", ".yml")):
        return Descriptor.from_yaml(d)
    if isinstance(d, str) and d.endswith(".jdesc"):
        return Descriptor.from_file(d)
    if isinstance(d, str):
        return Descriptor.load(d)
    raise JointerError(E.EINVAL, "descriptor: a Descriptor, a .jdesc file, a lib<name>.so path or a YAML path, "
                                 "not %r" % (d,))


class _Env:
    """$NAME set to a value (None: left alone) for the with block: what the C side reads."""

    def __init__(self, **kv):
        self.kv = {k: v for k, v in kv.items() if v is not None}
        self.old = {}

    def __enter__(self):
        for k, v in self.kv.items():
            self.old[k] = os.environ.get(k)
            os.environ[k] = v

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _udev_hint(spec, name):
    return ("permission denied: %s\n  hint: use UIO with a udev rule instead of root, e.g. in\n"
            "  /etc/udev/rules.d/99-jointer.rules:\n"
            "    SUBSYSTEM==\"uio\", ATTR{name}==\"%s\", GROUP=\"jointer\", MODE=\"0660\"\n"
            "  then add yourself to group jointer (/dev/mem always needs root)" % (spec, name))




class Monitor:
    """A device bound to its descriptor. Use Monitor.open() or Monitor.attach()."""

    def __init__(self, descriptor):
        self.descriptor = d = _as_descriptor(descriptor)
        self.name = d.name
        self.spec = None
        self._dev = _lib.Dev()
        self._bounds = (u32 * max(4, 4 * d.num_dcapfs))()      # 2 or 4 INIT words per DCAPF
        self._log = []
        self._logfn = _lib.LOG_FN(self._on_log)
        self._keep = []          # ctypes objects the C side points to (ops, callbacks, buffers)
        self._open = False
        self._cb_error = None
        self._sinks = {}         # trace index -> (SinkRing, RingMap) of a started sink
        self.syncs = {}          # sink name -> [(before_ns, after_ns)] of its host syncs

    # ---- opening ----------------------------------------------------------
    @classmethod
    def open(cls, spec, descriptor=None, *, desc=None, force=False, sysfs_root=None, mem_path=None):
        """spec "uio:/dev/uioN", "devmem:0xADDR" or "devmem" (the descriptor's
        base address). The descriptor: `descriptor` or `desc` (a .jdesc file,
        a Descriptor, a lib<name>.so, a YAML), else the one libjointer finds
        for the device (Descriptor.resolve: $JOINTER_DESC, the descriptor ROM,
        the search path by config hash). sysfs_root ($JOINTER_UIO_SYSFS) and
        mem_path ($JOINTER_DEVMEM_PATH) replace /sys/class/uio and /dev/mem
        (tests). Checks ID, VERSION and CONFIG_HASH unless force."""
        if not isinstance(spec, str):
            raise JointerError(E.EINVAL, "device spec must be a string, not %r" % (spec,))
        if descriptor is not None and desc is not None:
            raise JointerError(E.EINVAL, "give the descriptor once: descriptor or desc=, not both")
        descriptor = descriptor if descriptor is not None else desc
        if descriptor is None:
            if not spec.startswith(("uio:", "devmem:")):
                raise JointerError(E.EINVAL, "device must be uio:/dev/uioN or devmem:ADDR to find its descriptor, "
                                             "not \"%s\" (or pass desc=FILE.jdesc)" % spec)
            with _Env(JOINTER_UIO_SYSFS=sysfs_root, JOINTER_DEVMEM_PATH=mem_path):
                descriptor = Descriptor.resolve(spec, force=force)
        m = cls(descriptor)
        m.spec = spec
        m._sysfs_root = sysfs_root
        L, cfg = _lib.lib(), m.descriptor.cfg_ptr
        flags = _lib.FORCE  # identity is checked below, with details
        if spec.startswith("uio:"):
            p = uio_params(sysfs_root)
            r = L.jointer_uio_open(ctypes.byref(m._dev), cfg, spec[4:].encode(), ctypes.byref(p), flags)
        elif spec == "devmem" or spec.startswith("devmem:"):
            addr = m.descriptor.base_address
            if spec != "devmem":
                try:
                    addr = int(spec[7:], 0)
                    if addr < 0:
                        raise ValueError
                except ValueError:
                    raise JointerError(E.EINVAL, "bad address in device %s" % spec) from None
            mp = mem_path or os.environ.get("JOINTER_DEVMEM_PATH")
            r = L.jointer_devmem_open(ctypes.byref(m._dev), cfg, addr, mp.encode() if mp else None, flags)
        else:
            raise JointerError(E.EINVAL, "device must be uio:/dev/uioN, devmem:ADDR or devmem, not \"%s\"" % spec)
        if r < 0:
            raise m._open_error(r, spec)
        m._open = True
        m._after_init(force)
        return m

    @classmethod
    def attach(cls, descriptor, *, base=None, io=None, read32=None, write32=None, wait_irq=None,
               force=False, keep=None):
        """A monitor behind another register seam:
        base: an address mapped by someone else (PYNQ's MMIO array), direct access;
        io: a ready jointer_io (e.g. the C mock's), keep: what it points to;
        read32(offset) -> int, write32(offset, value), wait_irq(timeout_ms) -> bool:
        Python callables (a simulator, a recorder)."""
        m = cls(descriptor)
        m.spec = "attach"
        if io is None:
            io = _lib.Io()
            if base is not None:
                io.base = base
            if read32 is not None or write32 is not None or wait_irq is not None:
                io.ops = ctypes.pointer(m._make_ops(read32, write32, wait_irq))
        if keep is not None:
            m._keep.append(keep)
        m._keep.append(io)
        r = _lib.lib().jointer_init(ctypes.byref(m._dev), m.descriptor.cfg_ptr, ctypes.byref(io))
        if r < 0:
            raise JointerError(-r, "%s: init: %s" % (m.name, _lib.strerror(r)))
        m._open = True
        m._after_init(force)
        return m

    def _make_ops(self, read32, write32, wait_irq):
        def rd(ctx, off, pv):
            try:
                pv[0] = int(read32(off)) & 0xFFFFFFFF
                return 0
            except Exception as e:  # a failing seam is a bus error, not a crash
                self._cb_error = e
                return -E.EIO

        def wr(ctx, off, v):
            try:
                write32(off, v)
                return 0
            except Exception as e:
                self._cb_error = e
                return -E.EIO

        def wt(ctx, timeout_ms):
            try:
                return 0 if wait_irq(timeout_ms) else -E.ETIMEDOUT
            except Exception as e:
                self._cb_error = e
                return -E.EIO

        ops = _lib.IoOps(_lib.READ32(rd) if read32 else _lib.READ32(),
                         _lib.WRITE32(wr) if write32 else _lib.WRITE32(),
                         _lib.WAIT_IRQ(wt) if wait_irq else _lib.WAIT_IRQ())
        self._keep.append(ops)
        return ops

    def _after_init(self, force):
        L = _lib.lib()
        L.jointer_set_log(ctypes.byref(self._dev), self._logfn, None)
        r = L.jointer_attach_bounds(ctypes.byref(self._dev), self._bounds, len(self._bounds))
        if r < 0:
            self.close()
            raise JointerError(-r, "%s: bounds cache: %s" % (self.name, _lib.strerror(r)))
        if not force:
            try:
                self._check_identity()
            except JointerError:
                self.close()
                raise

    def _check_identity(self):
        L, d = _lib.lib(), self.descriptor
        found = _lib.Ident()
        r = L.jointer_selftest(ctypes.byref(self._dev), _lib.SELFTEST_NO_WRITE, ctypes.byref(found))
        where = self.spec
        if r == -E.ENODEV:
            raise JointerError(E.ENODEV, "no jointer monitor at %s (the ID register is 0x%08X, not 0x%08X \"JNTR\")\n"
                               "  hint: check the address, or which /dev/uioN is the monitor (/sys/class/uio/*/name)"
                               % (where, found.id, _lib.ID_VALUE))
        if r == -E.EPROTONOSUPPORT:
            raise JointerError(E.EPROTONOSUPPORT, "hardware VERSION 0x%08X at %s, this jointer supports 0x%08X\n"
                               "  hint: use a matching jointer release, or force=True"
                               % (found.version, where, d.version))
        if r == -E.ESTALE:
            raise JointerError(E.ESTALE, "config hash mismatch: the device at %s reports 0x%08X (INFO 0x%08X),\n"
                               "  the descriptor is %s, 0x%08X\n"
                               "  hint: load the descriptor built from the YAML the bitstream was generated "
                               "from, or force=True" % (where, found.config_hash, found.info, d.name, d.config_hash))
        self._check(r, "selftest")

    def _open_error(self, r, spec):
        d = self.descriptor
        if spec.startswith("uio:name=") and r in (-E.ENOENT, -E.ENOTUNIQ):
            return uio_name_error(spec, r, getattr(self, "_sysfs_root", None))
        if r == -E.ENODEV:
            return JointerError(E.ENODEV, "no jointer monitor at %s (the ID register is not 0x%08X \"JNTR\")\n"
                                "  hint: check the address, or which /dev/uioN is the monitor "
                                "(/sys/class/uio/*/name)" % (spec, _lib.ID_VALUE))
        if r in (-E.EACCES, -E.EPERM):
            return JointerError(-r, _udev_hint(spec, d.name))
        if r == -E.ENOENT:
            return JointerError(E.ENOENT, "no such device: %s\n  hint: is the bitstream loaded and the monitor's "
                                "device-tree node bound to uio_pdrv_genirq (uio_pdrv_genirq.of_id=jointer,monitor-1.0)?\n"
                                "  ls /sys/class/uio/*/name; or try devmem:0x%X as root" % (spec, d.base_address))
        if r == -E.EINVAL and spec.startswith("uio:"):
            return JointerError(E.EINVAL, "%s is not a usable UIO device for %s (name not uioN, or its map0 "
                                "is smaller than the monitor's 0x%X bytes)" % (spec, d.name, d.span))
        return JointerError(-r, "%s: %s%s" % (spec, _lib.strerror(r), self._logged()))

    def _on_log(self, ctx, level, err, msg):
        self._log.append(msg.decode(errors="replace") if msg else "")

    def _logged(self):
        msgs, self._log[:] = list(self._log), []
        return "".join("\n  driver: " + m for m in msgs)

    def _check(self, r, what):
        if r < 0:
            extra = ""
            if self._cb_error is not None:
                extra, self._cb_error = "\n  seam: %r" % (self._cb_error,), None
            raise JointerError(-r, "%s: %s: %s%s%s" % (self.name, what, _lib.strerror(r), self._logged(), extra))
        return r

    def _devp(self):
        if not self._open:
            raise JointerError(E.EBADF, "%s: the monitor is closed" % self.name)
        return ctypes.byref(self._dev)

    def close(self):
        for i in list(getattr(self, "_sinks", {})):  # a sink left running: stop it, unmap its ring
            _lib.lib().jointer_sink_stop(self._devp(), i)
            self._sink_release(i)
        if self._open:
            self._open = False
            r = _lib.lib().jointer_close(ctypes.byref(self._dev))
            self._check(r, "close")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return "<jointer.Monitor %s at %s>" % (self.name, self.spec)

    # ---- identity -----------------------------------------------------------
    def identify(self):
        i = _lib.Ident()
        self._check(_lib.lib().jointer_identify(self._devp(), ctypes.byref(i)), "identify")
        return {"id": i.id, "version": i.version, "config_hash": i.config_hash, "info": i.info}

    def selftest(self, write=True):
        """ID, VERSION, CONFIG_HASH, INFO, and (write) the SCRATCH register."""
        self._check(_lib.lib().jointer_selftest(self._devp(), 0 if write else _lib.SELFTEST_NO_WRITE, None),
                    "selftest")

    # ---- control --------------------------------------------------------------
    def _lmics(self, lmic):
        if lmic is None:
            return range(len(self.descriptor.lmics))
        return [self.descriptor.lmic(lmic).index]

    def run(self, lmic=None):
        """RUN=1 on one LMIC (name or index), every LMIC when None."""
        for i in self._lmics(lmic):
            self._check(_lib.lib().jointer_run(self._devp(), i), "run")

    def stop(self, lmic=None):
        for i in self._lmics(lmic):
            self._check(_lib.lib().jointer_stop(self._devp(), i), "stop")

    def reset(self, lmic=None):
        """SOFT_RESET pulse: results of the non-idle sniffers cleared."""
        for i in self._lmics(lmic):
            self._check(_lib.lib().jointer_reset(self._devp(), i), "reset")

    def status(self, lmic):
        v = u32()
        self._check(_lib.lib().jointer_status(self._devp(), self.descriptor.lmic(lmic).index, ctypes.byref(v)),
                    "status")
        return v.value

    def set_mode(self, sniffer, mode):
        """mode: "idle", "init", "filtering", "no_filtering" (or 0..3)."""
        s = self.descriptor.sniffer(sniffer)
        if isinstance(mode, str):
            if mode not in MODES:
                raise JointerError(E.EINVAL, "mode must be one of %s, not %r" % (", ".join(MODES), mode))
            mode = MODES[mode]
        self._check(_lib.lib().jointer_set_mode(self._devp(), s.lmic, s.index_in_lmic, mode), "set_mode")

    def mode(self, sniffer):
        s = self.descriptor.sniffer(sniffer)
        v = ctypes.c_int()
        self._check(_lib.lib().jointer_get_mode(self._devp(), s.lmic, s.index_in_lmic, ctypes.byref(v)), "mode")
        return _lib.MODES[v.value]

    def initialize(self, dcapf, low, high):
        """Load the filter range [low, high] of a metric or trace (by name); the
        sniffer then counts in FILTERING once run() is called."""
        d = self.descriptor
        try:
            x = d.metric(dcapf)
        except JointerError:
            if not d.traces:
                raise
            x = d.trace(dcapf)
        self._check(_lib.lib().jointer_initialize(self._devp(), x.lmic, d.sniffers[x.sniffer].index_in_lmic,
                                                  x.dcapf, low, high), "initialize %s" % x.name)

    def mark(self, value):
        """One MARK write: an event with this value for the host sniffer."""
        self._check(_lib.lib().jointer_mark(self._devp(), value), "mark")

    def timestamp(self):
        v = u64()
        self._check(_lib.lib().jointer_timestamp(self._devp(), ctypes.byref(v)), "timestamp")
        return v.value

    # ---- results ----------------------------------------------------------------
    def read(self, metric):
        """One metric's value (a histogram: its buckets; a mean: (sum, count))."""
        m = self.descriptor.metric(metric)
        if m.aggregator == "histogram":
            return self.histogram(m.index)
        if m.aggregator == "mean":
            return self.mean(m.index)
        v = u64()
        self._check(_lib.lib().jointer_read(self._devp(), m.index, ctypes.byref(v)), "read %s" % m.name)
        return v.value

    def values(self):
        """jointer_read_all: every metric's first result in descriptor order."""
        n = len(self.descriptor.metrics)
        buf = (u64 * max(1, n))()
        self._check(_lib.lib().jointer_read_all(self._devp(), buf, n), "read_all")
        return list(buf[:n])

    def metrics(self):
        """{name: value}: ints, histograms as [(low, high, count)], means as
        {"sum": s, "count": c} (the CLI's `read --format json`)."""
        out = {}
        vals = self.values()
        for m in self.descriptor.metrics:
            if m.aggregator == "histogram":
                out[m.name] = self.histogram(m.index)
            elif m.aggregator == "mean":
                s, c = self.mean(m.index)
                out[m.name] = {"sum": s, "count": c}
            else:
                out[m.name] = vals[m.index]
        return out

    def histogram_bounds(self, metric):
        """[(low, high)] of each bucket; high is None for the last (unbounded) one."""
        m = self.descriptor.metric(metric)
        L = _lib.lib()
        n = self._check(L.jointer_histogram_buckets(self._devp(), m.index), "histogram %s" % m.name)
        lo, hi, out = u64(), u64(), []
        for k in range(n):
            self._check(L.jointer_histogram_bucket(self._devp(), m.index, k, ctypes.byref(lo), ctypes.byref(hi)),
                        "histogram %s" % m.name)
            out.append((lo.value, None if k == n - 1 else hi.value))
        return out

    def histogram(self, metric):
        """[(low, high, count)], one consistent snapshot; high None for the last bucket."""
        m = self.descriptor.metric(metric)
        bounds = self.histogram_bounds(m.index)
        buf = (u64 * 64)()
        self._check(_lib.lib().jointer_read_histogram(self._devp(), m.index, buf, 64), "histogram %s" % m.name)
        return [(lo, hi, buf[k]) for k, (lo, hi) in enumerate(bounds)]

    def mean(self, metric):
        m = self.descriptor.metric(metric)
        s, c = u64(), u64()
        self._check(_lib.lib().jointer_read_mean(self._devp(), m.index, ctypes.byref(s), ctypes.byref(c)),
                    "mean %s" % m.name)
        return s.value, c.value

    def set_threshold(self, metric, value):
        m = self.descriptor.metric(metric)
        self._check(_lib.lib().jointer_set_threshold(self._devp(), m.index, value), "set_threshold %s" % m.name)

    def threshold(self, metric):
        m = self.descriptor.metric(metric)
        v = u64()
        self._check(_lib.lib().jointer_read_threshold(self._devp(), m.index, ctypes.byref(v)), "threshold %s" % m.name)
        return v.value

    def overflow(self):
        """{(lmic, sniffer): bool}: the OVERFLOW bit of each sniffer (STATUS)."""
        out = {}
        for lm in self.descriptor.lmics:
            st = self.status(lm.index)
            for s in self.descriptor.sniffers:
                if s.lmic == lm.index:
                    out[(lm.name, s.name)] = bool(st >> (16 + s.index_in_lmic) & 1)
        return out

    def watch(self, interval_ms, count=None, metrics=None):
        """Yield (t_ms, {name: value}) every interval_ms (count samples, None: forever)."""
        sel = [self.descriptor.metric(x) for x in metrics] if metrics else self.descriptor.metrics
        t0 = time.monotonic()
        nxt, k = t0, 0
        while count is None or k < count:
            vals = self.values()
            yield (time.monotonic() - t0) * 1e3, {m.name: vals[m.index] for m in sel}
            k += 1
            nxt += interval_ms / 1e3
            if count is None or k < count:
                time.sleep(max(0.0, nxt - time.monotonic()))

    def watch_csv(self, path, interval_ms, count, metrics=None):
        """The CLI's `watch --output FILE.csv` format: time_ms,<metric>..."""
        sel = [self.descriptor.metric(x).name for x in metrics] if metrics else \
            [m.name for m in self.descriptor.metrics]
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(",".join(["time_ms"] + sel) + "\n")
            for t, v in self.watch(interval_ms, count, sel):
                f.write("%.1f,%s\n" % (t, ",".join(str(v[n]) for n in sel)))
        os.replace(tmp, path)

    # ---- traces -----------------------------------------------------------------
    def _not_a_sink(self, t, what):
        if t.sink_bytes:
            raise JointerError(E.ENOTSUP, "%s: trace %s is a sink (YAML mode: sink): its records go to a ring in "
                                          "memory, not to a buffer of the monitor; use sink_start(%r), drain(%r), "
                                          "sink_stop(%r)" % (what, t.name, t.name, t.name, t.name))

    def _sink_started(self, t, what):
        if t.sink_bytes and t.index not in self._sinks:
            raise JointerError(E.ENOTCONN, "%s: sink %s is not started: no ring attached (sink_start(%r) first)"
                               % (what, t.name, t.name))

    def trace(self, trace):
        """The trace buffer, oldest first, as a numpy array of TRACE_DTYPE
        (timestamp, data). Stop the LMIC first for a consistent copy."""
        t = self.descriptor.trace(trace)
        self._not_a_sink(t, "trace")
        buf = np.zeros(max(1, t.depth), TRACE_DTYPE)
        n = u32()
        self._check(_lib.lib().jointer_trace_read(self._devp(), t.index, buf.ctypes.data, t.depth, ctypes.byref(n)),
                    "trace %s" % t.name)
        return buf[:n.value].copy()

    def trace_status(self, trace):
        """(fill, status bits JOINTER_TRACE_STATUS_*)."""
        t = self.descriptor.trace(trace)
        self._sink_started(t, "trace_status")
        fill, st = u32(), u32()
        self._check(_lib.lib().jointer_trace_status(self._devp(), t.index, ctypes.byref(fill), ctypes.byref(st)),
                    "trace_status %s" % t.name)
        return fill.value, st.value

    def drain(self, trace, max_records=None):
        """Relay or sink trace: copy and release what is there (numpy array)."""
        t = self.descriptor.trace(trace)
        self._sink_started(t, "drain")
        mx = max_records or t.depth or 4096
        buf = np.zeros(max(1, mx), TRACE_DTYPE)
        n = u32()
        self._check(_lib.lib().jointer_trace_drain(self._devp(), t.index, buf.ctypes.data, mx, ctypes.byref(n)),
                    "drain %s" % t.name)
        return buf[:n.value].copy()

    def lost(self, trace):
        t = self.descriptor.trace(trace)
        v = u32()
        self._check(_lib.lib().jointer_trace_lost(self._devp(), t.index, ctypes.byref(v)), "lost %s" % t.name)
        return v.value

    # ---- sink traces (YAML mode: sink) ------------------------------------------
    def sink_start(self, trace, ring=None, watermark=0):
        """Start a sink trace on its ring in memory; then drain() and lost()
        work on it as on a relay trace. ring: None = this monitor's UIO
        device's map of the ring (the reserved-memory region of the generated
        .dtsi: map1 for the first sink trace, map2 for the second...);
        (phys, size) = that range through /dev/mem ($JOINTER_DEVMEM_PATH).
        watermark: bytes (0: off). Stop it with sink_stop()."""
        t = self.descriptor.trace(trace)
        if not t.sink_bytes:
            raise JointerError(E.ENOTSUP, "trace %s is not a sink trace (YAML mode: sink)" % t.name)
        L = _lib.lib()
        if t.index in self._sinks:
            self.sink_stop(t.name)
        rmap = _lib.RingMap()
        if ring is None:
            if not getattr(self, "spec", "").startswith("uio:"):
                raise JointerError(E.EINVAL, "sink %s: give ring=(phys, size) (no UIO device)" % t.name)
            # the .dtsi gives the sinks' rings as the node's next reg entries: map1, map2... in trace order
            k = 1 + sum(1 for x in self.descriptor.traces[:t.index] if x.sink_bytes)
            p = uio_params(getattr(self, "_sysfs_root", None), k)
            r = L.jointer_uio_ring_open(ctypes.byref(rmap), self.spec[4:].encode(), ctypes.byref(p))
        else:
            phys, size = ring
            mp = os.environ.get("JOINTER_DEVMEM_PATH")
            r = L.jointer_devmem_ring_open(ctypes.byref(rmap), phys, size, mp.encode() if mp else None)
        self._check(r, "ring of %s" % t.name)
        sring = _lib.SinkRing()
        r = L.jointer_sink_start(self._devp(), t.index, ctypes.byref(sring), rmap.mem, rmap.bus_addr, rmap.size,
                                 watermark)
        if r < 0:
            L.jointer_ring_close(ctypes.byref(rmap))
        self._check(r, "sink_start %s" % t.name)
        self._sinks[t.index] = (sring, rmap)  # the C side points at both until sink_stop
        if t.sync:
            self.syncs[t.name] = [self.sink_sync(t.name)]

    def sink_sync(self, trace, now_ns=None):
        """A sink with sync: its sync record, between two readings of the host's
        clock (now_ns(): default CLOCK_MONOTONIC through libjointer, the clock
        of Linux traces). Returns (before_ns, after_ns); write_trace_file()
        keeps them so the converters put the cycles on the host's clock.
        sink_start() does one (self.syncs[trace])."""
        t = self.descriptor.trace(trace)
        if not t.sync:
            raise JointerError(E.ENOTSUP, "sink_sync: trace %s has no sync (YAML: a sink with lanes and sync: true)"
                               % t.name)
        L = _lib.lib()
        fn = _NOW_NS(lambda ctx: now_ns()) if now_ns else ctypes.cast(L.jointer_monotonic_ns, _NOW_NS)
        before, after = u64(), u64()
        self._check(L.jointer_sink_sync(self._devp(), t.index, fn, None, ctypes.byref(before), ctypes.byref(after)),
                    "sink_sync %s" % t.name)
        return before.value, after.value

    def sink_stop(self, trace):
        """Disable the sink, wait for its bursts; returns what was still in
        the ring (numpy array), then unmaps it."""
        t = self.descriptor.trace(trace)
        L = _lib.lib()
        self._check(L.jointer_sink_stop(self._devp(), t.index), "sink_stop %s" % t.name)
        rest = [self.drain(t.name, 4096)]
        while len(rest[-1]):
            rest.append(self.drain(t.name, 4096))
        self._sink_release(t.index)
        return np.concatenate(rest)

    def _sink_release(self, index):
        """Detach a sink's ring from the device and unmap it."""
        L = _lib.lib()
        L.jointer_sink_detach(self._devp(), index)
        L.jointer_ring_close(ctypes.byref(self._sinks.pop(index)[1]))

    def sink_status(self, trace):
        """(status bits JOINTER_SINK_STATUS_*, WPTR, LOST)."""
        t = self.descriptor.trace(trace)
        st, w, lost = u32(), u32(), u32()
        self._check(_lib.lib().jointer_sink_status(self._devp(), t.index, ctypes.byref(st), ctypes.byref(w),
                                                   ctypes.byref(lost)), "sink_status %s" % t.name)
        return st.value, w.value, lost.value

    def set_watermark(self, trace, records):
        t = self.descriptor.trace(trace)
        self._check(_lib.lib().jointer_trace_set_watermark(self._devp(), t.index, records), "watermark %s" % t.name)

    # ---- interrupts ---------------------------------------------------------------
    def irq_enable(self, lmic, mask):
        self._check(_lib.lib().jointer_irq_enable(self._devp(), self.descriptor.lmic(lmic).index, mask), "irq_enable")

    def irq_status(self, lmic):
        v = u32()
        self._check(_lib.lib().jointer_irq_status(self._devp(), self.descriptor.lmic(lmic).index, ctypes.byref(v)),
                    "irq_status")
        return v.value

    def irq_ack(self, lmic, mask):
        self._check(_lib.lib().jointer_irq_ack(self._devp(), self.descriptor.lmic(lmic).index, mask), "irq_ack")

    def irq_wait(self, timeout_ms=-1):
        """Bit mask of the LMICs whose interrupt is pending; JointerError(ETIMEDOUT)."""
        v = u32()
        self._check(_lib.lib().jointer_irq_wait(self._devp(), timeout_ms, ctypes.byref(v)), "irq_wait")
        return v.value

    # ---- program monitor ------------------------------------------------------------
    def pm_program(self, sniffer, addresses, enable=None):
        """Load a program monitor's address table; enable: mask (default: all loaded)."""
        s = self.descriptor.sniffer(sniffer)
        arr = (u32 * max(1, len(addresses)))(*addresses)
        if enable is None:
            enable = (1 << len(addresses)) - 1
        self._check(_lib.lib().jointer_pm_program(self._devp(), s.lmic, s.index_in_lmic, arr, len(addresses),
                                                  enable), "pm_program %s" % s.name)

    def pm_enable(self, sniffer, enable):
        s = self.descriptor.sniffer(sniffer)
        self._check(_lib.lib().jointer_pm_enable(self._devp(), s.lmic, s.index_in_lmic, enable),
                    "pm_enable %s" % s.name)
