# SPDX-License-Identifier: MIT
"""Write or check jointer.core, the FuseSoC core of the VHDL library.

    python3 -m jointer_gen.tools.library_core            rewrite jointer.core (repository root)
    python3 -m jointer_gen.tools.library_core --check    exit 1 when it is out of date

The core lists every file of hdl/ in compile order (dependencies first,
vhdl_library.all_sources()); each generated monitor's core (<name>.core) depends
on it by VLNV. gen/tests/test_gen_integration.py fails when a library file is
added, removed or gains a dependency and jointer.core was not rewritten.
"""

from __future__ import annotations

import argparse
import sys

from ..model import vhdl_library

CORE = vhdl_library.REPO / "jointer.core"


def render() -> str:
    from ..backends.templates import environment
    from ..backends.fusesoc import library_context
    files = vhdl_library.all_sources()
    if not files:
        raise vhdl_library.LibraryMissing(f"no VHDL library at {vhdl_library.HDL}")
    return environment().get_template("fusesoc/library.core.j2").render(**library_context(files))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m jointer_gen.tools.library_core", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when jointer.core is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        if not CORE.is_file() or CORE.read_bytes() != text.encode():
            print(f"{CORE.name} is out of date: python3 -m jointer_gen.tools.library_core", file=sys.stderr)
            return 1
        print(f"{CORE.name} is up to date")
        return 0
    CORE.write_bytes(text.encode())
    print(f"wrote {CORE} ({len(vhdl_library.all_sources())} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
