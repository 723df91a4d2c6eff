# SPDX-License-Identifier: MIT
"""The fixed register offsets have one source: layout.py. The two places that
still write them by hand are checked against it here:

- drivers/include/jointer_desc.h: every JOINTER_REG_*, JOINTER_LMIC_*,
  JOINTER_TRACE_*, CONTROL/STATUS/INFO #define, the PROG enum, ID and VERSION;
- hdl/collect/jointer_collect_global.vhd and jointer_collect_lmic.vhd: the word
  indices where the RTL uses them (`hit(k)`, `shows(show_r, k)`, `word_at(rd_addr, k)`,
  the `have_c` word list, `4 + i` for INIT[i]) and jointer_pkg's id_c/version_c.

The files are parsed, not imported: a changed offset in any of them fails
here with the name, the file's value and layout.py's.
"""
import re

import pytest

from gentest_util import REPO
from jointer_gen.model import layout

HEADER = (REPO / "drivers" / "include" / "jointer_desc.h").read_text()
GLOBAL_VHD = (REPO / "hdl" / "collect" / "jointer_collect_global.vhd").read_text()
LMIC_VHD = (REPO / "hdl" / "collect" / "jointer_collect_lmic.vhd").read_text()
WSEL_VHD = (REPO / "hdl" / "collect" / "jointer_collect_lmic_wsel.vhd").read_text()
PKG_VHD = (REPO / "hdl" / "pkg" / "jointer_pkg.vhd").read_text()


def c_defines() -> dict[str, str]:
    """{macro: replacement text} of every object-like and function-like #define."""
    out = {}
    for m in re.finditer(r"^#define\s+(\w+(?:\([^)]*\))?)\s+(.*?)\s*(?:/\*.*)?$", HEADER, re.M):
        out[m.group(1)] = m.group(2)
    return out


def c_int(text: str) -> int:
    m = re.fullmatch(r"\(?\s*(0x[0-9A-Fa-f]+|\d+)u?\s*\)?", text.strip())
    assert m, f"not a constant: {text!r}"
    return int(m.group(1), 0)


DEFINES = c_defines()


def vhdl_code(text: str) -> str:
    """The VHDL without comments."""
    return re.sub(r"--.*", "", text)


# ---------------------------------------------------------------------------
# C header
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(layout.GLOBAL_REGS))
def test_c_global_offsets(name):
    assert c_int(DEFINES[f"JOINTER_REG_{name}"]) == 4 * layout.GLOBAL_REGS[name]


def test_c_has_no_other_global_offset():
    regs = {k[len("JOINTER_REG_"):] for k in DEFINES if k.startswith("JOINTER_REG_")}
    assert regs == set(layout.GLOBAL_REGS)


@pytest.mark.parametrize("name", list(layout.LMIC_REGS))
def test_c_lmic_offsets(name):
    assert c_int(DEFINES[f"JOINTER_LMIC_{name}"]) == 4 * layout.LMIC_REGS[name]


def test_c_lmic_init():
    m = re.fullmatch(r"\((0x[0-9A-F]+)u \+ 4u \* \(uint32_t\)\(s\)\)", DEFINES["JOINTER_LMIC_INIT(s)"])
    assert m and int(m.group(1), 16) == 4 * layout.LMIC_INIT


@pytest.mark.parametrize("name,value", list(layout.TRACE_REGS.items()) + list(layout.RELAY_REGS.items()))
def test_c_trace_offsets(name, value):
    assert c_int(DEFINES[f"JOINTER_TRACE_{name}"]) == 4 * value


def test_c_control_status_prog():
    assert c_int(DEFINES["JOINTER_CONTROL_RUN"]) == layout.CONTROL_RUN
    assert c_int(DEFINES["JOINTER_CONTROL_SOFT_RESET"]) == layout.CONTROL_SOFT_RESET
    assert DEFINES["JOINTER_PROG_SHIFT(s)"] == f"({layout.prog_shift(0)}u + 2u * (uint32_t)(s))"
    assert layout.prog_shift(1) - layout.prog_shift(0) == 2
    assert DEFINES["JOINTER_STATUS_OVERFLOW(s)"] == \
        f"(1u << ({layout.STATUS_OVERFLOW_SHIFT}u + (uint32_t)(s)))"
    enum = dict(re.findall(r"JOINTER_(IDLE|INIT|FILTERING|NO_FILTERING)\s*=\s*(\d+)", HEADER))
    assert {k: int(v) for k, v in enum.items()} == layout.PROG


