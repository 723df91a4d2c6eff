# SPDX-License-Identifier: MIT
"""A fake device for the exporter tests: the register image of a fixture
device (the fake UIO file of conftest), read through Python callbacks
(Monitor.attach read32) so a test can log which thread read which register,
change registers (a PL reload: another CONFIG_HASH), or make counters grow
with time. A counter's value is latched when the ID register is read (the
first read of every exporter snapshot), as one consistent state per scrape.
The test of this file checks the fake serves what the UIO file holds."""
import struct
import threading
import time

import jointer
from conftest import REGS, desc_path, y9_device

ID, VERSION, HASH, INFO = 0x0, 0x4, 0x8, 0xC


class FakeRegs:
    """read32/write32 over a copy of a fake UIO file; overrides and dynamic
    registers on top; log: [(thread ident, offset)] while logging is on."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.mem = bytearray(f.read())
        self.over = {}            # offset -> value (a changed register)
        self.dyn = {}             # offset -> fn(tick) -> value (registers growing with time)
        self.tick_hz = 100.0
        self.t0 = time.monotonic()
        self.tick = 0
        self.log = None
        self.on_read = None       # fn(offset): called before a read (to change registers mid-snapshot)
        self.lock = threading.Lock()

    def read32(self, off):
        if self.log is not None:
            self.log.append((threading.get_ident(), off))
        if self.on_read is not None:
            self.on_read(off)
        if off == ID:
            self.tick = int((time.monotonic() - self.t0) * self.tick_hz)
        if off in self.over:
            return self.over[off]
        if off in self.dyn:
            return self.dyn[off](self.tick) & 0xFFFFFFFF
        return struct.unpack_from("<I", self.mem, off)[0]

    def write32(self, off, v):
        struct.pack_into("<I", self.mem, off, v)

    def monitor(self, desc):
        return jointer.Monitor.attach(desc, read32=self.read32, write32=self.write32)


def test_fake_serves_the_uio_image(tmp_path):
    y9 = y9_device(tmp_path)
    fake = FakeRegs(y9.path)
    with fake.monitor(desc_path("accel_mon")) as m:
        assert m.metrics() == {"bytes_written": 4096, "compute_cycles": (2 << 32) + 5, "forward_fires": 7,
                               "mac_fires": 1023}
        fake.log = []
        fake.over[HASH] = 0x12345678
        assert m.identify()["config_hash"] == 0x12345678
        assert [o for _, o in fake.log] == [ID, VERSION, HASH, INFO]
        fake.dyn[REGS["accel_mon"]["ACCEL_MON_MAC_FIRES_RESULT"]] = lambda n: 7
        assert m.read("mac_fires") == 7
