# SPDX-License-Identifier: MIT
"""The co-simulation top of a scenario with `top: demo`: the demo coprocessor
(sim/cosim/accel, `sa_soc`) on the clock `accel`, watched by any generated
monitor, its sniffers wired by what their ports are:

- `<sniffer>_<axi4 signal>` (axi4, axi4_latency taps): the coprocessor's AXI4
  DMA master; IDs the DMA does not have are 0, AxLOCK/AxCACHE/AxPROT/AxQOS
  the DMA's constants;
- `<sniffer>_start`, `<sniffer>_done` (start_done): its task start and done;
- `<sniffer>_events` (events, width 2): forward firings (bit 0), mac_16
  firings (bit 1);
- `s_axi_*`, `<clock>_clk`/`<clock>_resetn`, `irq`: ports of the top.

One wrapper for every monitor (written next to the generated files), instead
of one hand-written top per monitor. A port it cannot wire is an error that
names it.
"""

from __future__ import annotations

import re
from pathlib import Path

# the DMA master's signals (sa_soc dma_*), by AXI4 name
DMA = ["awaddr", "awlen", "awsize", "awburst", "awvalid", "awready", "wdata", "wstrb", "wlast", "wvalid",
       "wready", "bresp", "bvalid", "bready", "araddr", "arlen", "arsize", "arburst", "arvalid", "arready",
       "rdata", "rresp", "rlast", "rvalid", "rready"]
CONSTANT = {"awlock": "'0'", "arlock": "'0'", "awcache": '"0011"', "arcache": '"0011"', "awprot": '"000"',
            "arprot": '"000"', "awqos": '"0000"', "arqos": '"0000"'}
ZERO = ["awid", "bid", "arid", "rid"]          # the DMA has no IDs: ID 0
ACCEL_CLOCK = "accel"

_PORT_CLAUSE = r"\bentity\s+{}\s+is\s+port\s*\((.*?)\)\s*;\s*end\b"


def vhdl_ports(text: str, entity: str) -> list[tuple[str, str, int | None]]:
    """[(name, in|out, width or None for std_logic)] of a flat VHDL entity."""
    m = re.search(_PORT_CLAUSE.format(re.escape(entity)), re.sub(r"--[^\n]*", "", text), re.S | re.I)
    if not m:
        raise ValueError(f"no entity {entity} with a port clause")
    ports = []
    for item in m.group(1).split(";"):
        pm = re.fullmatch(r"\s*([\w\s,]+?)\s*:\s*(in|out)\s+std_u?logic(?:_vector\s*\(\s*(\d+)\s+downto\s+(\d+)\s*\))?"
                          r"\s*(?::=.*)?", item, re.S | re.I)
        if not pm:
            raise ValueError(f"{entity}: cannot read port '{item.strip()}'")
        width = int(pm.group(3)) - int(pm.group(4)) + 1 if pm.group(3) else None
        for name in pm.group(1).split(","):
            ports.append((name.strip().lower(), pm.group(2).lower(), width))
    return ports


def _decl(name: str, d: str, width: int | None) -> str:
    t = "std_logic" if width is None else f"std_logic_vector({width - 1} downto 0)"
    return f"    {name} : {d} {t}"


def wiring(ports: list[tuple[str, str, int | None]]) -> tuple[list[tuple], list[str]]:
    """(the wrapper's own ports, the monitor's port map lines)."""
    own, pmap = [], []
    for name, d, width in ports:
        if name.startswith("s_axi_") or name == "irq" or re.fullmatch(r"\w+_(clk|resetn)", name):
            own.append((name, d, width))
            pmap.append(f"{name} => {name}")
            continue
        sig = name.rsplit("_", 1)[-1]
        if sig in DMA:
            pmap.append(f"{name} => {sig}")
        elif sig in CONSTANT:
            pmap.append(f"{name} => {CONSTANT[sig]}")
        elif sig in ZERO:
            pmap.append(f"{name} => " + ("'0'" if width is None else "(others => '0')"))
        elif sig == "start" and width is None:
            pmap.append(f"{name} => task_start")
        elif sig == "done" and width is None:
            pmap.append(f"{name} => task_done")
        elif sig == "events" and width == 2:
            pmap.append(f"{name} => ev_mac & ev_forward")
        else:
            raise ValueError(f"port {name} ({d}, {'std_logic' if width is None else f'{width} bits'}) cannot be "
                             "wired to the demo coprocessor (AXI4 DMA, start/done, 2 events)")
    names = {n for n, _, _ in own}
    if f"{ACCEL_CLOCK}_clk" not in names:
        raise ValueError(f"the monitor has no clock '{ACCEL_CLOCK}': the coprocessor runs on it")
    return own, pmap


