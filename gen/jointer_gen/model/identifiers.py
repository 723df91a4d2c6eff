# SPDX-License-Identifier: MIT
"""Name checks: reserved words of VHDL-2008 and C (C99, C11, C23), and
collisions between the identifiers the backends derive from user names.

Every name of the YAML (monitor, clocks, LMICs, sniffers, DCAPFs) becomes
part of VHDL and C identifiers; each must be legal on its own in both
languages, and the prefixed identifiers must stay distinct
(`Namespace.add`).
"""

from __future__ import annotations

from ..load.diag import Diagnostics

VHDL_RESERVED = frozenset("""
abs access after alias all and architecture array assert assume assume_guarantee
attribute begin block body buffer bus case component configuration constant
context cover default disconnect downto else elsif end entity exit fairness file
for force function generate generic group guarded if impure in inertial inout is
label library linkage literal loop map mod nand new next nor not null of on open
or others out package parameter port postponed procedure process property
protected pure range record register reject release rem report restrict
restrict_guarantee return rol ror select sequence severity shared signal sla sll
sra srl strong subtype then to transport type unaffected units until use
variable vmode vprop vunit wait when while with xnor xor
""".split())

C_RESERVED = frozenset("""
auto break case char const continue default do double else enum extern float for
goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while
alignas alignof bool constexpr false nullptr static_assert thread_local true
typeof typeof_unqual
""".split())

GENERATED = "the generated code"   # owner of fixed identifiers

# names the generated code and the library use unprefixed
PROJECT_RESERVED = frozenset({"jointer"})


def reserved_in(name: str) -> list[str]:
    """The languages in which `name` is reserved (empty list: fine)."""
    out = []
    if name.lower() in VHDL_RESERVED:
        out.append("VHDL")
    if name in C_RESERVED:
        out.append("C")
    return out


class Namespace:
    """One scope of generated identifiers (VHDL: case-insensitive)."""

    def __init__(self, what: str, diags: Diagnostics, source, case_sensitive: bool = True):
        self.what, self.diags, self.source = what, diags, source
        self.case_sensitive = case_sensitive
        self.seen: dict[str, tuple[str, tuple]] = {}
        self.pairs: set[tuple[str, str]] = set()   # one message per pair of owners

    def add(self, ident: str, owner: str, path: tuple) -> None:
        key = ident if self.case_sensitive else ident.lower()
        prev = self.seen.get(key)
        if prev is None:
            self.seen[key] = (owner, path)
            return
        if prev[0] == owner or (owner, prev[0]) in self.pairs:
            return
        self.pairs.add((owner, prev[0]))
        if prev[0] == GENERATED:
            other = "which the generated code uses itself"
        else:
            other = f"which {prev[0]} (line {self.source.loc(prev[1]).line}) also gives"
        self.diags.error(self.source.loc(path),
                         f"{owner} gives the {self.what} '{ident}', {other} (expected names "
                         "that stay distinct once prefixed)")
