# SPDX-License-Identifier: MIT
"""Bus utilization interfacers in the generator (interfacers/axi_util.py, interfacers/contention.py): lane names
and counts against the entities' lane layout (doc/internals/eig.md, written out
here), lanes by name = lanes by number (same DCAPF lane, same config hash),
channels kept in bus order, the generated port map (bit i = i-th channel)."""
from __future__ import annotations

import sys

from gentest_util import REPO

sys.path.insert(0, str(REPO / "sim"))

BASE = """
jointer: 1
monitor: {{name: mon, clocks: [axi]}}
lmics:
  - name: lm
    sniffers:
      - name: hp
        interfacer: {{type: axi_util, channels: {channels}}}
        dcapfs:
          - {{name: a, extractor: event, event: {a}}}
      - name: arb
        interfacer: {{type: contention, masters: 4}}
        dcapfs:
          - {{name: b, extractor: event, event: {b}}}
"""


def design(channels="[r, aw]", a="r_stall", b="wait_3"):
    from jointer_gen.netlist.elaborate import elaborate
    from jointer_gen.load.loader import loads
    from jointer_gen.load.validate import validate
    src = loads(BASE.format(channels=channels, a=a, b=b), "t.yaml")
    return elaborate(validate(src), src, "t.yaml")


def test_lane_names_follow_the_entities():
    from jointer_gen.interfacers import KINDS
    from jointer_sim.activity_model import activity_lanes, contention_lanes
    names = KINDS["axi_util"].lane_names({"channels": ["aw", "w", "b", "ar", "r"]})
    assert names[0] == "cycles" and len(names) == activity_lanes(5) == 16
    for c, ch in enumerate(["aw", "w", "b", "ar", "r"]):          # lane 1 + 3c + class
        assert names[1 + 3 * c:4 + 3 * c] == [f"{ch}_transfer", f"{ch}_stall", f"{ch}_idle"]
    names = KINDS["contention"].lane_names({"masters": 13})
    assert len(names) == contention_lanes(13) == 32
    assert names[:6] == ["cycles", "contention", "single_wait", "no_wait", "busy", "idle"]
    assert [names[6 + 2 * i] for i in range(13)] == [f"grant_{i}" for i in range(13)]
    assert [names[7 + 2 * i] for i in range(13)] == [f"wait_{i}" for i in range(13)]


def test_channels_in_bus_order_and_lanes_by_name():
    d = design()
    hp, arb = d.sniffers
    assert hp.model.interfacer.params["channels"] == ["aw", "r"]
    assert hp.model.interfacer.lanes == 7 and arb.model.interfacer.lanes == 14
    assert hp.model.dcapfs[0].event == 5          # cycles, aw x3, r_transfer, r_stall
    assert arb.model.dcapfs[0].event == 13        # 7 + 2 x 3
    same = design(channels="[aw, r]", a="5", b="13")
    assert same.config_hash == d.config_hash
    assert design(a="r_idle").config_hash != d.config_hash


def test_port_map_bit_i_is_channel_i():
    from jointer_gen.cli import generate
    _, files = generate(str(REPO / "configs" / "bus_utilization.yaml"))
    vhd = files["hdl/bus_utilization_dma_sniffer.vhd"]
    assert "mon_valid  => mon_rvalid & mon_arvalid & mon_wvalid & mon_awvalid," in vhd
    assert "mon_ready  => mon_rready & mon_arready & mon_wready & mon_awready," in vhd
    assert "channels_g => sn_dma_channels_c" in vhd
    arb = files["hdl/bus_utilization_arbiter_sniffer.vhd"]
    assert "entity work.jointer_eig_contention" in arb and "mon_valid  => mon_valid," in arb