ACC_AXI = [("awaddr", "in", 15), ("awprot", "in", 3), ("awvalid", "in", None), ("awready", "out", None),
           ("wdata", "in", 32), ("wstrb", "in", 4), ("wvalid", "in", None), ("wready", "out", None),
           ("bresp", "out", 2), ("bvalid", "out", None), ("bready", "in", None), ("araddr", "in", 15),
           ("arprot", "in", 3), ("arvalid", "in", None), ("arready", "out", None), ("rdata", "out", 32),
           ("rresp", "out", 2), ("rvalid", "out", None), ("rready", "in", None)]


def render(monitor: str, ports: list[tuple[str, str, int | None]]) -> tuple[str, str]:
    """(entity name, VHDL) of the wrapper of `monitor` (the generated top entity)."""
    own, pmap = wiring(ports)
    entity = f"soc_{monitor}"
    decls = [_decl(n, d, w) for n, d, w in own] + [_decl(f"acc_axi_{n}", d, w) for n, d, w in ACC_AXI]
    acc = ", ".join(f"s_axi_{n} => acc_axi_{n}" for n, _, _ in ACC_AXI)
    dma = ", ".join(f"dma_{s} => {s}" for s in DMA)
    port_clause = ";\n".join(decls)
    monitor_map = ",\n      ".join(pmap)
    return entity, f"""-- {entity}: written by sim/cosim/soc_top.py (do not edit): the demo
-- coprocessor (sim/cosim/accel) on clock {ACCEL_CLOCK}, watched by {monitor}.
library ieee;
use ieee.std_logic_1164.all;

entity {entity} is
  port (
{port_clause});
end entity {entity};

architecture rtl of {entity} is
  signal acc_rst : std_logic;
  signal awaddr, wdata, araddr, rdata : std_logic_vector(31 downto 0);
  signal awlen, arlen : std_logic_vector(7 downto 0);
  signal awsize, arsize : std_logic_vector(2 downto 0);
  signal awburst, arburst, bresp, rresp : std_logic_vector(1 downto 0);
  signal wstrb : std_logic_vector(3 downto 0);
  signal awvalid, awready, wlast, wvalid, wready, bvalid, bready : std_logic;
  signal arvalid, arready, rlast, rvalid, rready : std_logic;
  signal task_start, task_done, ev_forward, ev_mac : std_logic;
begin
  acc_rst <= not {ACCEL_CLOCK}_resetn;  -- synchronous to {ACCEL_CLOCK}_clk

  soc : entity work.sa_soc
    port map (
      clk => {ACCEL_CLOCK}_clk, rst => acc_rst,
      {acc},
      {dma},
      task_start => task_start, task_done => task_done, busy => open,
      ev_forward => ev_forward, ev_mac => ev_mac);

  monitor : entity work.{monitor}
    port map (
      {monitor_map});
end architecture rtl;
"""


def write(gdir: Path, monitor: str, monitor_vhd: Path) -> tuple[Path, str]:
    """Write the wrapper of `monitor` (its entity in monitor_vhd) into gdir; (file, entity)."""
    entity, text = render(monitor, vhdl_ports(monitor_vhd.read_text(), monitor))
    path = gdir / f"{entity}.vhd"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path, entity
