# SPDX-License-Identifier: MIT
"""Monitor.sink_start / sink_status / drain / sink_stop against a fake sink:
a Python model of the sink's registers behind Monitor.attach(read32=,
write32=) (the register seam, as test_monitor_mock.py's ops test) and a
regular file standing in for /dev/mem (JOINTER_DEVMEM_PATH) that holds the
ring. The register logic is libjointer's; the test checks the exact register
writes, what comes back, and the errors. The UIO case maps the second sink's
ring as map2 of test_cli.py's fake UIO device. Fixture: sink_mon (a raw sink
raw_log, a compact sink compact_log, a plain trace)."""
import errno
import os
import struct

import pytest

import jointer
from conftest import REGS, cli_tests

R = REGS["sink_mon"]
WPTR, RPTR, STATUS, WATERMARK, BASE, SIZE, CONTROL, LOST = range(0, 32, 4)
ENABLE, CLEAR = 1, 2
BUSY, CONFIG_ERROR = 4, 2
PHYS = 0x3000                  # the ring's address: the /dev/mem file's offset too
RING = 0x1000


class FakeSink:
    """The registers of every sink trace of sink_mon (the rest: ID, hash, INFO, zeros)."""

    def __init__(self, desc):
        self.regs = {0x0: 0x4A4E5452, 0x4: 0x00020000, 0x8: desc.config_hash, 0xC: desc.cfg_ptr.contents.info}
        self.sinks = {R["SINK_MON_RAW_LOG_REGS"]: "raw_log", R["SINK_MON_COMPACT_LOG_REGS"]: "compact_log"}
        self.writes = []            # (trace, register, value) in order
        self.busy_reads = 0
        self.refuse = False

    def _sink(self, off):
        for base, name in self.sinks.items():
            if base <= off < base + 32:
                return base, name, off - base
        return None, None, None

    def read32(self, off):
        base, _, r = self._sink(off)
        if base is not None and r == STATUS and self.busy_reads:
            self.busy_reads -= 1
            return self.regs.get(off, 0) | BUSY
        return self.regs.get(off, 0)

    def write32(self, off, v):
        base, name, r = self._sink(off)
        if base is None:
            self.regs[off] = v
            return
        self.writes.append((name, r, v))
        if r in (WPTR, STATUS, LOST):
            return                   # read-only
        if r == CONTROL:
            if v & CLEAR:
                for k in (WPTR, LOST, STATUS):
                    self.regs[base + k] = 0
            if self.refuse:
                self.regs[base + STATUS] = CONFIG_ERROR
            v &= ENABLE
        if r == RPTR:
            v &= ~7
        self.regs[off] = v

    def set(self, trace, r, v):
        self.regs[R["SINK_MON_%s_REGS" % trace.upper()] + r] = v

    def get(self, trace, r):
        return self.regs.get(R["SINK_MON_%s_REGS" % trace.upper()] + r, 0)


@pytest.fixture
def sink(descs, tmp_path, monkeypatch):
    mem = tmp_path / "mem"
    mem.write_bytes(b"\xA5" * (PHYS + 2 * RING))
    monkeypatch.setenv("JOINTER_DEVMEM_PATH", str(mem))
    fake = FakeSink(descs["sink_mon"])
    m = jointer.Monitor.attach(descs["sink_mon"], read32=fake.read32, write32=fake.write32)
    yield m, fake, mem
    m.close()


def put_units(mem, units, at=0):
    with open(mem, "r+b") as f:
        f.seek(PHYS + at)
        f.write(b"".join(struct.pack("<Q", u) for u in units))


def test_start_writes_the_ring_registers_then_enables(sink):
    m, fake, mem = sink
    fake.busy_reads = 3              # bursts still outstanding: the driver waits
    m.sink_start("raw_log", ring=(PHYS, RING), watermark=512)
    assert fake.writes == [("raw_log", CONTROL, 0), ("raw_log", CONTROL, CLEAR), ("raw_log", BASE, PHYS),
                           ("raw_log", SIZE, RING), ("raw_log", RPTR, 0), ("raw_log", WATERMARK, 512),
                           ("raw_log", CONTROL, ENABLE)]
    assert fake.busy_reads == 0
    assert m.sink_status("raw_log") == (0, 0, 0)
    fake.set("raw_log", STATUS, 1)   # ERROR
    fake.set("raw_log", WPTR, 0x28)
    fake.set("raw_log", LOST, 123456)
    assert m.sink_status("raw_log") == (1, 0x28, 123456)
    assert m.lost("raw_log") == 123456


