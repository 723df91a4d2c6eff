# SPDX-License-Identifier: MIT
"""A monitor's descriptor (jointer_cfg, jointer_desc.h), read through ctypes:
  - a descriptor file <name>.jdesc (jointer-gen writes it; doc/descriptor-file.md),
    decoded by libjointer's jointer_descfile_load: the format is read in C only;
  - the one libjointer's jointer_desc_resolve finds for a device (the ROM, the
    search path by config hash, $JOINTER_DESC): see Descriptor.resolve;
  - the generated C tables (<name>.c) built as a shared object lib<name>.so.
One source of hardware facts: Python reads the C descriptor, it never
recomputes a layout.

    d = Descriptor.from_file("selective_accumulations.jdesc")
    d = Descriptor.load("build/drivers/shared/desc/libselective_accumulations.so")
    d = Descriptor.from_yaml("configs/selective_accumulations.yaml")  # generate + gcc
"""
import ctypes
import errno as E
import hashlib
import os
import subprocess
import sys
from collections import namedtuple

from . import _lib
from .errors import JointerError
from .uio import uio_name_error

Metric = namedtuple("Metric", "index name lmic lmic_name sniffer sniffer_name dcapf width extractor "
                              "aggregator buckets flags")
Trace = namedtuple("Trace", "index name lmic lmic_name sniffer sniffer_name dcapf depth ring relay clock_hz "
                            "sink_bytes encoding sink_ring_log2 lanes sync spans clock")
Span = namedtuple("Span", "name begin end by_id track_value")   # begin/end: lane names, None: the value's level
Sniffer = namedtuple("Sniffer", "index name lmic lmic_name index_in_lmic pm_addresses pm_pc_width")
Lmic = namedtuple("Lmic", "index name num_sniffers clock clock_hz")   # its clock: YAML name, Hz (0: unknown)

VLNV_FORMAT = "jointer:jointer:{name}:1.0"  # gen/jointer_gen IP packaging (component.xml)


def _s(b):
    return b.decode() if b is not None else ""


