# SPDX-License-Identifier: MIT
"""scripts/logic_depth.py on a hand-made netlist: the LUT levels of the
longest register-to-register path per clock domain (CARRY4 adds no level, a
path into an output port does not count), and --path names each cell by the
signal it drives."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import logic_depth  # noqa: E402


def cell(kind, ins, outs):
    conns = {**ins, **outs}
    dirs = {**{p: "input" for p in ins}, **{p: "output" for p in outs}}
    return {"type": kind, "connections": conns, "port_directions": dirs}


def netlist():
    # clk 2; a: FF q=10 -> LUT3 11 -> CARRY4 12 -> LUT2 13 -> FF d; FF q=10 -> LUT1 20 -> out port
    # clk 3: FF q=30 -> LUT1 31 -> FF d
    cells = {
        "ff_a": cell("FDRE", {"C": [2], "D": [13], "CE": ["1"], "R": ["0"]}, {"Q": [10]}),
        "lut_x": cell("LUT3", {"I0": [10], "I1": [10], "I2": [5]}, {"O": [11]}),
        "carry": cell("CARRY4", {"CI": [11], "S": [11, 11, 11, 11]}, {"CO": [12, 40, 41, 42]}),
        "lut_y": cell("LUT2", {"I0": [12], "I1": [10]}, {"O": [13]}),
        "lut_o": cell("LUT1", {"I0": [10]}, {"O": [20]}),
        "ff_b": cell("FDRE", {"C": [3], "D": [31], "CE": ["1"], "R": ["0"]}, {"Q": [30]}),
        "lut_b": cell("LUT1", {"I0": [30]}, {"O": [31]}),
    }
    return {"modules": {"top": {
        "attributes": {"top": "00000000000000000000000000000001"},
        "ports": {"clk_a": {"direction": "input", "bits": [2]},
                  "clk_b": {"direction": "input", "bits": [3]},
                  "en": {"direction": "input", "bits": [5]},
                  "o": {"direction": "output", "bits": [20]}},
        "cells": cells,
        "netnames": {"u_x.count_r": {"bits": [10], "hide_name": 0},
                     "$abc$1": {"bits": [11], "hide_name": 1},
                     "u_x.sum": {"bits": [12], "hide_name": 0},
                     "u_x.next": {"bits": [13], "hide_name": 0}}}}}


def test_levels_per_domain():
    d = logic_depth.depth(netlist())
    assert d["clk_a"]["levels"] == 2
    assert d["clk_b"]["levels"] == 1
    assert d["clk_a"]["path"] == ["ff_a", "lut_x", "carry", "lut_y", "ff_a.D"]


def test_path_labels_name_the_driven_signals():
    label = logic_depth.cell_labels(netlist(), None)
    assert label("ff_a").split() == ["FDRE", "u_x.count_r"]
    assert label("lut_x").split() == ["LUT3", "$abc$1"]       # only a hidden name: kept
    assert label("carry").split() == ["CARRY4", "u_x.sum"]
    assert label("ff_a.D").split() == ["FDRE", "u_x.count_r", "(into", ".D)"]
