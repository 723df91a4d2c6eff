# SPDX-License-Identifier: MIT
"""PYNQ binding: a pynq.DefaultIP driver class bound to a monitor's VLNV, so
that `overlay.<ip_name>` is a jointer Monitor (libjointer reads the
registers through the address PYNQ mapped: no second mapping, no root
beyond what PYNQ already has).

    import jointer.pynq_driver as jp
    jp.register("selective_accumulations.jdesc")     # before Overlay(); or lib<name>.so
    jp.register(name="selective_accumulations")      # a monitor with a descriptor ROM: no file
    ol = pynq.Overlay("design.bit")
    ol.selective_accumulations_0.metrics()
"""
import ctypes
import errno as E

from . import _lib
from .descriptor import VLNV_FORMAT, Descriptor
from .errors import JointerError
from .monitor import Monitor, _as_descriptor

_registered = {}


def available():
    try:
        import pynq  # noqa: F401
        return True
    except ImportError:
        return False


def _rom_descriptor(mmio, name):
    """The descriptor in the monitor's ROM, read through PYNQ's mapping."""
    io, keep = _lib.Io(), []
    arr = getattr(mmio, "array", None)
    if arr is not None:
        io.base = arr.ctypes.data
    else:
        def rd(ctx, off, pv):
            try:
                pv[0] = int(mmio.read(off)) & 0xFFFFFFFF
                return 0
            except Exception:
                return -E.EIO

        def wr(ctx, off, v):
            try:
                mmio.write(off, v)
                return 0
            except Exception:
                return -E.EIO
        keep.append(_lib.IoOps(_lib.READ32(rd), _lib.WRITE32(wr), _lib.WAIT_IRQ()))
        io.ops = ctypes.pointer(keep[0])
    desc = Descriptor.from_device(io)
    if desc.name != name:
        raise JointerError(E.ESTALE, "the descriptor ROM of IP %s holds monitor %s" % (VLNV_FORMAT.format(name=name),
                                                                                        desc.name))
    return desc


def register(descriptor=None, force=False, *, name=None):
    """Define (once per VLNV) and return the DefaultIP subclass for the monitor
    of descriptor (a Descriptor, a .jdesc file, a lib<name>.so or a YAML path),
    or, for a monitor with a descriptor ROM, of name (its VLNV
    jointer:jointer:<name>:1.0): the descriptor is then read from the ROM when
    the overlay instantiates the IP."""
    try:
        import pynq
    except ImportError:
        raise JointerError(2, "pynq is not importable: the PYNQ driver needs a PYNQ image") from None
    if (descriptor is None) == (name is None):
        raise JointerError(E.EINVAL, "register(descriptor) or register(name=MONITOR) (a descriptor ROM), one of them")
    desc = _as_descriptor(descriptor) if descriptor is not None else None
    vlnv = desc.vlnv if desc is not None else VLNV_FORMAT.format(name=name)
    if vlnv in _registered:
        return _registered[vlnv]

    class JointerIP(pynq.DefaultIP):
        """A jointer monitor in a PYNQ overlay: every Monitor method, on self.monitor."""
        bindto = [vlnv]

        def __init__(self, description):
            super().__init__(description=description)
            mmio = self.mmio
            d = desc if desc is not None else _rom_descriptor(mmio, name)
            arr = getattr(mmio, "array", None)
            if arr is not None:      # direct volatile access to PYNQ's mapping
                self.monitor = Monitor.attach(d, base=arr.ctypes.data, keep=mmio, force=force)
            else:                    # an MMIO without a numpy view: through its read/write
                self.monitor = Monitor.attach(d, read32=lambda off: mmio.read(off),
                                              write32=lambda off, v: mmio.write(off, v), keep=mmio, force=force)
            self.monitor.spec = "pynq:0x%X" % description.get("phys_addr", 0)

        def __getattr__(self, name):
            if name == "monitor":
                raise AttributeError(name)
            return getattr(self.monitor, name)

        def __dir__(self):
            return sorted(set(super().__dir__()) | set(dir(self.monitor)))

    JointerIP.__name__ = JointerIP.__qualname__ = "JointerIP_" + (desc.name if desc is not None else name)
    _registered[vlnv] = JointerIP
    return JointerIP