class Descriptor:
    """The hardware facts of one monitor (a jointer_cfg in a shared object)."""

    def __init__(self, cfg_ptr, keep=None, path=None, source=None):
        self._keep = keep          # what holds the tables: the CDLL, or the descriptor file's block
        self.path = path
        self.source = source or ("library " + path if path else "attached")  # where it came from
        self.cfg_ptr = cfg_ptr     # POINTER(Cfg)
        c = cfg_ptr.contents
        self.name = _s(c.name)
        self.config_hash = c.config_hash
        self.version = c.version
        self.info = c.info
        self.span = c.span
        self.base_address = c.base_address
        self.bus_clock_hz = c.bus_clock_hz
        self.num_dcapfs = c.num_dcapfs
        self.lmics = [Lmic(i, _s(c.lmics[i].name), c.lmics[i].num_sniffers, _s(c.lmics[i].clock), c.lmics[i].clock_hz)
                      for i in range(c.num_lmics)]
        self.sniffers = []
        for i in range(c.num_sniffers):
            s = c.sniffers[i]
            self.sniffers.append(Sniffer(i, _s(s.name), s.lmic, self.lmics[s.lmic].name, s.index,
                                         s.pm_addresses, s.pm_pc_width))
        self.metrics = []
        for i in range(c.num_metrics):
            m = c.metrics[i]
            agg = _lib.AGGREGATORS[m.aggregator] if m.aggregator < len(_lib.AGGREGATORS) else str(m.aggregator)
            self.metrics.append(Metric(i, _s(m.name), m.lmic, self.lmics[m.lmic].name, m.sniffer,
                                       self.sniffers[m.sniffer].name, m.dcapf, m.width,
                                       _lib.EXTRACTORS[m.extractor], agg, m.buckets, m.flags))
        self.traces = [self._trace(i, c.traces[i]) for i in range(c.num_traces)]

    def _trace(self, i, t):
        lanes = tuple(_s(t.lane_names[k]) for k in range(t.num_lanes))
        spans = tuple(Span(_s(sp.name), None if sp.begin == _lib.SPAN_LEVEL else lanes[sp.begin],
                           None if sp.end == _lib.SPAN_LEVEL else lanes[sp.end],
                           bool(sp.flags & _lib.SPAN_BY_ID), bool(sp.flags & _lib.SPAN_TRACK_VALUE))
                      for sp in (t.spans[k] for k in range(t.num_spans)))
        return Trace(i, _s(t.name), t.lmic, self.lmics[t.lmic].name, t.sniffer, self.sniffers[t.sniffer].name,
                     t.dcapf, t.depth, bool(t.ring), bool(t.relay), t.clock_hz, t.sink_bytes, t.encoding,
                     t.sink_ring_log2, lanes, bool(t.sync), spans, _s(t.clock))

    @property
    def vlnv(self):
        """The Vivado IP's VLNV (what PYNQ's ip_dict calls 'type')."""
        return VLNV_FORMAT.format(name=self.name)

    @classmethod
    def load(cls, path, name=None):
        """A descriptor file <name>.jdesc (from_file), or lib<name>.so holding
        <name>_cfg (name: from the file name by default); told apart by their
        first bytes ("JDSC", ELF)."""
        _lib.lib()  # libjointer first (RTLD_GLOBAL)
        kind = _file_kind(path)
        if kind == "jdesc" or (kind != "elf" and str(path).endswith(".jdesc")):
            return cls.from_file(path)
        if name is None:
            base = os.path.basename(path)
            if kind != "elf" or not (base.startswith("lib") and ".so" in base):
                raise JointerError(22, "%s: neither a descriptor file (<name>.jdesc, written by jointer-gen beside "
                                       "the monitor) nor a descriptor library lib<name>.so (%s)" % (path, kind))
            name = base[3:base.index(".so")]
        try:
            so = ctypes.CDLL(os.path.abspath(path))
        except OSError as e:
            raise JointerError(2, "%s: cannot load the descriptor: %s" % (path, e)) from None
        try:
            cfg = _lib.Cfg.in_dll(so, name + "_cfg")
        except ValueError:
            raise JointerError(22, "%s: no symbol %s_cfg (not the descriptor of monitor %s)"
                               % (path, name, name)) from None
        return cls(ctypes.pointer(cfg), keep=so, path=path)

    @classmethod
    def from_file(cls, path):
        """A descriptor file (.jdesc), decoded by libjointer (jointer_descfile_load)."""
        load = _lib.need("jointer_descfile_load")
        _file_kind(path)           # a FIFO, a directory, a device: refused at once, said so
        out = ctypes.POINTER(_lib.Cfg)()
        r = load(os.fsencode(path), ctypes.byref(out))
        if r < 0:
            raise JointerError(-r, "%s: %s" % (path, descfile_error(r)))
        return cls(out, keep=_CfgBlock(out), path=path, source="file " + str(path))

    @classmethod
    def resolve(cls, spec, desc_file=None, force=False):
        """The descriptor of the device spec, as the CLI finds it
        (jointer_desc_resolve): desc_file, else $JOINTER_DESC, else the
        device's descriptor ROM, else the .jdesc of $JOINTER_DESC_PATH
        (default /usr/share/jointer/desc:/usr/local/share/jointer/desc)
        whose config hash is the device's. .source says which. A file
        (desc_file, $JOINTER_DESC) of another config hash than the device's
        is an error (ESTALE) unless force."""
        resolve = _lib.need("jointer_desc_resolve")
        out = ctypes.POINTER(_lib.Cfg)()
        frm = ctypes.create_string_buffer(_lib.DESC_FROM_LEN)
        r = resolve(spec.encode(), os.fsencode(desc_file) if desc_file else None,
                    _lib.DESC_FORCE if force else 0, ctypes.byref(out), frm, len(frm))
        if r < 0:
            raise JointerError(-r, resolve_error(r, spec, desc_file, frm.value.decode(errors="replace")))
        return cls(out, keep=_CfgBlock(out), path=desc_file, source=frm.value.decode(errors="replace"))

    @classmethod
    def from_device(cls, io):
        """The descriptor in a monitor's descriptor ROM (YAML descriptor: rom),
        reached through io (a jointer_io: a mapping someone else made, PYNQ's):
        libjointer's jointer_descrom_read reads the ROM over the global
        window, jointer_descfile_parse decodes it. ENOTSUP: no ROM."""
        L = _lib.lib()
        read = _lib.need("jointer_descrom_read")
        boot = _Bootstrap()
        dev = _lib.Dev()
        r = L.jointer_init(ctypes.byref(dev), ctypes.byref(boot.cfg), ctypes.byref(io))
        if r < 0:
            raise JointerError(-r, "descriptor ROM: init: %s" % _lib.strerror(r))
        rom = ctypes.create_string_buffer(_lib.DESCFILE_MAX)
        n = ctypes.c_size_t()
        r = read(ctypes.byref(dev), rom, len(rom), ctypes.byref(n))
        if r == -E.ENOTSUP:
            ident = _lib.Ident()
            if L.jointer_identify(ctypes.byref(dev), ctypes.byref(ident)) == 0 and ident.info & _lib.INFO_DESC_ROM:
                raise JointerError(E.ENOTSUP, "the monitor has a descriptor ROM, this libjointer (%s) cannot read "
                                              "it: give its .jdesc file" % _lib.lib_path())
            raise JointerError(E.ENOTSUP, "the monitor has no descriptor ROM (INFO bit 20 clear): give its "
                                          ".jdesc file")
        if r < 0:
            raise JointerError(-r, "descriptor ROM: %s" % _lib.strerror(r))
        data = ctypes.create_string_buffer(rom.raw[:n.value], n.value)   # the strings point into it
        need = ctypes.c_size_t()
        r = L.jointer_descfile_arena_size(data, n.value, ctypes.byref(need))
        arena = ctypes.create_string_buffer(max(1, need.value)) if r == 0 else None
        cfg = _lib.Cfg()
        if r == 0:
            r = L.jointer_descfile_parse(data, n.value, arena, need.value, ctypes.byref(cfg))
        if r < 0:
            raise JointerError(-r, "descriptor ROM: %s" % descfile_error(r))
        return cls(ctypes.pointer(cfg), keep=(data, arena, cfg), source="rom")

    @classmethod
    def from_yaml(cls, yaml_path, cache_dir=None):
        """Generate the monitor's C descriptor (jointer_gen) and build it with gcc."""
        return cls.load(build_descriptor(yaml_path, cache_dir))

    # ---- name lookups (libjointer's jointer_find_*) ----
    def _find(self, fn, name, what, items):
        if isinstance(name, int):
            if 0 <= name < len(items):
                return name
            raise JointerError(22, "%s: no %s number %d" % (self.name, what, name))
        i = getattr(_lib.lib(), fn)(self.cfg_ptr, name.encode())
        if i < 0:
            raise JointerError(-i, "no %s \"%s\" in %s (it has: %s)"
                               % (what, name, self.name, ", ".join(x.name for x in items) or "none"))
        return i

    def metric(self, name):
        return self.metrics[self._find("jointer_find_metric", name, "metric", self.metrics)]

    def trace(self, name):
        return self.traces[self._find("jointer_find_trace", name, "trace", self.traces)]

    def sniffer(self, name):
        return self.sniffers[self._find("jointer_find_sniffer", name, "sniffer", self.sniffers)]

    def lmic(self, name):
        return self.lmics[self._find("jointer_find_lmic", name, "lmic", self.lmics)]