def test_c_id_version_info():
    assert c_int(DEFINES["JOINTER_ID_VALUE"]) == layout.ID_VALUE
    assert c_int(DEFINES["JOINTER_VERSION_VALUE"]) == layout.VERSION_VALUE
    assert c_int(DEFINES["JOINTER_INFO_STRICT"]) == layout.INFO_STRICT
    assert c_int(DEFINES["JOINTER_INFO_TIMESTAMP"]) == layout.INFO_TIMESTAMP
    assert c_int(DEFINES["JOINTER_INFO_MARK"]) == layout.INFO_MARK
    assert c_int(DEFINES["JOINTER_INFO_SCRATCH"]) == layout.INFO_SCRATCH
    assert c_int(DEFINES["JOINTER_INFO_DESC_ROM"]) == layout.INFO_DESC_ROM


# ---------------------------------------------------------------------------
# VHDL: jointer_collect_global (word indices are literals where they are used)
# ---------------------------------------------------------------------------

G = layout.GLOBAL_REGS
GLOBAL = vhdl_code(GLOBAL_VHD)


def test_vhdl_global_word_count():
    assert re.search(r"constant words_c : positive := (\d+);", GLOBAL).group(1) == str(len(G))
    assert max(G.values()) == len(G) - 1 and len(G) <= layout.GLOBAL_WORDS


def test_vhdl_global_read_words():
    """rp_rdata: `shows(show_r, k) and <value>`: the word each value answers at."""
    value_of = {"id_c": "ID", "version_c": "VERSION", "config_hash_g": "CONFIG_HASH", "info_g": "INFO",
                "sts": "IRQ_STATUS", "ena": "IRQ_ENABLE", "ts_lo_r": "TIMESTAMP_LO",
                "ts_hi_r": "TIMESTAMP_HI", "scratch_r": "SCRATCH", "desc_idx": "DESC_INDEX",
                "desc_q": "DESC_DATA"}
    found = {v: int(k) for k, v in re.findall(r"shows\(show_r, (\d+)\) and (\w+)\)", GLOBAL)}
    assert found == {v: G[name] for v, name in value_of.items()}


def test_vhdl_global_written_and_special_words():
    assert re.search(r"wr = '1' and hit\((\d+)\) = '1' then\s+enable_r", GLOBAL).group(1) == str(G["IRQ_ENABLE"])
    assert re.search(r"wr = '1' and hit\((\d+)\) = '1' then\s+scratch_r", GLOBAL).group(1) == str(G["SCRATCH"])
    assert re.search(r"wr = '1' and hit\((\d+)\) = '1' then\s+desc_idx_r", GLOBAL).group(1) \
        == str(G["DESC_INDEX"])
    # the ROM reads with the request of a DESC_DATA read
    assert re.search(r"desc_en <= rp_req and hit\((\d+)\) and not rp_we", GLOBAL).group(1) == str(G["DESC_DATA"])
    assert re.search(r"mark_valid <= wr and hit\((\d+)\)", GLOBAL).group(1) == str(G["MARK"])
    assert re.search(r"k /= (\d+) then", GLOBAL).group(1) == str(G["MARK"])    # write-only
    # reading TIMESTAMP_LO snapshots the 64 bits
    assert re.search(r"if hit\((\d+)\) = '1' and rp_we = '0' then\s+ts_lo_r", GLOBAL).group(1) \
        == str(G["TIMESTAMP_LO"])


def test_vhdl_global_present_words():
    """have_c: six words always, then TIMESTAMP_LO/HI, MARK, SCRATCH, DESC_INDEX/DATA when present."""
    m = re.search(r'have_c : std_logic_vector\(0 to words_c - 1\) :=\s*"(1+)"((?:\s*&\s*to_sl\(\w+\))+);',
                  GLOBAL)
    always = len(m.group(1))
    optional = re.findall(r"to_sl\((\w+)\)", m.group(2))
    order = sorted(G, key=G.get)
    assert order[:always] == ["ID", "VERSION", "CONFIG_HASH", "INFO", "IRQ_STATUS", "IRQ_ENABLE"]
    assert list(zip(order[always:], optional)) == [
        ("TIMESTAMP_LO", "has_timestamp_g"), ("TIMESTAMP_HI", "has_timestamp_g"),
        ("MARK", "has_mark_g"), ("SCRATCH", "has_scratch_g"), ("DESC_INDEX", "has_desc_c"),
        ("DESC_DATA", "has_desc_c")]


def test_vhdl_id_version():
    pkg = vhdl_code(PKG_VHD)
    assert int(re.search(r'id_c\s*: std_logic_vector\(31 downto 0\) := x"([0-9A-F]+)"', pkg).group(1), 16) \
        == layout.ID_VALUE
    assert int(re.search(r'version_c : std_logic_vector\(31 downto 0\) := x"([0-9A-F]+)"', pkg).group(1), 16) \
        == layout.VERSION_VALUE


