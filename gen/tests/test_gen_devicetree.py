# SPDX-License-Identifier: MIT
"""The device tree of a monitor, on both platforms: the fragment
linux/<name>.dtsi, the overlay linux/<name>.dtso and the binding
doc/bindings/perf/ (jointer,monitor.yaml), checked with the tools Linux uses.

- the binding: dt-doc-validate accepts it (no message at all), its example
  compiles and validates;
- the fragment, included in a board tree built here as the kernel's .dtsi and
  Vivado's device-tree generator write it (zynq-7000.dtsi / zynqmp.dtsi: the
  PS bus `amba`, the GIC `intc` / `gic`, the clock provider `clkc` /
  `zynqmp_clk`; DTG's amba_pl with the instance node `<name>_0: <name>@<unit>`,
  its interrupts and clocks): dtc compiles it without a warning, dt-validate
  with the binding reports nothing, and the blob holds the values (compatible,
  reg in 1 or 2 cells, the config hash, the fclk consumers naming the PL clocks,
  the rings' reserved memory);
- the overlay: dtc -@ compiles it without a warning, fdtoverlay applies it to
  the kernel-like base tree (with symbols), dt-validate reports nothing on the
  result, and the node has the PS's first PL interrupt, the PL clocks and the
  fclk consumers (the overlay names the PL clock);
- a base address above 4 GB (zynqmp) gives 2-cell `reg` and the unit address;
- the checks can fail: a wrong family, a config hash of the wrong type and an
  unknown property are reported by dt-validate.

DTG names its PL bus `amba_pl@0` (zynqmp) or `amba_pl`, names dt-schema's
simple-bus rule and dtc's unit_address_vs_reg reject whatever the bus holds;
the board trees here keep DTG's label, cells and ranges (what the fragment
relies on) under the name `bus`.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml

from gentest_util import CONFIGS, REPO
from jointer_gen.cli import generate
from jointer_gen.output import write_tree

BINDINGS = REPO / "doc" / "bindings"
BINDING = BINDINGS / "perf" / "jointer,monitor.yaml"
TOOLS = ("dtc", "fdtget", "fdtoverlay", "dt-validate", "dt-doc-validate", "dt-mk-schema", "dt-extract-example")

# the kernel's names (zynq-7000.dtsi, zynqmp.dtsi) and the PS's first PL interrupt and PL clock,
# written out here from UG585/UG1085 and the kernel, independently of gen/jointer_gen/platforms/
PS = {
    "zynq7000": {"cells": 1, "gic": "intc", "clk": "clkc", "pl_clock": 15, "irq": 29,
                 "board": """
	compatible = "xlnx,zynq-7000";
	model = "jointer test board (Zynq-7000)";
	#address-cells = <1>;
	#size-cells = <1>;

	memory@0 {
		device_type = "memory";
		reg = <0x0 0x40000000>;
	};

	amba: axi {
		compatible = "simple-bus";
		#address-cells = <1>;
		#size-cells = <1>;
		interrupt-parent = <&intc>;
		ranges;

		intc: interrupt-controller@f8f01000 {
			compatible = "arm,cortex-a9-gic";
			#address-cells = <0>;
			#interrupt-cells = <3>;
			interrupt-controller;
			reg = <0xf8f01000 0x1000>, <0xf8f00100 0x100>;
		};

		slcr: slcr@f8000000 {
			compatible = "xlnx,zynq-slcr", "syscon", "simple-mfd";
			#address-cells = <1>;
			#size-cells = <1>;
			reg = <0xf8000000 0x1000>;
			ranges;

			clkc: clkc@100 {
				compatible = "xlnx,ps7-clkc";
				#clock-cells = <1>;
				reg = <0x100 0x100>;
			};
		};
	};
"""},
    "zynqmp": {"cells": 2, "gic": "gic", "clk": "zynqmp_clk", "pl_clock": 71, "irq": 89,
               "board": """
	compatible = "xlnx,zynqmp";
	model = "jointer test board (Zynq UltraScale+)";
	#address-cells = <2>;
	#size-cells = <2>;

	memory@0 {
		device_type = "memory";
		reg = <0x0 0x0 0x0 0x80000000>, <0x8 0x0 0x0 0x80000000>;
	};

	firmware {
		zynqmp_firmware: zynqmp-firmware {
			compatible = "xlnx,zynqmp-firmware";

			zynqmp_clk: clock-controller {
				compatible = "xlnx,zynqmp-clk";
				#clock-cells = <1>;
			};
		};
	};

	amba: axi {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;

		gic: interrupt-controller@f9010000 {
			compatible = "arm,gic-400";
			#address-cells = <0>;
			#interrupt-cells = <3>;
			reg = <0x0 0xf9010000 0x0 0x10000>, <0x0 0xf9020000 0x0 0x20000>,
			      <0x0 0xf9040000 0x0 0x20000>, <0x0 0xf9060000 0x0 0x20000>;
			interrupt-controller;
			interrupt-parent = <&gic>;
			interrupts = <1 9 0xf04>;
		};
	};
