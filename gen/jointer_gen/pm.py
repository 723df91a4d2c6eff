"""The program monitor (`interfacer: {type: pc}`, issue 7 part 3): every
generator rule specific to it, kept in one module.

A pc sniffer compares a program counter with up to 32 addresses the host
programs at run time (hdl/eig/jointer_eig_pc.vhd). The table is loaded
through the sniffer's INIT register, in the INIT words after its DCAPFs'
bounds: word 2 x D (D = the sniffer's DCAPFs) is the enable mask, word
2 x D + 1 + i is address i. The dispenser is generated with
D + table_slots() "DCAPF" slots so that its INIT pointer reaches them; the
LMIC, the layout and every DCAPF index stay as they are.

Flavours: generic (ports <s>_pc, <s>_valid) and microblaze (ports
<s>_trace_pc, <s>_trace_valid_instr: the MicroBlaze Trace_PC and
Trace_Valid_Instr outputs of its TRACE bus, 32-bit PC).
"""

from __future__ import annotations

MAX_DISPENSER_SLOTS = 128   # jointer_collect_dispenser num_dcapfs_g

# flavour -> (pc port, valid port, comments)
PC_PORTS = {
    "generic": ("pc", "valid", "program counter", "the program counter is valid (one instruction)"),
    "microblaze": ("trace_pc", "trace_valid_instr", "MicroBlaze Trace_PC",
                   "MicroBlaze Trace_Valid_Instr"),
}


def is_pc(sn) -> bool:
    return sn.interfacer.type == "pc"


def table_slots(sn) -> int:
    """INIT slots (2 words each) of the address table: mask + addresses."""
    return (sn.interfacer.params["addresses"] + 2) // 2 if is_pc(sn) else 0


def dispenser_slots(sn) -> int:
    """num_dcapfs_g of the sniffer's dispenser."""
    return len(sn.dcapfs) + table_slots(sn)


def summary(p: dict) -> str:
    return (f"program monitor ({p['flavour']}), {p['pc_width']}-bit PC, "
            f"{p['addresses']} programmable address{'es' if p['addresses'] != 1 else ''}")


def check_pc(b, lmics) -> None:
    """Rules beyond the schema (b: validate._Builder)."""
    for lm in lmics:
        for s in lm.sniffers:
            if not is_pc(s):
                continue
            p = s.interfacer.params
            if p["flavour"] == "microblaze" and p["pc_width"] != 32:
                b.err(s.interfacer.path + ("pc_width",),
                      f"pc_width {p['pc_width']} with flavour microblaze in "
                      f"{b.where(s.interfacer.path)} (expected 32: Trace_PC is 32 bits)")
            if dispenser_slots(s) > MAX_DISPENSER_SLOTS:
                b.err(s.path + ("dcapfs",),
                      f"pc sniffer '{s.name}' has {len(s.dcapfs)} DCAPFs and {p['addresses']} "
                      f"addresses: {dispenser_slots(s)} INIT slots (expected at most "
                      f"{MAX_DISPENSER_SLOTS}: the DCAPFs, then (addresses + 2) / 2 for the table)")


def interfacer(sn, gen, observed: list, pmap: list, observed_signal) -> None:
    """The elaborate.py branch of a pc interfacer: generics, observed signals,
    port map (the table comes from the dispenser's INIT outputs)."""
    p = sn.interfacer.params
    pc, valid, pc_comment, valid_comment = PC_PORTS[p["flavour"]]
    gen("pc_w_g", "positive", str(p["pc_width"]), "program counter bits")
    gen("num_addr_g", "positive", str(p["addresses"]), "programmable addresses")
    gen("init_base_g", "natural", str(len(sn.dcapfs)),
        "first INIT slot of the table: after the DCAPFs' bounds")
    observed.append(observed_signal(pc, p["pc_width"], pc_comment))
    observed.append(observed_signal(valid, None, valid_comment))
    pmap += [("pc_pc", f"mon_{pc}"), ("pc_valid", f"mon_{valid}"), ("init_we", "d_init_we"),
             ("init_sel", "d_init_sel"), ("init_hi", "d_init_hi"), ("init_data", "d_init_data")]


def c_sniffer_fields(sn) -> str:
    """Extra designated initializers of jointer_sniffer_desc ('' for other sniffers)."""
    if not is_pc(sn):
        return ""
    p = sn.interfacer.params
    return f", .pm_addresses = {p['addresses']}, .pm_pc_width = {p['pc_width']}"