def _file_kind(path):
    """"jdesc" (JDSC magic), "elf", or what else path is, in words (refused at
    once: a directory, a FIFO or a device is never opened for reading)."""
    import stat
    try:
        st = os.stat(path)
    except OSError as e:
        raise JointerError(e.errno or E.ENOENT, "%s: %s" % (path, descfile_error(-(e.errno or E.ENOENT)))) from None
    if not stat.S_ISREG(st.st_mode):
        err = E.EISDIR if stat.S_ISDIR(st.st_mode) else E.ESPIPE if stat.S_ISFIFO(st.st_mode) else E.ENODEV
        raise JointerError(err, "%s: %s" % (path, descfile_error(-err)))
    with open(path, "rb") as f:
        head = f.read(4)
    return "jdesc" if head == b"JDSC" else "elf" if head == b"\x7fELF" else "its first bytes are neither JDSC nor ELF"


class _Bootstrap:
    """The global window only (the bootstrap descriptor of jointer_desc_resolve):
    enough for jointer_init to read the identity and the descriptor ROM."""

    def __init__(self):
        self.lmic = _lib.LmicDesc(b"global", 0, 0, 0, 0)
        self.sniffer = _lib.SnifferDesc(b"none", 0, 0, 0, 0, 0)
        self.cfg = _lib.Cfg(name=b"bootstrap", version=_lib.VERSION_VALUE, info=1, span=64, window=64,
                            lmics=ctypes.pointer(self.lmic), sniffers=ctypes.pointer(self.sniffer), num_lmics=1)