def test_drain_and_stop_give_the_ring_records_and_rptr(sink):
    m, fake, mem = sink
    m.sink_start("raw_log", ring=(PHYS, RING))
    recs = [(1000 + i, 0xC0DE0000 | i) for i in range(10)]
    put_units(mem, [ts | d << 32 for ts, d in recs])
    fake.set("raw_log", WPTR, 8 * 6)
    got = m.drain("raw_log")
    assert list(zip(got["timestamp"].tolist(), got["data"].tolist())) == recs[:6]
    assert fake.get("raw_log", RPTR) == 48               # the space given back
    fake.set("raw_log", WPTR, 8 * 10)
    fake.writes.clear()
    rest = m.sink_stop("raw_log")                        # disable, then the rest of the ring
    assert list(zip(rest["timestamp"].tolist(), rest["data"].tolist())) == recs[6:]
    assert fake.writes == [("raw_log", CONTROL, 0), ("raw_log", RPTR, 80)]
    with pytest.raises(jointer.JointerError) as e:       # the ring is detached
        m.drain("raw_log")
    assert e.value.errno == errno.ENOTCONN
    assert str(e.value) == "drain: sink raw_log is not started: no ring attached (sink_start('raw_log') first)"
    with pytest.raises(jointer.JointerError) as e:       # a sink has no buffer to read
        m.trace("raw_log")
    assert e.value.errno == errno.ENOTSUP
    assert str(e.value) == ("trace: trace raw_log is a sink (YAML mode: sink): its records go to a ring in memory, "
                            "not to a buffer of the monitor; use sink_start('raw_log'), drain('raw_log'), "
                            "sink_stop('raw_log')")


def test_compact_sink_drains_decoded(sink):
    m, fake, mem = sink
    m.sink_start("compact_log", ring=(PHYS, RING))
    put_units(mem, [100 << 32 | 0xABCD0001, 1 << 62 | 7 << 32 | 0x12345678])   # SYNC t=100, LONG +7
    fake.set("compact_log", WPTR, 16)
    got = m.drain("compact_log")
    assert list(zip(got["timestamp"].tolist(), got["data"].tolist())) == [(100, 0xABCD0001), (107, 0x12345678)]
    assert fake.get("compact_log", RPTR) == 16
    assert fake.get("raw_log", CONTROL) == 0             # the other sink untouched


def test_errors(sink, tmp_path):
    m, fake, mem = sink
    with pytest.raises(jointer.JointerError) as e:       # not a sink trace
        m.sink_start("plain", ring=(PHYS, RING))
    assert e.value.errno == errno.ENOTSUP and "not a sink trace" in str(e.value)
    with pytest.raises(jointer.JointerError) as e:
        m.sink_status("plain")
    assert e.value.errno == errno.ENOTSUP
    for ring in ((PHYS + 0x100, RING), (PHYS, RING + 8), (PHYS, 0)):   # not 4 KB aligned, zero
        with pytest.raises(jointer.JointerError) as e:
            m.sink_start("raw_log", ring=ring)
        assert e.value.errno == errno.EINVAL, ring
    assert fake.writes == []                             # nothing reached the sink
    with pytest.raises(jointer.JointerError) as e:       # no UIO device: the ring must be given
        m.sink_start("raw_log")
    assert e.value.errno == errno.EINVAL and "ring=(phys, size)" in str(e.value)
    fake.refuse = True                                   # the sink refuses BASE/SIZE
    with pytest.raises(jointer.JointerError) as e:
        m.sink_start("raw_log", ring=(PHYS, RING))
    assert e.value.errno == errno.EIO
    assert fake.get("raw_log", CONTROL) == 0             # never enabled
    fake.refuse = False
    fake.busy_reads = 10 ** 9                            # bursts that never end
    with pytest.raises(jointer.JointerError) as e:
        m.sink_start("raw_log", ring=(PHYS, RING))
    assert e.value.errno == errno.ETIMEDOUT


def test_uio_ring_of_the_second_sink_is_map2(tmp_path, monkeypatch, descs):
    """sink_start(ring=None) on a UIO monitor: the compact sink (the second sink trace) maps map2."""
    units = [200 << 32 | 0xFEED0000, 1 << 62 | 3 << 32 | 0xFEED0001]
    d = cli_tests.sink_device(str(tmp_path), {1: (0x30000000, [0] * 4), 2: (0x30001000, units)})
    monkeypatch.setenv("JOINTER_UIO_SYSFS", d.sysfs)
    reg = R["SINK_MON_COMPACT_LOG_REGS"]
    d.poke(reg + WPTR, 16)
    with jointer.Monitor.open("uio:" + d.path, descs["sink_mon"], sysfs_root=d.sysfs) as m:
        m.sink_start("compact_log")
        assert d.peek(reg + BASE) == 0x30001000 and d.peek(reg + SIZE) == 0x1000
        got = m.drain("compact_log")
        assert list(zip(got["timestamp"].tolist(), got["data"].tolist())) == [(200, 0xFEED0000), (203, 0xFEED0001)]
        m.sink_stop("compact_log")
    assert d.peek(reg + CONTROL) == 0 and d.peek(reg + RPTR) == 16
