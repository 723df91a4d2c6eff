# SPDX-License-Identifier: MIT
"""A fake `pynq` for tests (the real one only installs on a PYNQ image):
what jointer.pynq_driver relies on, as pynq 3.x does it. DefaultIP's
metaclass registers each subclass's `bindto` VLNVs; Overlay instantiates,
for each ip_dict entry, the driver registered for its 'type' (else
DefaultIP); Overlay("design.bit") takes the ip_dict from design.hwh beside
it (JSON here: PYNQ parses Vivado's hardware handoff XML); MMIO maps phys_addr..+length of a file standing in for
/dev/mem ($FAKE_PYNQ_MEM) and exposes it as a numpy uint32 array."""
import json
import mmap
import os

import numpy as np

_ip_drivers = {}


class RegisterIP(type):
    def __init__(cls, name, bases, attrs):
        for vlnv in attrs.get("bindto", []):
            _ip_drivers[vlnv] = cls
        super().__init__(name, bases, attrs)


class MMIO:
    def __init__(self, base_addr, length):
        fd = os.open(os.environ["FAKE_PYNQ_MEM"], os.O_RDWR)
        self._mm = mmap.mmap(fd, length, offset=base_addr)
        os.close(fd)
        self.array = np.frombuffer(self._mm, dtype=np.uint32)

    def read(self, offset=0, length=4):
        return int(self.array[offset >> 2])

    def write(self, offset, data):
        self.array[offset >> 2] = data


class DefaultIP(metaclass=RegisterIP):
    def __init__(self, description):
        self.description = description
        self.mmio = MMIO(description["phys_addr"], description["addr_range"])


class Overlay:
    def __init__(self, ip_dict):
        if isinstance(ip_dict, str):
            with open(os.path.splitext(ip_dict)[0] + ".hwh") as f:
                ip_dict = json.load(f)
        self.ip_dict = ip_dict
        for name, d in ip_dict.items():
            setattr(self, name, _ip_drivers.get(d["type"], DefaultIP)(d))