# ---------------------------------------------------------------------------
# VHDL: jointer_collect_lmic
# ---------------------------------------------------------------------------

L = layout.LMIC_REGS
LMIC = vhdl_code(LMIC_VHD)
WSEL = vhdl_code(WSEL_VHD)


def test_vhdl_lmic_read_words():
    found = {v: int(k) for k, v in re.findall(r"\(31 downto 0 => word_at\(rd_addr, (\d+)\)\) and (\w+)\)", LMIC)}
    assert found == {"control": L["CONTROL"], "status": L["STATUS"], "irq_status_word": L["IRQ_STATUS"],
                     "irq_enable_word": L["IRQ_ENABLE"]}


def test_vhdl_lmic_written_words():
    # the write decode (jointer_collect_lmic_wsel from word 0, registered a cycle
    # ahead in a large window): wsel(k) = (wr_addr = k)
    assert re.search(r"wsel_r\(k\) <= word_at\(wr_addr, first_g \+ k\);", WSEL)
    assert re.search(r"wsel\(k\) <= wsel_r\(k\) when pipelined_g else word_at\(wr_addr, first_g \+ k\);",
                     WSEL)
    assert re.search(r"u_wsel : entity work\.jointer_collect_lmic_wsel\s+generic map \(addr_w_g => addr_w_g, "
                     r"first_g => 0, words_g => wsel'length, pipelined_g => pipelined_c\)\s+"
                     r"port map \(clk => clk, wr_addr => wr_addr, wsel => wsel\);", LMIC)
    writes = dict((sig, int(k)) for sig, k in re.findall(r"(\S+)\s+<?:?= wr and wsel\((\d+)\)", LMIC))
    assert writes == {"irq_status_we": L["IRQ_STATUS"], "v.ctrl_we": L["CONTROL"], "v.soft_reset": L["CONTROL"]}
    assert re.search(r"wr = '1' and wsel\((\d+)\) = '1' then\s+v\.run", LMIC).group(1) \
        == str(L["CONTROL"])
    assert re.search(r"wr = '1' and wsel\((\d+)\) = '1' then\s+v\.irq_en", LMIC).group(1) \
        == str(L["IRQ_ENABLE"])
    assert re.search(r"v\.init_we\(i\) := wr and wsel\((\d+) \+ i\)", LMIC).group(1) \
        == str(layout.LMIC_INIT)
    assert re.search(r"wsel : std_logic_vector\(0 to (\d+) \+ sniffers_c\)", LMIC).group(1) \
        == str(layout.LMIC_INIT - 1)


def test_vhdl_lmic_fixed_block_size():
    """The fixed block ends after INIT[sniffers_c - 1]: every `4 + sniffers_c` is
    LMIC_INIT + sniffers."""
    uses = re.findall(r"[<>]=? (\d+) \+ sniffers_c\b", LMIC)   # rd_addr < 4 + s, word >= 4 + s
    assert uses and set(uses) == {str(layout.LMIC_INIT)}


def test_vhdl_lmic_control_and_status_bits():
    assert re.search(r"v\.run\s+:= wr_data\((\d+)\)", LMIC).group(1) == str(layout.CONTROL_RUN.bit_length() - 1)
    assert re.search(r"v\.soft_reset := wr and wsel\(\d+\) and wr_data\((\d+)\)", LMIC).group(1) \
        == str(layout.CONTROL_SOFT_RESET.bit_length() - 1)
    assert re.search(r"v\.prog := wr_data\(2 \* sniffers_c \+ 1 downto (\d+)\)", LMIC).group(1) \
        == str(layout.prog_shift(0))
    assert re.search(r"control\(2 \* sniffers_c \+ 1 downto (\d+)\) := r\.prog", LMIC).group(1) \
        == str(layout.prog_shift(0))
    assert re.search(r"status\((\d+) \+ owner\)\s+:= status\(\d+ \+ owner\) or dc_overflow", LMIC).group(1) \
        == str(layout.STATUS_OVERFLOW_SHIFT)


def test_vhdl_lmic_ports_min_one():
    """elaborate's fact about the LMIC's DCAPF/trace ports (one dummy item when
    the count is 0) matches the entity (it used to be read with a regex)."""
    from jointer_gen.netlist.lmic import LMIC_PORTS_MIN_ONE
    port = lambda name: re.search(rf"\b{name}\s*:\s*in\s+std_logic_vector\(([^;]*)\)", LMIC).group(1)  # noqa: E731
    assert LMIC_PORTS_MIN_ONE == ("maximum" in port("dc_result"), "maximum" in port("tr_wptr"))
