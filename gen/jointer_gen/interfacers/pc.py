# SPDX-License-Identifier: MIT
"""`interfacer: {type: pc}` (the program monitor): a program
counter compared with up to 32 addresses the host programs at run time
(hdl/eig/jointer_eig_pc.vhd); the event data is the index of the matched
address.

The table is loaded through the sniffer's INIT register, in the INIT words
after its DCAPFs' bounds: word 2 x D (D = the sniffer's DCAPFs) is the enable
mask, word 2 x D + 1 + i is address i. The dispenser is generated with
D + init_slots() "DCAPF" slots so that its INIT pointer reaches them; the
LMIC, the layout and every DCAPF index stay as they are.

Flavours: generic (ports <s>_pc, <s>_valid) and microblaze (ports
<s>_trace_pc, <s>_trace_valid_instr: the MicroBlaze Trace_PC and
Trace_Valid_Instr outputs of its TRACE bus, 32-bit PC).
"""

from __future__ import annotations

from .base import InterfacerNet, Kind, clog2

MAX_DISPENSER_SLOTS = 128   # jointer_collect_dispenser num_dcapfs_g

# flavour -> (pc port, valid port, comments)
PC_PORTS = {
    "generic": ("pc", "valid", "program counter", "the program counter is valid (one instruction)"),
    "microblaze": ("trace_pc", "trace_valid_instr", "MicroBlaze Trace_PC",
                   "MicroBlaze Trace_Valid_Instr"),
}


class Pc(Kind):
    name = "pc"
    entity = "jointer_eig_pc"
    emit_data = ("index",)

    def check_monitor(self, b, clocks: list, lmics: list) -> None:
        for lm in lmics:
            for s in lm.sniffers:
                if s.interfacer.type != self.name:
                    continue
                p = s.interfacer.params
                if p["flavour"] == "microblaze" and p["pc_width"] != 32:
                    b.err(s.interfacer.path + ("pc_width",),
                          f"pc_width {p['pc_width']} with flavour microblaze in "
                          f"{b.where(s.interfacer.path)} (expected 32: Trace_PC is 32 bits)")
                slots = len(s.dcapfs) + self.init_slots(s)
                if slots > MAX_DISPENSER_SLOTS:
                    b.err(s.path + ("dcapfs",),
                          f"pc sniffer '{s.name}' has {len(s.dcapfs)} DCAPFs and {p['addresses']} "
                          f"addresses: {slots} INIT slots (expected at most "
                          f"{MAX_DISPENSER_SLOTS}: the DCAPFs, then (addresses + 2) / 2 for the table)")

    def summary(self, p: dict) -> str:
        return (f"program monitor ({p['flavour']}), {p['pc_width']}-bit PC, "
                f"{p['addresses']} programmable address{'es' if p['addresses'] != 1 else ''}")

    def elaborate(self, sn, net: InterfacerNet) -> None:
        """The table comes from the dispenser's INIT outputs."""
        p = sn.interfacer.params
        pc, valid, pc_comment, valid_comment = PC_PORTS[p["flavour"]]
        net.generic("pc_w_g", "positive", str(p["pc_width"]), "program counter bits")
        net.generic("num_addr_g", "positive", str(p["addresses"]), "programmable addresses")
        net.generic("init_base_g", "natural", str(len(sn.dcapfs)),
                    "first INIT slot of the table: after the DCAPFs' bounds")
        net.observe(pc, p["pc_width"], pc_comment, formal="pc_pc")
        net.observe(valid, None, valid_comment, formal="pc_valid")
        for formal, actual in (("init_we", "d_init_we"), ("init_sel", "d_init_sel"),
                               ("init_hi", "d_init_hi"), ("init_data", "d_init_data")):
            net.tie(formal, actual)

    def data_width(self, sn) -> int:
        return clog2(sn.interfacer.params["addresses"])   # the index of the matched address

    def init_slots(self, sn) -> int:
        """INIT slots (2 words each) of the address table: mask + addresses."""
        return (sn.interfacer.params["addresses"] + 2) // 2

    def init_slots_comment(self, sn) -> str:
        return f"{len(sn.dcapfs)} DCAPFs + {self.init_slots(sn)} INIT slots of the address table"

    def c_fields(self, sn) -> str:
        addresses, pc_width = self.pm_fields(sn)
        return f", .pm_addresses = {addresses}, .pm_pc_width = {pc_width}"

    def pm_fields(self, sn) -> tuple[int, int]:
        p = sn.interfacer.params
        return (p["addresses"], p["pc_width"])


KIND = Pc()
