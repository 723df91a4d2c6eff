# SPDX-License-Identifier: MIT
"""No name in the VHDL library is a Verilog or SystemVerilog keyword.

The co-simulation, yosys, nextpnr and the formal flow read the Verilog that
`ghdl synth --out=verilog` writes, which keeps VHDL names as they are: a
signal called `local` or `bit` is a syntax error for Verilator there. This
scans every declaration (signals, variables, constants, ports, generics,
types, labels) of hdl/**/*.vhd.
"""
import re
from pathlib import Path

HDL = Path(__file__).resolve().parents[2] / "hdl"

# IEEE 1800-2017 reserved words (Annex B) that are legal VHDL identifiers
SV_KEYWORDS = set("""
accept_on alias always always_comb always_ff always_latch assert assign assume automatic before bind bins
binsof bit break byte case casex casez cell chandle checker class clocking cmos config const constraint
context continue cover covergroup coverpoint cross deassign default defparam design disable dist do edge
else end endcase endchecker endclass endclocking endconfig endfunction endgenerate endgroup endinterface
endmodule endpackage endprimitive endprogram endproperty endspecify endsequence endtable endtask enum event
eventually expect export extends extern final first_match for force foreach forever fork forkjoin function
generate genvar global highz0 highz1 if iff ifnone ignore_bins illegal_bins implements implies import
incdir include initial inout input inside instance int integer interconnect interface intersect join
join_any join_none large let liblist library local localparam logic longint macromodule matches medium
modport module nand negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1 null or output
package packed parameter pmos posedge primitive priority program property protected pull0 pull1 pulldown
pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase randsequence rcmos real realtime ref
reg reject_on release repeat restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always s_eventually
s_nexttime s_until s_until_with scalared sequence shortint shortreal showcancelled signed small soft solve
specify specparam static string strong strong0 strong1 struct super supply0 supply1 sync_accept_on
sync_reject_on table tagged task this throughout time timeprecision timeunit tran tranif0 tranif1 tri tri0
tri1 triand trior trireg type typedef union unique unique0 unsigned until until_with untyped use uwire var
vectored virtual void wait wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor
""".split())

DECL = re.compile(r"^\s*(?:signal|variable|constant|type|subtype|alias)\s+([a-z_]\w*(?:\s*,\s*[a-z_]\w*)*)\s*:",
                  re.I | re.M)
PORT = re.compile(r"^\s*([a-z_]\w*(?:\s*,\s*[a-z_]\w*)*)\s*:\s*(?:in|out|inout|buffer)?\s*[a-z_]", re.I | re.M)
LABEL = re.compile(r"^\s*([a-z_]\w*)\s*:\s*(?:entity|process|for|if|block|case)\b", re.I | re.M)


def names(text):
    text = re.sub(r"--.*", "", text)
    for rx in (DECL, PORT, LABEL):
        for m in rx.finditer(text):
            for n in m.group(1).split(","):
                yield n.strip().lower(), text.count("\n", 0, m.start()) + 1


def test_no_verilog_keyword_names():
    hits = [f"{p.relative_to(HDL.parent)}:{line}: {n}"
            for p in sorted(HDL.rglob("*.vhd")) for n, line in names(p.read_text()) if n in SV_KEYWORDS]
    assert not hits, "names that are Verilog/SystemVerilog keywords:\n" + "\n".join(hits)


def test_the_check_can_fail():
    assert [n for n, _ in names("  signal local : std_logic;\n  x, bit : in std_logic;\n")] == \
        ["local", "x", "bit"]