class _CfgBlock:
    """A jointer_cfg of jointer_descfile_load / jointer_desc_resolve: one
    malloc'd block, freed when the last Descriptor (or Monitor) using it goes."""

    def __init__(self, ptr):
        self.ptr = ptr
        self._free = _lib.lib().jointer_descfile_free

    def __del__(self):
        if self.ptr:
            self._free(self.ptr)
            self.ptr = None


_DESCFILE_ERRORS = {
    E.ENOENT: "no such file",
    E.EACCES: "permission denied",
    E.EILSEQ: "not a jointer descriptor file (no \"JDSC\" magic)",
    E.EPROTONOSUPPORT: "a descriptor file format this libjointer does not read (another version)",
    E.EBADMSG: "CRC mismatch: the descriptor file is corrupted",
    E.EINVAL: "truncated or malformed descriptor file",
    E.EFBIG: "too large for a descriptor file (1 MiB at most)",
    E.ENOMEM: "out of memory",
    E.EISDIR: "a directory, not a descriptor file (give the <name>.jdesc inside)",
    E.ESPIPE: "a FIFO or socket, not a descriptor file (a regular <name>.jdesc file)",
    E.ENODEV: "a device, not a descriptor file (a regular <name>.jdesc file)",
}


def descfile_error(r):
    """What a negative errno of jointer_descfile_load says about the file."""
    return _DESCFILE_ERRORS.get(-r) or _lib.strerror(r)


def resolve_error(r, spec, desc_file, frm):
    """One message for a failed jointer_desc_resolve."""
    given = desc_file or os.environ.get("JOINTER_DESC")
    if given and r == -E.ESTALE:
        return ("%s: %s%s is the descriptor of another configuration than the device's (config hash)\n"
                "  hint: the .jdesc generated with the bitstream, or force=True"
                % (spec, "" if desc_file else "$JOINTER_DESC=", given))
    if given:
        return "%s%s: %s" % ("" if desc_file else "$JOINTER_DESC=", given, descfile_error(r))
    if spec.startswith("uio:name=") and r in (-E.ENOENT, -E.ENOTUNIQ):
        return str(uio_name_error(spec, r))
    if r == -E.ENODEV:
        return "%s: no jointer monitor there (the ID register is not \"JNTR\")" % spec
    if r == -E.ENOENT:
        return ("%s: no descriptor for this device: no descriptor ROM, $JOINTER_DESC unset, and no .jdesc with "
                "its config hash in %s\n  hint: pass desc=FILE.jdesc (jointer-gen writes <name>/<name>.jdesc), "
                "or copy it to one of those folders"
                % (spec, os.environ.get("JOINTER_DESC_PATH") or "/usr/share/jointer/desc:/usr/local/share/jointer/desc"))
    where = " (%s)" % frm if frm else ""
    if -r in (E.EILSEQ, E.EPROTONOSUPPORT, E.EBADMSG, E.EFBIG):
        return "%s: its descriptor%s: %s" % (spec, where, descfile_error(r))
    return "%s: finding its descriptor%s: %s" % (spec, where, _lib.strerror(r))


def build_descriptor(yaml_path, cache_dir=None):
    """lib<name>.so for the monitor of yaml_path: jointer_gen's C output
    compiled with gcc -shared (cached by the YAML's content). Returns its path."""
    here = _lib.CHECKOUT
    with open(yaml_path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    out = cache_dir or os.path.join(os.path.expanduser("~"), ".cache", "jointer", digest)
    gen = os.path.join(out, "gen")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(here, "gen")] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    r = subprocess.run([sys.executable, "-m", "jointer_gen", yaml_path, "-o", gen, "-q"], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise JointerError(22, "jointer_gen %s failed:\n%s" % (yaml_path, r.stderr.strip()))
    regs = [os.path.join(gen, d, "c") for d in sorted(os.listdir(gen))
            if os.path.isdir(os.path.join(gen, d, "c"))]
    if len(regs) != 1:
        raise JointerError(5, "jointer_gen %s: expected one monitor in %s" % (yaml_path, gen))
    name = os.path.basename(os.path.dirname(regs[0]))
    so = os.path.join(out, "lib%s.so" % name)
    tmp = so + ".tmp"
    r = subprocess.run(["gcc", "-std=c99", "-O2", "-fPIC", "-shared", "-I" + os.path.join(here, "drivers", "include"),
                        "-I" + regs[0], os.path.join(regs[0], name + ".c"), "-o", tmp],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise JointerError(5, "gcc of the %s descriptor failed:\n%s" % (name, r.stderr.strip()))
    os.replace(tmp, so)
    return so
