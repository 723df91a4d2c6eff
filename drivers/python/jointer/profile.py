# SPDX-License-Identifier: MIT
"""The program monitor's profile: per-function calls and cycles from
{timestamp, index} trace records, computed by libjointer's
jointer_pm_profile (nesting, recursion, unmatched entries/exits).

Symbol files are the CLI's (drivers/cli/jointer_cli_pm.c): one function a
line, `NAME ENTRY [EXIT]` (0x hex or decimal) or nm's `ADDR TYPE NAME`;
`#` starts a comment; table indices in file order, entry then exit.
"""
import errno as E

from . import _lib, safeio
from .errors import JointerError

PROFILE_FIELDS = ("calls", "total", "min", "max", "unmatched_entries", "unmatched_exits")


def _addr(tok, hexa):
    if not tok or tok[0] in "+-":
        raise ValueError(tok)
    v = int(tok, 16) if hexa else int(tok, 0)
    if not 0 <= v <= 0xFFFFFFFF:
        raise ValueError(tok)
    return v


def read_symbols(path, max_addresses=32):
    """[(name, entry, exit or None)] from a symbol file; JointerError names file:line."""
    out, naddr = [], 0
    text = safeio.read_text(path, "a symbol file (NAME ENTRY [EXIT] lines)", 16 << 20)
    for lineno, line in enumerate(text.splitlines(), 1):
        tok = line.split("#", 1)[0].split()
        if not tok:
            continue
        nm = len(tok) == 3 and len(tok[1]) == 1 and tok[1].isalpha()
        if len(tok) not in (2, 3):
            raise JointerError(E.EINVAL, "%s:%d: expected NAME ENTRY [EXIT] or nm's ADDR TYPE NAME" % (path, lineno))
        need = 1 if nm or len(tok) == 2 else 2
        if len(out) == 32 or naddr + need > max_addresses:
            raise JointerError(E.EINVAL, "%s:%d: too many addresses (the table holds %d)"
                               % (path, lineno, max_addresses))
        try:
            if nm:
                out.append((tok[2], _addr(tok[0], True), None))
            else:
                out.append((tok[0], _addr(tok[1], False), _addr(tok[2], False) if need == 2 else None))
        except ValueError:
            raise JointerError(E.EINVAL, "%s:%d: bad address (expected 0x... or decimal, 32 bits)"
                               % (path, lineno)) from None
        naddr += need
    if not out:
        raise JointerError(E.EINVAL, "%s: no function (expected lines NAME ENTRY [EXIT])" % path)
    return out


def table(symbols):
    """The address table (what pm_program loads), in index order."""
    addrs = []
    for _, entry, exit_ in symbols:
        addrs.append(entry)
        if exit_ is not None:
            addrs.append(exit_)
    return addrs


def profile(records, symbols, stack_depth=1024):
    """{name: {calls, total, min, max, unmatched_entries, unmatched_exits}} in
    symbol order. records: numpy TRACE_DTYPE array (or (timestamp, data)
    pairs); symbols: a symbol file path or [(name, entry, exit or None)]."""
    import numpy as np
    if isinstance(symbols, str):
        symbols = read_symbols(symbols)
    rec = np.ascontiguousarray(np.asarray(records, dtype=[("timestamp", "<u4"), ("data", "<u4")])
                               if not isinstance(records, np.ndarray) else records)
    fn = (_lib.PmFunction * len(symbols))()
    k = 0
    for i, (_, _, exit_) in enumerate(symbols):
        fn[i].entry = k
        k += 1
        fn[i].exit = _lib.PM_NO_INDEX
        if exit_ is not None:
            fn[i].exit = k
            k += 1
    stack = (_lib.PmFrame * stack_depth)()
    st = (_lib.PmStats * len(symbols))()
    r = _lib.lib().jointer_pm_profile(rec.ctypes.data if len(rec) else None, len(rec), fn, len(symbols), stack,
                                      stack_depth, st)
    if r < 0:
        raise JointerError(-r, "profile: %s" % _lib.strerror(r))
    return {name: {f: getattr(st[i], f) for f in PROFILE_FIELDS} for i, (name, _, _) in enumerate(symbols)}
