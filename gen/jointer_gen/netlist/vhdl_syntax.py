# SPDX-License-Identifier: MIT
"""Typed emitters of the VHDL expressions the netlist modules need: slices,
elements, vector types and literals. The one place, with views.py's literal
helpers (slv_hex, slv_type, int_vector, vhdl_bool, rng), that knows how VHDL
writes them; the netlist modules only choose signals and bit positions.
"""

from __future__ import annotations

OTHERS_ZERO = "(others => '0')"     # every bit '0', whatever the width
ONE_BIT_ONE = '"1"'                 # a one-bit vector holding '1'


def element(sig: str, i: int) -> str:
    """sig(i): one bit (or item) of a vector."""
    return f"{sig}({i})"


def slice_(sig: str, hi: int, lo: int) -> str:
    """sig(hi downto lo)."""
    return f"{sig}({hi} downto {lo})"


def field_of(sig: str, k: int, width: int) -> str:
    """The k-th width-bit field of sig: sig(width*k + width-1 downto width*k)."""
    return slice_(sig, width * k + width - 1, width * k)


def fields_of(sig: str, first: int, n: int, width: int = 1) -> str:
    """n width-bit fields of sig from field `first` on."""
    return slice_(sig, width * (first + n) - 1, width * first)


def vector(n: int, width: int = 1) -> str:
    """The type of n fields of width bits: std_logic_vector(n*width-1 downto 0)."""
    return f"std_logic_vector({width * n - 1} downto 0)"


def ascending(type_name: str, n: int) -> str:
    """A constrained array type of n items indexed 0 to n-1: word_array_t(0 to n-1)."""
    return f"{type_name}(0 to {n - 1})"


def aggregate(items: list[str], per_line: int, indent: int = 4) -> str:
    """A positional aggregate, per_line items a line, each line indented:
    (\n    a, b,\n    c)."""
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    pad = "\n" + " " * indent
    return "(" + pad + ("," + pad).join(lines) + ")"


def bit_string(value: int, width: int) -> str:
    """A bit-string literal of width bits: "0101"."""
    return f'"{value:0{width}b}"'