"""},
}
APERTURE = {"zynq7000": 0x40000000, "zynqmp": 0xA0000000}   # the first master port's aperture


def _cells(value: int, n: int) -> str:
    return f"0x{value:x}" if n == 1 else f"0x{value >> 32:x} 0x{value & 0xFFFFFFFF:x}"


def _need_tools():
    missing = [t for t in TOOLS if shutil.which(t) is None]
    assert not missing, f"{missing} missing: run scripts/install-deps.sh (device-tree-compiler, dtschema)"


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> str:
    """The binding (with dtschema's core schemas) processed once for dt-validate."""
    _need_tools()
    out = tmp_path_factory.mktemp("dtschema") / "processed.json"
    r = subprocess.run(["dt-mk-schema", "-j", "-o", str(out), str(BINDINGS)], capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    return str(out)


def run(*cmd, ok=True) -> subprocess.CompletedProcess:
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if ok:
        assert r.returncode == 0, f"{cmd}: {r.stdout}{r.stderr}"
    return r


def validate(schema: str, dtb) -> str:
    """dt-validate's messages about a blob (it exits 0 with errors: the output is the verdict)."""
    r = run("dt-validate", "-s", schema, dtb)
    return (r.stdout + r.stderr).strip()


def dtc(src, out, *flags) -> None:
    """dtc compiles src without a single warning."""
    r = run("dtc", *flags, "-I", "dts", "-O", "dtb", "-o", out, src)
    assert not r.stderr.strip(), r.stderr


def get(dtb, path, prop, *opt) -> list[str]:
    return run("fdtget", *opt, dtb, path, prop).stdout.split()


def phandle(dtb, label_path) -> str:
    return get(dtb, label_path, "phandle")[0]


def monitor(tmp_path, name: str, platform: str, base: int | None = None):
    """(design, output folder) of configs/<name>.yaml, gen/tests/configs/<name>.yaml or the
    co-simulation's sim/cosim/scenarios/configs/<name>.yaml, on
    `platform`: moved into its first aperture (or to `base`) when not written for it."""
    src = CONFIGS / f"{name}.yaml"
    for folder in (REPO / "gen" / "tests" / "configs", REPO / "sim" / "cosim" / "scenarios" / "configs"):
        src = src if src.exists() else folder / f"{name}.yaml"
    cfg = yaml.safe_load(src.read_text())
    if cfg["monitor"].get("platform", "zynq7000") != platform or base is not None:
        cfg["monitor"]["platform"] = platform
        old = cfg["monitor"].setdefault("bus", {}).get("base_address", 0x40000000)
        cfg["monitor"]["bus"]["base_address"] = base if base is not None else APERTURE[platform] + (old & 0x0FFFFFFF)
        src = tmp_path / "src" / f"{name}.yaml"
        src.parent.mkdir(exist_ok=True)
        src.write_text(yaml.safe_dump(cfg))
    design, files = generate(str(src))
    write_tree(files, tmp_path / "out" / design.name)
    return design, tmp_path / "out" / design.name


def dtg_node(design, platform: str) -> str:
    """The IP instance's node as Vivado's device-tree generator writes it
    (device-tree-xlnx: label = the cell, name = the IP's name, compatible
    xlnx,<name>-<version>, reg from the Address Editor (64K here: the fragment
    sets its own), the interrupt and clocks of the block design)."""
    ps, base = PS[platform], design.monitor.bus.base_address
    n, clocks = ps["cells"], ["s_axi_aclk"] + [f"{c.name}_clk" for c in design.monitor.clocks[1:4]]
    refs = ", ".join(f"<&{ps['clk']} {ps['pl_clock'] + i}>" for i in range(len(clocks)))
    return f"""
	amba_pl: bus {{
		compatible = "simple-bus";
		#address-cells = <{n}>;
		#size-cells = <{n}>;
		ranges;

		{design.name}_0: {design.name}@{base:x} {{
			clock-names = {", ".join(f'"{c}"' for c in clocks)};
			clocks = {refs};
			compatible = "xlnx,{design.name.replace('_', '-')}-1.0";
			interrupt-names = "irq";
			interrupt-parent = <&{ps['gic']}>;
			interrupts = <0 {ps['irq']} 4>;
			reg = <{_cells(base, n)} {_cells(0x10000, n)}>;
		}};
	}};
"""


def board(tmp_path, platform: str, extra: str = "", include=None) -> str:
    text = f"/dts-v1/;\n\n/ {{{PS[platform]['board']}{extra}}};\n"
    if include:
        text += f'\n/include/ "{include}"\n'
    path = tmp_path / f"board_{platform}.dts"
    path.write_text(text)
    return str(path)


# zu_dma and stream_dma (the co-simulated one-tap-per-bus monitor) are written for zynqmp
CASES = [(n, p) for p in PS for n in ("selective_accumulations", "two_clock_bus", "trace_sink", "zu_dma",
                                      "stream_dma") if not (n in ("zu_dma", "stream_dma") and p == "zynq7000")]


def check_values(dtb, design, platform, node: str) -> None:
    """The monitor's node and the fclk consumers in a blob."""
    ps, n = PS[platform], PS[platform]["cells"]
    base, size = design.monitor.bus.base_address, max(1 << design.addr_width, 4096)
    rings = [(t["name"], next(x for x in design.monitor.dcapfs() if x.name == t["name"]).sink.ring_bytes)
             for t in design.traces if t["sink_bytes"]]
    assert get(dtb, node, "compatible") == [f"xlnx,{design.name.replace('_', '-')}-1.0", "jointer,monitor-1.0"]
    reg, top = [base, size], 0x40000000
    for _, sz in rings:
        top -= sz
        reg += [top, sz]
    words = [int(w, 16) for w in get(dtb, node, "reg", "-t", "x")]
    joined = [(words[i] << 32 | words[i + 1]) if n == 2 else words[i] for i in range(0, len(words), n)]
    assert joined == reg
    assert int(get(dtb, node, "jointer,config-hash", "-t", "x")[0], 16) == design.config_hash
    if rings:
        assert get(dtb, node, "reg-names") == ["registers"] + [r for r, _ in rings]
    # one consumer per PL clock the monitor runs on: PL clock i (the example design's wiring)
    provider = phandle(dtb, "/firmware/zynqmp-firmware/clock-controller" if platform == "zynqmp"
                       else "/axi/slcr@f8000000/clkc@100")
    for i in range(min(len(design.monitor.clocks), 4)):
        assert get(dtb, f"/fclk{i}", "compatible") == ["xlnx,fclk"]
        assert get(dtb, f"/fclk{i}", "clocks") == [provider, str(ps["pl_clock"] + i)]


@pytest.mark.parametrize("name,platform", CASES)
def test_fragment_validates(tmp_path, schema, name, platform):
    design, out = monitor(tmp_path, name, platform)
    src = board(tmp_path, platform, dtg_node(design, platform), out / "linux" / f"{design.name}.dtsi")
    dtc(src, tmp_path / "board.dtb")
    assert validate(schema, tmp_path / "board.dtb") == ""
    node = f"/bus/{design.name}@{design.monitor.bus.base_address:x}"
    check_values(tmp_path / "board.dtb", design, platform, node)
    # DTG's interrupt and clocks stay (the fragment does not touch them)
    assert get(tmp_path / "board.dtb", node, "interrupts") == ["0", str(PS[platform]["irq"]), "4"]
    rings = [t for t in design.traces if t["sink_bytes"]]
    if rings:
        regions = run("fdtget", "-l", tmp_path / "board.dtb", "/reserved-memory").stdout.split()
        assert len(regions) == len(rings) and all(r.endswith("-ring@" + r.split("@")[1]) for r in regions)
        assert get(tmp_path / "board.dtb", "/reserved-memory", "#address-cells") == [str(PS[platform]["cells"])]


@pytest.mark.parametrize("name,platform", CASES)
def test_overlay_validates(tmp_path, schema, name, platform):
    design, out = monitor(tmp_path, name, platform)
    dtc(board(tmp_path, platform), tmp_path / "base.dtb", "-@")
    dtc(out / "linux" / f"{design.name}.dtso", tmp_path / "mon.dtbo", "-@")
    run("fdtoverlay", "-i", tmp_path / "base.dtb", "-o", tmp_path / "merged.dtb", tmp_path / "mon.dtbo")
    assert validate(schema, tmp_path / "merged.dtb") == ""
    dtb, ps = tmp_path / "merged.dtb", PS[platform]
    node = f"/axi/{design.name}@{design.monitor.bus.base_address:x}"
    check_values(dtb, design, platform, node)
    gic = phandle(dtb, "/axi/interrupt-controller@" + ("f9010000" if platform == "zynqmp" else "f8f01000"))
    assert get(dtb, node, "interrupt-parent") == [gic]
    assert get(dtb, node, "interrupts") == ["0", str(ps["irq"]), "4"]
    # the overlay names the PL clocks: the node's clocks, and the fclk consumer of PL clock 0
    provider = phandle(dtb, "/firmware/zynqmp-firmware/clock-controller" if platform == "zynqmp"
                       else "/axi/slcr@f8000000/clkc@100")
    k = min(len(design.monitor.clocks), 4)
    assert get(dtb, node, "clocks") == [x for i in range(k) for x in (provider, str(ps["pl_clock"] + i))]
    assert get(dtb, node, "clock-names") == ["s_axi_aclk"] + [f"{c.name}_clk" for c in design.monitor.clocks[1:k]]
    assert get(dtb, "/fclk0", "clocks") == [provider, str(ps["pl_clock"])]


def test_base_above_4gb(tmp_path, schema):
    """zynqmp, base 0x4_0000_0000 (M_AXI_HPM0_FPD's aperture above 4 GB): reg of 2 cells, unit 400000000."""
    design, out = monitor(tmp_path, "selective_accumulations", "zynqmp", base=0x4_0000_0000)
    text = (out / "linux" / f"{design.name}.dtsi").read_text()
    assert re.search(r"^\treg = <0x4 0x00000000 0x0 0x00001000>;$", text, re.M), text
    overlay = (out / "linux" / f"{design.name}.dtso").read_text()
    assert f"\t{design.name}_0: {design.name}@400000000 {{\n" in overlay
    dtc(board(tmp_path, "zynqmp"), tmp_path / "base.dtb", "-@")
    dtc(out / "linux" / f"{design.name}.dtso", tmp_path / "mon.dtbo", "-@")
    run("fdtoverlay", "-i", tmp_path / "base.dtb", "-o", tmp_path / "merged.dtb", tmp_path / "mon.dtbo")
    assert validate(schema, tmp_path / "merged.dtb") == ""
    assert get(tmp_path / "merged.dtb", f"/axi/{design.name}@400000000", "reg", "-t", "x") == ["4", "0", "0", "1000"]


def test_binding(tmp_path, schema):
    """dt-doc-validate: no message; the binding's example compiles and validates."""
    r = run("dt-doc-validate", BINDING)
    assert not (r.stdout + r.stderr).strip()
    example = tmp_path / "example.dts"
    example.write_text(run("dt-extract-example", BINDING).stdout)
    run("dtc", "-@", "-I", "dts", "-O", "dtb", "-o", tmp_path / "example.dtb", example)
    assert validate(schema, tmp_path / "example.dtb") == ""


@pytest.mark.parametrize("props,message", [
    ('compatible = "jointer,monitor-1.0", "xlnx,mon-1.0";', "does not match|is not one of|was expected"),
    ('compatible = "xlnx,mon-1.0", "jointer,monitor-1.0";\n\t\t\tjointer,config-hash = <0x1 0x2>;', "config-hash"),
    ('compatible = "xlnx,mon-1.0", "jointer,monitor-1.0";\n\t\t\tjointer,unknown = <1>;', "unknown"),
])
def test_validation_catches(tmp_path, schema, props, message):
    """A node the binding refuses is reported: the validation above is not blind."""
    node = f"""
	bus {{
		compatible = "simple-bus";
		#address-cells = <1>;
		#size-cells = <1>;
		ranges;

		mon@43c00000 {{
			{props}
			reg = <0x43c00000 0x1000>;
		}};
	}};
"""
    dtc(board(tmp_path, "zynq7000", node), tmp_path / "bad.dtb")
    msgs = validate(schema, tmp_path / "bad.dtb")
    assert re.search(message, msgs), msgs


def test_generator_parameters_accepted(tmp_path, schema):
    """The IP's (numeric) parameters as the generators write them (xlnx,<name> = <...>) are allowed."""
    node = """
	bus {
		compatible = "simple-bus";
		#address-cells = <1>;
		#size-cells = <1>;
		ranges;

		mon@43c00000 {
			compatible = "xlnx,mon-1.0", "jointer,monitor-1.0";
			reg = <0x43c00000 0x1000>;
			xlnx,some-width = <0x20>;
			xlnx,config-hash = <0x11eb551e>;
		};
	};
"""
    dtc(board(tmp_path, "zynq7000", node), tmp_path / "ok.dtb")
    assert validate(schema, tmp_path / "ok.dtb") == ""
