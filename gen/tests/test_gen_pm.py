# SPDX-License-Identifier: MIT
"""The program monitor in the generator (`interfacer: {type: pc}`):
schema and semantic errors with their exact messages, the model,
the sniffer composition (dispenser slots, jointer_eig_pc generics and ports,
flavours) and the C descriptor fields the driver relies on."""
import os

import pytest

from gentest_util import run_cli
from jointer_gen.netlist.elaborate import elaborate
from jointer_gen.load.loader import loads
from jointer_gen.load.validate import validate

SUMMARY = "jointer-gen: {n} error{s}; nothing written"


def _pm(itf: str, dcapfs: str = "[{name: t, extractor: trace, filter: none}]") -> str:
    return f"""jointer: 1
monitor: {{name: mon, clocks: [axi]}}
lmics:
  - name: lm
    sniffers:
      - name: cpu
        interfacer: {itf}
        dcapfs: {dcapfs}
"""


MANY = "[" + ", ".join(f"{{name: e{i}, extractor: event}}" for i in range(112)) + "]"

CASES = [
    ("pc_unknown_flavour", _pm("{type: pc, flavour: microblase}"),
     ["bad.yaml:7:41: error: invalid value 'microblase' for lmics[lm].sniffers[cpu].interfacer.flavour "
      "(did you mean 'microblaze'? expected one of: generic, microblaze)"]),
    ("pc_width_zero", _pm("{type: pc, pc_width: 0}"),
     ["bad.yaml:7:42: error: pc_width 0 out of range in lmics[lm].sniffers[cpu].interfacer.pc_width "
      "(expected 1..32)"]),
    ("pc_width_64", _pm("{type: pc, pc_width: 64}"),
     ["bad.yaml:7:42: error: pc_width 64 out of range in lmics[lm].sniffers[cpu].interfacer.pc_width "
      "(expected 1..32)"]),
    ("pc_addresses_33", _pm("{type: pc, addresses: 33}"),
     ["bad.yaml:7:43: error: addresses 33 out of range in lmics[lm].sniffers[cpu].interfacer.addresses "
      "(expected 1..32)"]),
    ("pc_key_of_other_type", _pm("{type: pc, width: 2}"),
     ["bad.yaml:7:32: error: unknown key 'width' in lmics[lm].sniffers[cpu].interfacer "
      "('width' is for type events; did you mean 'pc_width'? expected one of: type, flavour, pc_width, addresses)"]),
    ("pc_microblaze_width", _pm("{type: pc, flavour: microblaze, pc_width: 24}"),
     ["bad.yaml:7:63: error: pc_width 24 with flavour microblaze in lmics[lm].sniffers[cpu].interfacer "
      "(expected 32: Trace_PC is 32 bits)"]),
    ("pc_emit_data", _pm("{type: pc}").replace("        dcapfs:", "        emit: {data: address}\n        dcapfs:"),
     ["bad.yaml:8:22: error: emit data 'address' is not available from a pc interfacer in "
      "lmics[lm].sniffers[cpu] (expected index)"]),
    ("pc_too_many_slots", _pm("{type: pc}", MANY),
     ["bad.yaml:8:17: error: pc sniffer 'cpu' has 112 DCAPFs and 32 addresses: 129 INIT slots "
      "(expected at most 128: the DCAPFs, then (addresses + 2) / 2 for the table)"]),
]


@pytest.mark.parametrize("text,expected", [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_bad_pc_input(tmp_path, monkeypatch, text, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text(text)
    rc, out, err = run_cli(["bad.yaml", "-o", "out"])
    assert rc == 1 and out == ""
    n = len(expected)
    assert err.splitlines() == expected + [SUMMARY.format(n=n, s="" if n == 1 else "s")]
    assert os.listdir(tmp_path) == ["bad.yaml"]


def _design(itf: str, dcapfs: str = "[{name: t, extractor: trace, filter: none}, "
                                    "{name: n, extractor: event}]"):
    return elaborate(validate(loads(_pm(itf, dcapfs), "m.yaml")))


def test_defaults_in_the_model():
    m = validate(loads(_pm("{type: pc}"), "m.yaml"))
    sn = m.lmics[0].sniffers[0]
    assert sn.interfacer.params == {"flavour": "generic", "pc_width": 32, "addresses": 32}
    assert sn.data == "index" and sn.increment == "one"


@pytest.mark.parametrize("itf,ports,slots", [
    ("{type: pc}", [("cpu_pc", 32), ("cpu_valid", None)], 2 + 17),
    ("{type: pc, pc_width: 12, addresses: 5}", [("cpu_pc", 12), ("cpu_valid", None)], 2 + 3),
    ("{type: pc, addresses: 1}", [("cpu_pc", 32), ("cpu_valid", None)], 2 + 1),
    ("{type: pc, flavour: microblaze, addresses: 4}",
     [("cpu_trace_pc", 32), ("cpu_trace_valid_instr", None)], 2 + 3),
])
def test_sniffer_composition(itf, ports, slots):
    from jointer_gen.cli import generate
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.yaml")
        with open(path, "w") as f:
            f.write(_pm(itf, "[{name: t, extractor: trace, filter: none}, {name: n, extractor: event}]"))
        _, files = generate(path)
    sniffer = files["hdl/mon_cpu_sniffer.vhd"]
    config = files["hdl/mon_config.vhd"]
    top = files["hdl/mon_monitor.vhd"]
    assert "u_interfacer : entity work.jointer_eig_pc" in sniffer
    assert f"constant sn_cpu_num_dcapfs_c" in config
    line = next(ln for ln in config.splitlines() if "sn_cpu_num_dcapfs_c" in ln)
    assert f":= {slots};" in line
    base = next(ln for ln in config.splitlines() if "sn_cpu_init_base_c" in ln)
    assert ":= 2;" in base
    for name, width in ports:
        decl = next(ln for ln in top.splitlines() if ln.strip().startswith(name + " "))
        want = "std_logic;" if width is None else f"std_logic_vector({width - 1} downto 0);"
        assert decl.split(":")[1].strip().startswith("in "), decl
        assert want.rstrip(";") in decl, decl
    cdesc = files["c/mon.c"]
    p = validate(loads(_pm(itf), "m.yaml")).lmics[0].sniffers[0].interfacer.params
    assert (f'{{.name = "cpu", .lmic = 0, .index = 0, .num_dcapfs = 2, '
            f'.pm_addresses = {p["addresses"]}, .pm_pc_width = {p["pc_width"]}}},') in cdesc


def test_other_sniffers_keep_their_descriptor():
    from jointer_gen.cli import generate
    from gentest_util import CONFIGS
    _, files = generate(str(CONFIGS / "selective_accumulations.yaml"))
    assert "pm_addresses" not in files["c/selective_accumulations.c"]
