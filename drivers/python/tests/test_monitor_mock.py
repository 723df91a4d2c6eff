# SPDX-License-Identifier: MIT
"""jointer.Monitor over the C mock (drivers/tests/mock, the register file
the C unit tests use) behind a jointer_io, and over Python callables (the
ops seam a simulator uses): counting with filters, modes, reset, mark,
traces as numpy arrays, relay drain and LOST, interrupts, bus errors."""
import errno

import numpy as np
import pytest
from conftest import Mock

import jointer


def test_counts_with_and_without_filter(descs):
    mk = Mock(descs["accel_mon"])
    m = mk.monitor()
    m.set_mode("transaction", "no_filtering")
    m.set_mode("operation", "no_filtering")
    m.run()
    for data, inc in ((5, 100), (0x30, 28), (0x15, 3)):
        mk.event("bytes_written", data, inc)
    mk.time("compute_cycles", 1, 40)          # task sniffer idle: not counted
    mk.event("mac_fires", 0, 1)
    assert m.metrics() == {"bytes_written": 131, "compute_cycles": 0, "forward_fires": 0, "mac_fires": 1}
    m.reset()
    assert m.read("bytes_written") == 0
    m.initialize("bytes_written", 0x10, 0x20)  # transaction: FILTERING, in INIT until run
    assert mk.mode("transaction") == 1
    m.run()
    assert m.mode("transaction") == "filtering" and mk.mode("transaction") == 2
    for data, inc in ((5, 100), (0x10, 7), (0x20, 9), (0x21, 50)):
        mk.event("bytes_written", data, inc)
    assert m.read("bytes_written") == 16
    m.stop()
    mk.event("bytes_written", 0x18, 1000)
    assert m.read("bytes_written") == 16
    st = m.status("accel")
    assert st & 1 and not st & (1 << 16)
    assert m.overflow() == {("accel", "transaction"): False, ("accel", "task"): False,
                            ("accel", "operation"): False}


def test_mark_timestamp_threshold_irq(descs):
    mk = Mock(descs["trace_mon"])
    m = mk.monitor()
    mark_sniffer = m.descriptor.trace("mark_trace").sniffer_name
    mk.set_mark_sniffer(mark_sniffer)
    m.set_mode(mark_sniffer, "no_filtering")
    m.run()
    m.mark(7)
    m.mark(9)
    m.stop()
    assert m.trace("mark_trace")["data"].tolist() == [7, 9]   # the host sniffer saw both MARK writes
    t1 = m.timestamp()
    t2 = m.timestamp()
    assert t2 > t1
    m.set_threshold("beats", 3)
    assert m.threshold("beats") == 3
    with pytest.raises(jointer.JointerError) as e:
        m.irq_wait(0)
    assert e.value.errno == errno.ETIMEDOUT


def test_trace_as_numpy(descs):
    mk = Mock(descs["trace_mon"])
    d = descs["trace_mon"]
    m = mk.monitor()
    t = d.trace("bus_trace")
    m.initialize("bus_trace", 0x1000, 0x1FFF)
    m.run()
    sent = [0x1000, 0x1234, 0x0FFF, 0x1FFF, 0x2000, 0x1ABC]
    for v in sent:
        mk.trace_event("bus_trace", v)
    m.stop()
    a = m.trace("bus_trace")
    assert a.dtype == jointer.TRACE_DTYPE
    want = [v for v in sent if 0x1000 <= v <= 0x1FFF]
    assert a["data"].tolist() == want
    # timestamps: the mock's RAM words, read raw (independent of jointer_trace_read)
    ram = d.cfg_ptr.contents.traces[t.index].ram_offset
    assert a["timestamp"].tolist() == [mk.reg(ram + 8 * k) for k in range(len(want))]
    assert np.all(np.diff(a["timestamp"].astype(np.int64)) > 0)
    fill, status = m.trace_status("bus_trace")
    assert fill == len(want) and status == 0


def test_relay_drain_and_lost(descs):
    mk = Mock(descs["relay_mon"])
    m = mk.monitor()
    t = m.descriptor.trace("relay_t")
    assert t.relay and t.clock_hz == 100000000
    m.set_mode("ev", "no_filtering")
    m.run()
    for v in range(t.depth + 3):              # 3 more than the buffer holds: lost
        mk.trace_event("relay_t", 1000 + v)
    a = m.drain("relay_t")
    assert a["data"].tolist() == [1000 + v for v in range(t.depth)]
    assert m.lost("relay_t") == 3
    assert len(m.drain("relay_t")) == 0
    mk.trace_event("relay_t", 77)
    assert m.drain("relay_t")["data"].tolist() == [77]
    with pytest.raises(jointer.JointerError) as e:
        m.drain("ev_trace")
    assert e.value.errno == errno.ENOTSUP and "drain ev_trace" in str(e.value)


def test_python_ops_seam_and_bus_errors(descs):
    d = descs["accel_mon"]
    regs = {0x0: 0x4A4E5452, 0x4: 0x00020000, 0x8: d.config_hash, 0xC: d.cfg_ptr.contents.info}
    mac = d.cfg_ptr.contents.metrics[d.metric("mac_fires").index].result_offset
    regs[mac] = 1000
    writes = []

    m = jointer.Monitor.attach(d, read32=lambda off: regs.get(off, 0), write32=lambda off, v: writes.append((off, v)))
    assert m.read("mac_fires") == 1000
    m.run()
    assert writes[-1][1] & 1 == 1
    # a failing read is -EIO, reported with the seam's exception
    d2 = jointer.Monitor.attach(d, read32=lambda off: (_ for _ in ()).throw(IOError("bus down"))
                                if off == mac else regs.get(off, 0), write32=lambda o, v: None)
    with pytest.raises(jointer.JointerError) as e:
        d2.read("mac_fires")
    assert e.value.errno == errno.EIO and "bus down" in str(e.value)
    regs[0x8] = 0xBAD
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.attach(d, read32=lambda off: regs.get(off, 0), write32=lambda o, v: None)
    assert e.value.errno == errno.ESTALE and "0x00000BAD" in str(e.value)
