# SPDX-License-Identifier: MIT
"""Repairs of the Verilog that Debian's GHDL 2.0.0 writes (`ghdl synth
--out=verilog`), shared by scripts/hdl_check.py and sim/cosim/run.py.

1. Constants wider than 32 bits come out as Verilog strings ("0101...";
   ghdl/ghdl#2002, fixed after 2.0.0): 8 bits of ASCII per character, which
   silently changes the logic (a mask 0x0000_0000_FFFF_FFFF becomes
   0x3131_3131_3131_3131). They are rewritten as sized binary literals; any
   other string left in the code is an error.
2. A null-range constant comes out as `= 0'b;`, which no Verilog parser
   accepts. jointer sizes every port at least 1 bit wide (maximum(n, 1)), so
   this should not occur any more; when it does, `1'b0` is what it means.

The latch check (a reachable `others` arm that GHDL drops) is not a repair:
that one must be fixed in the RTL.
"""

from __future__ import annotations

import re

_STRCONST_RE = re.compile(r'"([01XxZzUuWwLlHh-]+)"')


class VerilogError(Exception):
    """GHDL's Verilog holds something no repair can make right."""


def fix_string_constants(text: str) -> tuple[str, int]:
    """(text with string constants as sized binary literals, how many)."""
    out, n = [], 0
    for line in text.splitlines(keepends=True):
        code, sep, comment = line.partition("//")
        if '"' in code and not code.lstrip().startswith("/*"):
            def sub(m):
                bits = m.group(1).lower().replace("u", "x").replace("w", "x").replace("-", "x")
                bits = bits.replace("l", "0").replace("h", "1")
                return f"{len(bits)}'b{bits}"
            code, k = _STRCONST_RE.subn(sub, code)
            n += k
            if '"' in code:
                raise VerilogError(f"unexpected string in GHDL's Verilog: {line.strip()}")
        out.append(code + sep + comment)
    return "".join(out), n


def fix_null_constants(text: str) -> tuple[str, int]:
    """(text with `= 0'b;` as `= 1'b0;`, how many)."""
    return re.subn(r"= 0'b;", "= 1'b0;", text)


def repair(text: str) -> tuple[str, int, int]:
    """(repaired text, string constants fixed, null constants fixed)."""
    text, nulls = fix_null_constants(text)
    text, strings = fix_string_constants(text)
    return text, strings, nulls
