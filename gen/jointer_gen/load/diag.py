# SPDX-License-Identifier: MIT
"""Diagnostics: every problem with the input is a `Diagnostic` at file:line:col.

Stages never raise on bad input: they add to a `Diagnostics` collection, so a
run reports every error it can find. `InputError` carries the collection out
of the pipeline once a stage cannot continue.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Loc:
    line: int = 0   # 1-based; 0: no line (the file as a whole)
    col: int = 0    # 1-based


@dataclass(frozen=True, order=True)
class Diagnostic:
    loc: Loc
    message: str

    def format(self, file: str) -> str:
        if self.loc.line:
            return f"{file}:{self.loc.line}:{self.loc.col}: error: {self.message}"
        return f"{file}: error: {self.message}"


@dataclass
class Diagnostics:
    items: list[Diagnostic] = field(default_factory=list)

    def error(self, loc: Loc, message: str) -> None:
        d = Diagnostic(loc, message)
        if d not in self.items:
            self.items.append(d)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items)

    def format(self, file: str) -> list[str]:
        return [d.format(file) for d in self.sorted()]


class InputError(Exception):
    """The input is wrong; `diags` says where and why."""

    def __init__(self, diags: Diagnostics):
        super().__init__(f"{len(diags)} error(s)")
        self.diags = diags


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def quote_list(items) -> str:
    return ", ".join(str(i) for i in items)
