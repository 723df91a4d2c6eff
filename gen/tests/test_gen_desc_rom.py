# SPDX-License-Identifier: MIT
"""The descriptor ROM (monitor.global.descriptor: rom).

Generator side: the key reaches INFO[20] (VHDL info_c, C INFO, the .jdesc's
info), the config hash, the config package's desc_words_c/desc_rom_c (the
.jdesc bytes, little-endian words, compared byte for byte with the encoder's
output and with the file written) and the top's generic map; `none` (or no
key) generates exactly what a description without it generates.

Hardware side (GHDL, cocotb): the generated top of gen/tests/configs/
desc_rom.yaml (design Y9 with its ROM) through s_axi (cocotbext-axi
AxiLiteMaster): INFO has bit 20, DESC_INDEX = 0, 1, ... and DESC_DATA read
the whole ROM, which must equal the .jdesc bytes exactly; the words beyond
read 0; DESC_INDEX reads back min(value, words). End to end: the bytes read
over s_axi, cut to the length their header states (as jointer_descrom_read
does), are parsed by libjointer's jointer_descfile_parse
(drivers/tests/test_descfile.c built with -DGEN_CFG=desc_rom_cfg and the
generated desc_rom.c) and compared field by field with the compiled-in
descriptor.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
for _p in (REPO / "gen", REPO / "sim"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

CONFIG = HERE / "configs" / "desc_rom.yaml"
Y9 = REPO / "configs" / "selective_accumulations.yaml"
INFO_DESC_ROM = 1 << 20


def generate_text(text: str, tmp_path: Path, folder: str = "a"):
    """generate() of a description written to <tmp_path>/<folder>/m.yaml (the
    file name is in every header: the same for all)."""
    from jointer_gen.cli import generate
    p = tmp_path / folder / "m.yaml"
    p.parent.mkdir()
    p.write_text(text)
    return generate(str(p))


def rom_words_of_vhdl(config_vhd: str) -> list[int]:
    m = re.search(r"constant desc_rom_c\s*: word_array_t\(0 to (\d+)\) := \((.*?)\);", config_vhd, re.S)
    assert m, "no desc_rom_c in the config package"
    words = [int(w, 16) for w in re.findall(r'x"([0-9A-F]{8})"', m.group(2))]
    assert len(words) == int(m.group(1)) + 1
    return words


def test_rom_reaches_vhdl_c_and_jdesc():
    from jointer_gen.backends.descfile import encode
    from jointer_gen.cli import generate
    d, files = generate(str(CONFIG))
    assert d.info & INFO_DESC_ROM
    data = encode(d)
    assert files["desc_rom.jdesc"] == data
    assert int.from_bytes(data[24:28], "little") == d.info     # the file states INFO with bit 20
    cfg = files["hdl/desc_rom_config.vhd"]
    assert f'constant info_c              : std_logic_vector(31 downto 0) := x"{d.info:08X}"' in cfg
    words = rom_words_of_vhdl(cfg)
    assert len(words) == (len(data) + 3) // 4
    assert re.search(rf"constant desc_words_c : natural := {len(words)};", cfg)
    rom = b"".join(w.to_bytes(4, "little") for w in words)
    assert rom[:len(data)] == data and rom[len(data):] == bytes(len(rom) - len(data))
    top = files["hdl/desc_rom_monitor.vhd"]
    assert re.search(r"desc_words_g\s+=> desc_words_c,\s+desc_rom_g\s+=> desc_rom_c\)", top)
    regs = files["c/desc_rom_regs.h"]
    assert re.search(r"#define DESC_ROM_HAS_DESC_ROM\s+1u", regs)
    assert re.search(r"#define DESC_ROM_REG_DESC_INDEX\s+0x28u", regs)
    assert re.search(r"#define DESC_ROM_REG_DESC_DATA\s+0x2Cu", regs)


def test_none_is_the_default(tmp_path):
    """`descriptor: none` generates exactly what no key generates (hash
    included); `rom` changes the hash (the hardware differs)."""
    y9 = Y9.read_text()
    assert "global:" not in y9
    head = "  bus: {addr_width: 12, base_address: 0x43C00000}\n"
    assert head in y9
    d0, f0 = generate_text(y9, tmp_path, "a")
    d1, f1 = generate_text(y9.replace(head, head + "  global: {descriptor: none}\n"), tmp_path, "b")
    d2, f2 = generate_text(y9.replace(head, head + "  global: {descriptor: rom}\n"), tmp_path, "c")
    assert f0 == f1 and d0.config_hash == d1.config_hash
    assert not d0.info & INFO_DESC_ROM and d2.info == d0.info | INFO_DESC_ROM
    assert d2.config_hash != d0.config_hash
    assert "desc_rom" not in f0["hdl/selective_accumulations_config.vhd"]
    assert "desc_rom" not in f0["hdl/selective_accumulations_monitor.vhd"]
    assert "desc_rom_c" in f2["hdl/selective_accumulations_config.vhd"]


def test_rom_with_other_global_registers(tmp_path):
    """The ROM next to SCRATCH and TIMESTAMP: INFO states all three."""
    y9 = Y9.read_text()
    head = "  bus: {addr_width: 12, base_address: 0x43C00000}\n"
    d, _ = generate_text(y9.replace(head, head + "  global: {descriptor: rom, scratch: true, timestamp: true}\n"),
                         tmp_path)
    assert d.info >> 17 & 0xF == 0b1101


def test_rom_too_large(monkeypatch, tmp_path):
    """A descriptor beyond the ROM's words is a one-line error at the key
    (the limit lowered: no real description reaches 65535 words)."""
    from jointer_gen.netlist import elaborate
    monkeypatch.setattr(elaborate, "ROM_MAX_WORDS", 80)
    bad = tmp_path / "big.yaml"
    bad.write_text(CONFIG.read_text())
    from gentest_util import run_cli
    rc, _, err = run_cli([bad, "-o", tmp_path / "out"])
    line = next(i + 1 for i, t in enumerate(CONFIG.read_text().splitlines()) if t.strip().startswith("global:"))
    assert rc != 0 and not (tmp_path / "out").exists()
    monkeypatch.undo()
    rc, _, err_ok = run_cli([CONFIG, "-o", tmp_path / "ok"])
    assert rc == 0, err_ok
    words = (len((tmp_path / "ok" / "desc_rom" / "desc_rom.jdesc").read_bytes()) + 3) // 4   # the file, in 32-bit words
    assert words > 80
    assert f"big.yaml:{line}:" in err and f"the descriptor file needs {words} ROM words (expected at most 80" in err, err


def test_generated_top_reads_rom():
    from jointer_gen.cli import generate
    from jointer_gen.output import write_tree
    from jointer_sim.runner import BUILD, run
    _, files = generate(str(CONFIG))
    out = BUILD / "gen" / "desc_rom" / "src"
    write_tree(files, out)
    manifest = json.loads(files["manifest.json"])
    sources = [out / p for p in manifest["compile_order"]]
    env = {"PYTHONPATH": os.pathsep.join([str(REPO / "sim"), str(HERE), str(REPO / "gen"),
                                          os.environ.get("PYTHONPATH", "")])}
    dump = BUILD / "gen_desc_rom" / "rom.jdesc"
    dump.unlink(missing_ok=True)
    run(manifest["top"], __name__, extra_sources=sources, toplevel=manifest["top"],
        name="gen_desc_rom", extra_env=env, testcase="rom_over_axi")
    rom = dump.read_bytes()
    assert rom[:len(files["desc_rom.jdesc"])] == files["desc_rom.jdesc"]
    c_parses_rom(rom, out / "c", dump.parent)


def c_parses_rom(rom: bytes, cdir: Path, work: Path) -> None:
    """libjointer's parser over the ROM's bytes = the compiled-in desc_rom_cfg."""
    sys.path.insert(0, str(REPO / "scripts"))
    from driver_sources import sources
    if shutil.which("gcc") is None:
        pytest.skip("no gcc")
    length = int.from_bytes(rom[8:12], "little")
    jdesc = work / "desc_rom.jdesc"
    jdesc.write_bytes(rom[:length])
    exe = work / "desc_rom_descfile"
    srcs = [str(p) for p in sources("DRV_PORTABLE_SRCS") + sources("DRV_HOSTED_SRCS")]
    cmd = ["gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1",
           f"-I{REPO}/drivers/include", f"-I{REPO}/drivers/src", f"-I{REPO}/drivers/tests", f"-I{cdir}",
           "-DGEN_CFG=desc_rom_cfg", *srcs, str(cdir / "desc_rom.c"), str(REPO / "drivers/tests/test_descfile.c"),
           "-o", str(exe)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(exe), str(jdesc)], capture_output=True, text=True)
    assert r.returncode == 0 and "0 failed" in r.stdout, r.stdout + r.stderr


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles
    from cocotbext.axi import AxiLiteBus, AxiLiteMaster
except ImportError:  # pragma: no cover - cocotb is installed with the project
    cocotb = None

if cocotb is not None:
    @cocotb.test()
    async def rom_over_axi(dut):
        from jointer_gen.model import layout
        from jointer_gen.backends.descfile import encode
        from jointer_gen.cli import generate
        from jointer_sim.runner import BUILD
        d, _ = generate(str(CONFIG))
        want = encode(d)
        words = (len(want) + 3) // 4
        reg = {n: 4 * w for n, w in layout.GLOBAL_REGS.items()}
        base = d.monitor.bus.base_address & ((1 << d.addr_width) - 1)   # the port sees the offset
        dut.s_axi_aresetn.value = 0
        dut.accel_resetn.value = 0
        cocotb.start_soon(Clock(dut.s_axi_aclk, 10, unit="ns").start())
        cocotb.start_soon(Clock(dut.accel_clk, 8, unit="ns").start())
        await ClockCycles(dut.s_axi_aclk, 10)   # the reset bridges settle: the outputs are defined
        axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.s_axi_aclk, dut.s_axi_aresetn,
                            reset_active_level=False)
        await ClockCycles(dut.s_axi_aclk, 2)
        dut.s_axi_aresetn.value = 1
        dut.accel_resetn.value = 1
        await ClockCycles(dut.s_axi_aclk, 10)

        async def read(off):
            r = await axi.read(base + off, 4)
            assert r.resp == 0, f"SLVERR reading 0x{off:X}"
            return int.from_bytes(r.data, "little")

        async def write(off, value):
            r = await axi.write(base + off, value.to_bytes(4, "little"))
            assert r.resp == 0, f"SLVERR writing 0x{off:X}"

        assert await read(reg["INFO"]) == d.info and d.info & INFO_DESC_ROM
        assert await read(reg["CONFIG_HASH"]) == d.config_hash
        got = bytearray()
        for i in range(words + 2):
            await write(reg["DESC_INDEX"], i)
            got += (await read(reg["DESC_DATA"])).to_bytes(4, "little")
        (BUILD / "gen_desc_rom" / "rom.jdesc").write_bytes(bytes(got))
        assert bytes(got[:len(want)]) == want, (got.hex(), want.hex())
        assert bytes(got[len(want):]) == bytes(len(got) - len(want))     # padding and beyond: 0
        assert int.from_bytes(got[8:12], "little") == len(want)            # the header's length
        for value, back in ((0xFFFFFFFF, words), (words - 1, words - 1), (3, 3)):
            await write(reg["DESC_INDEX"], value)
            assert await read(reg["DESC_INDEX"]) == back, hex(value)
        # reading has no side effect: the same word twice
        assert await read(reg["DESC_DATA"]) == await read(reg["DESC_DATA"]) == int.from_bytes(want[12:16], "little")
        dut._log.info("read the %d-byte descriptor (%d words) from the ROM over s_axi", len(want), words)


def test_cosim_scenario_expects_this_file(tmp_path):
    """sim/cosim/scenarios/desc_rom.yaml expects the size of the file the generator writes."""
    import yaml
    from gentest_util import run_cli
    rc, _, err = run_cli([CONFIG, "-o", tmp_path])
    assert rc == 0, err
    scenario = yaml.safe_load((HERE.parents[1] / "sim" / "cosim" / "scenarios" / "desc_rom.yaml").read_text())
    assert scenario["expect"]["rom.bytes"] == len((tmp_path / "desc_rom" / "desc_rom.jdesc").read_bytes())
