# SPDX-License-Identifier: MIT
"""The PYNQ driver class against a fake `pynq` (tests/fake_pynq): the class
is bound to the descriptor's VLNV, overlay.<ip> is a jointer monitor reading
PYNQ's mapping directly, and its values equal the C CLI's."""
import errno
import os
import sys

import pytest
from conftest import HERE, REGS, cli_json, desc_path, y9_device

import jointer


@pytest.fixture
def fake_pynq(monkeypatch):
    monkeypatch.syspath_prepend(os.path.join(HERE, "fake_pynq"))
    sys.modules.pop("pynq", None)
    import pynq
    yield pynq
    sys.modules.pop("pynq", None)


def test_overlay_attribute_is_a_jointer_monitor(tmp_path, fake_pynq, monkeypatch):
    import jointer.pynq_driver as jp
    jp._registered.clear()
    d = y9_device(tmp_path)
    monkeypatch.setenv("FAKE_PYNQ_MEM", d.path)
    cls = jp.register(desc_path("accel_mon"))
    assert cls.bindto == ["jointer:jointer:accel_mon:1.0"]
    assert fake_pynq._ip_drivers["jointer:jointer:accel_mon:1.0"] is cls
    assert jp.register(desc_path("accel_mon")) is cls           # once per VLNV
    ol = fake_pynq.Overlay({
        "accel_mon_0": {"type": "jointer:jointer:accel_mon:1.0", "phys_addr": 0, "addr_range": 0x4000},
        "other_ip": {"type": "xilinx.com:ip:axi_gpio:2.0", "phys_addr": 0, "addr_range": 0x1000}})
    y9 = ol.accel_mon_0
    assert isinstance(y9.monitor, jointer.Monitor)
    assert type(ol.other_ip) is fake_pynq.DefaultIP
    assert y9.metrics() == cli_json("accel_mon", d, "read", "--format", "json")["metrics"]
    assert y9.metrics()["mac_fires"] == 1023
    y9.run()
    assert d.peek(REGS["accel_mon"]["ACCEL_MON_ACCEL_CONTROL"]) & 1 == 1
    assert "histogram" in dir(y9)


def test_wrong_bitstream_is_an_error(tmp_path, fake_pynq, monkeypatch):
    import jointer.pynq_driver as jp
    jp._registered.clear()
    d = y9_device(tmp_path)
    d.poke(0x8, 0xDEAD)
    monkeypatch.setenv("FAKE_PYNQ_MEM", d.path)
    jp.register(desc_path("accel_mon"))
    with pytest.raises(jointer.JointerError) as e:
        fake_pynq.Overlay({"m": {"type": "jointer:jointer:accel_mon:1.0", "phys_addr": 0, "addr_range": 0x4000}})
    assert e.value.errno == errno.ESTALE and "config hash mismatch" in str(e.value)


def test_without_pynq():
    import jointer.pynq_driver as jp
    sys.modules.pop("pynq", None)
    assert not jp.available()
    with pytest.raises(jointer.JointerError) as e:
        jp.register(desc_path("accel_mon"))
    assert "pynq is not importable" in str(e.value)
