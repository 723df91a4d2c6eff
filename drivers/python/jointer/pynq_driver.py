"""PYNQ binding: a pynq.DefaultIP driver class bound to a monitor's VLNV, so
that `overlay.<ip_name>` is a jointer Monitor (libjointer reads the
registers through the address PYNQ mapped: no second mapping, no root
beyond what PYNQ already has).

    import jointer.pynq_driver as jp
    jp.register("libselective_accumulations.so")     # before Overlay()
    ol = pynq.Overlay("design.bit")
    ol.selective_accumulations_0.metrics()
"""
from .descriptor import VLNV_FORMAT  # noqa: F401  (documented VLNV)
from .errors import JointerError
from .monitor import Monitor, _as_descriptor

_registered = {}


def available():
    try:
        import pynq  # noqa: F401
        return True
    except ImportError:
        return False


def register(descriptor, force=False):
    """Define (once per VLNV) and return the DefaultIP subclass for the monitor
    of descriptor (a Descriptor, a lib<name>.so or a YAML path)."""
    try:
        import pynq
    except ImportError:
        raise JointerError(2, "pynq is not importable: the PYNQ driver needs a PYNQ image") from None
    desc = _as_descriptor(descriptor)
    if desc.vlnv in _registered:
        return _registered[desc.vlnv]

    class JointerIP(pynq.DefaultIP):
        """A jointer monitor in a PYNQ overlay: every Monitor method, on self.monitor."""
        bindto = [desc.vlnv]

        def __init__(self, description):
            super().__init__(description=description)
            mmio = self.mmio
            arr = getattr(mmio, "array", None)
            if arr is not None:      # direct volatile access to PYNQ's mapping
                self.monitor = Monitor.attach(desc, base=arr.ctypes.data, keep=mmio, force=force)
            else:                    # an MMIO without a numpy view: through its read/write
                self.monitor = Monitor.attach(desc, read32=lambda off: mmio.read(off),
                                              write32=lambda off, v: mmio.write(off, v), keep=mmio, force=force)
            self.monitor.spec = "pynq:0x%X" % description.get("phys_addr", 0)

        def __getattr__(self, name):
            if name == "monitor":
                raise AttributeError(name)
            return getattr(self.monitor, name)

        def __dir__(self):
            return sorted(set(super().__dir__()) | set(dir(self.monitor)))

    JointerIP.__name__ = JointerIP.__qualname__ = "JointerIP_" + desc.name
    _registered[desc.vlnv] = JointerIP
    return JointerIP
