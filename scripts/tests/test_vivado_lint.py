# SPDX-License-Identifier: MIT
"""scripts/vivado_lint.py (make lint): the library and a generated monitor pass;
each rule of the deny-list fires on a planted construct (a record port with an
unconstrained element and its field-by-field association, `**` with a left
operand other than 2, force/release, PSL, an entity statement part, a deferred
constant, a linkage port) and stays quiet on the allowed forms; the IP's top
must be the plain VHDL-93 wrapper: a VHDL-2008 top, generics, a record port
or VHDL-2008 syntax in the wrapper are each reported."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import vivado_lint as lint  # noqa: E402

PKG = """
library ieee;
use ieee.std_logic_1164.all;
package planted_pkg is
  type mon_t is record
    addr  : std_logic_vector;          -- unconstrained element
    valid : std_logic;
  end record;
  type ok_t is record
    addr  : std_logic_vector(31 downto 0);
  end record;
  type arr_t is array (natural range <>) of std_logic_vector;   -- fine: arrays (UG901)
end package;
"""

USER = """
library ieee;
use ieee.std_logic_1164.all;
use work.planted_pkg.all;
entity planted is
  port (m : in mon_t; k : in ok_t; y : out std_logic);
end entity;
architecture rtl of planted is
  signal s : mon_t;
  signal t : ok_t;
  signal a : arr_t(1 downto 0)(7 downto 0);
begin
  u : entity work.leaf port map (m.addr => x, m.valid => y, k => k);
end architecture;
"""


def findings(tmp_path, **files) -> list[str]:
    paths = []
    for name, text in files.items():
        (tmp_path / f"{name}.vhd").write_text(text)
        paths.append(tmp_path / f"{name}.vhd")
    return lint.lint_vhdl(paths)


def rules(found) -> list[tuple[str, int]]:
    return sorted((re.search(r":(\d+): ([\w-]+):", f).group(2), int(re.search(r":(\d+): ", f).group(1)))
                  for f in found)


def test_record_port_and_field_association(tmp_path):
    found = findings(tmp_path, pkg=PKG, user=USER)
    assert rules(found) == [("record-field", 13), ("record-field", 13), ("record-port", 6), ("record-port", 9)]
    assert all("UG901" in f for f in found)


@pytest.mark.parametrize("expr,bad", [("2 ** n", False), ("2**(n+1)", False), ("3 ** n", True),
                                      ("x ** 2", True), ("(n) ** 2", True), ("16#2# ** n", True)])
def test_exponent(tmp_path, expr, bad):
    text = f"package p is\n  constant c : integer := {expr};\nend package;\n"
    assert [r for r, _ in rules(findings(tmp_path, p=text))] == (["exponent"] if bad else [])


@pytest.mark.parametrize("body,rule", [
    ("architecture a of e is\n  signal s : bit;\nbegin\n  s <= force '1';\nend architecture;", "force-release"),
    ("architecture a of e is\nbegin\n  -- psl default clock is rising_edge(clk);\n"
     "  default clock is rising_edge(clk);\nend architecture;", "psl"),
    ("package q is\n  constant later : integer;\nend package;", "deferred-constant"),
    ("entity f is\n  port (p : linkage bit);\nend entity;", "linkage-guarded"),
])
def test_denied_constructs(tmp_path, body, rule):
    ent = "entity e is\n  port (clk : in bit);\nend entity;\n"
    assert [r for r, _ in rules(findings(tmp_path, v=ent + body))] == [rule]


def test_entity_statement_part(tmp_path):
    text = "entity e is\n  port (a : in bit);\nbegin\n  assert true;\nend entity;\n"
    assert rules(findings(tmp_path, v=text)) == [("entity-statement", 3)]


def test_parameters_are_not_deferred_constants(tmp_path):
    text = ("package p is\n  function f(constant a : integer; constant b : integer) return integer;\n"
            "  constant later : integer;\nend package;\n")
    assert rules(findings(tmp_path, p=text)) == [("deferred-constant", 3)]


def test_comments_and_strings_do_not_count(tmp_path):
    text = ('package p is\n  -- constant later : integer; 3 ** 4\n  constant s : string := "a ** b";\n'
            '  /* s <= force x; */\nend package;\n')
    assert findings(tmp_path, p=text) == []


def test_library_is_clean():
    assert lint.lint_vhdl(lint.vhdl_files([REPO / "hdl"])) == []


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    work = tmp_path_factory.mktemp("vivado_lint")
    return lint.generate(REPO / "configs" / "two_clock_bus.yaml", work), work


def test_generated_top_and_wrapper_are_clean(generated):
    out, work = generated
    files = sorted((out / "hdl").glob("*.vhd")) + [out / "ip" / "hdl" / "two_clock_bus_wrapper.vhd"]
    assert lint.lint_vhdl(files) == []
    assert lint.lint_ip(out / "ip" / "component.xml", work / "ghdl93") == []


def _planted_ip(generated, tmp_path, comp_edit=None, wrapper_edit=None):
    out, work = generated
    import shutil
    ip = tmp_path / "ip"
    shutil.copytree(out / "ip", ip)
    comp, wrapper = ip / "component.xml", ip / "hdl" / "two_clock_bus_wrapper.vhd"
    if comp_edit:
        comp.write_text(comp_edit(comp.read_text()))
    if wrapper_edit:
        wrapper.write_text(wrapper_edit(wrapper.read_text()))
    return lint.lint_ip(comp, tmp_path / "ghdl93")


def test_vhdl2008_top_is_reported(generated, tmp_path):
    """component.xml naming the VHDL-2008 top as the model: the lint fails."""
    found = _planted_ip(generated, tmp_path, comp_edit=lambda t: t.replace(
        "<spirit:modelName>two_clock_bus_wrapper</spirit:modelName>",
        "<spirit:modelName>two_clock_bus_monitor</spirit:modelName>"))
    assert len(found) == 1 and "ip-top" in found[0] and "vhdlSource-2008" in found[0] and "UG1118" in found[0]


def test_wrapper_of_the_wrong_kind_is_reported(generated, tmp_path):
    """Generics, a non-plain port and VHDL-2008 syntax in the wrapper: each reported."""
    def edit(t):
        t = t.replace("entity two_clock_bus_wrapper is\n  port (",
                      "entity two_clock_bus_wrapper is\n  generic (w_g : natural := 1);\n  port (")
        t = t.replace("irq                 : out std_logic;", "irq                 : out std_ulogic_vector;")
        return t.replace("end architecture wrapper;", "  g : if true generate\n  else generate\n  end generate;\n"
                         "end architecture wrapper;")
    found = _planted_ip(generated, tmp_path, wrapper_edit=edit)
    assert len(found) == 3, found
    assert "has generics" in found[0] and "port irq" in found[1] and "ghdl -a --std=93c" in found[2]
