# SPDX-License-Identifier: MIT
"""Command line: jointer-gen CONFIG.yaml [-o OUTDIR] [--check] [--regen-golden].

Exit status: 0 success; 1 bad input (every error printed as
FILE:LINE:COL: error: ...; nothing written) or --check found differences;
2 usage error or an internal error (a bug: please report it).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
GOLDEN_MAX_BYTES = 400_000   # larger outputs keep a hash list as their golden file


def generate(config: str, display: str | None = None):
    """YAML file -> (design, {relative path: text or bytes}); raises diag.InputError."""
    from .backends.render import render
    from .netlist.elaborate import elaborate
    from .load.loader import load
    from .load.validate import validate
    src = load(config, display)
    monitor = validate(src)
    design = elaborate(monitor, src, Path(config).name)
    return design, render(design)


LIBRARY_PLACEHOLDER = "(the library's dependency closure: checked against hdl/ by test_gen_golden.py)"


def copies(files: dict) -> set[str]:
    """The copied files of an output (manifest roles backends.COPY_ROLES): the
    VHDL in ip/hdl/, libjointer in c/jointer/ and in the Vitis driver's src/,
    the generated C in the driver's src/ (the IP folder and the C bundle are
    self-contained)."""
    import json
    from .backends import COPY_ROLES
    if "manifest.json" not in files:
        return set()
    return {f["path"] for f in json.loads(files["manifest.json"])["files"] if f["role"] in COPY_ROLES}


def golden_files(files: dict) -> dict:
    """What the golden folder of a design holds: the files, or a hash list when large.

    manifest.json's library_sources follows the library (which files the used
    entities depend on), not the generator: golden files hold a placeholder
    there, and the tests check the real list against hdl/ instead. The copies
    (copies()) are left out, as files and from the manifest's file list: the
    tests check them against their sources."""
    import json
    from .output import hash_list
    skip = copies(files)
    files = {k: v for k, v in files.items() if k not in skip}
    if "manifest.json" in files:
        m = json.loads(files["manifest.json"])
        m["library_sources"] = [LIBRARY_PLACEHOLDER]
        m["files"] = [f for f in m["files"] if f["path"] not in skip]
        files["manifest.json"] = json.dumps(m, indent=2) + "\n"
    if sum(len(t) for t in files.values()) <= GOLDEN_MAX_BYTES:
        return files
    return {"SHA256SUMS": hash_list(files)}


def _not_a_directory(folder: Path) -> Path | None:
    """The first part of `folder` that exists but is not a directory (-o FILE)."""
    for p in reversed([folder, *folder.parents]):
        if p.exists() and not p.is_dir():
            return p
    return None


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="jointer-gen",
        description="Generate a jointer hardware monitor (VHDL, C, docs) from its YAML description.")
    ap.add_argument("config", metavar="CONFIG.yaml", help="monitor description (schema version 1)")
    ap.add_argument("-o", "--out", metavar="OUTDIR", default="build",
                    help="output folder; files go to OUTDIR/<name>/ (default: build)")
    ap.add_argument("--check", action="store_true",
                    help="regenerate in memory; exit 1 when OUTDIR/<name>/ differs")
    ap.add_argument("--regen-golden", action="store_true",
                    help="rewrite the golden files of gen/tests/golden/<name>/ (developers)")
    ap.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    ap.add_argument("--version", action="version", version=f"jointer-gen {__version__}")
    return ap.parse_args(argv)


def _generate_or_report(config: str):
    """(design, files), or (None, exit status) after printing why not."""
    from .load.diag import InputError
    from .model.vhdl_library import LibraryMissing
    try:
        return generate(config)
    except LibraryMissing as e:
        print(f"jointer-gen: {e}", file=sys.stderr)
        return None, 2
    except InputError as e:
        for line in e.diags.format(config):
            print(line, file=sys.stderr)
        n = len(e.diags)
        print(f"jointer-gen: {n} error{'s' if n != 1 else ''}; nothing written", file=sys.stderr)
        return None, 1
    except Exception as e:  # a bug, not bad input: say so without a traceback
        if os.environ.get("JOINTER_GEN_DEBUG"):
            raise
        print(f"jointer-gen: internal error: {type(e).__name__}: {e} (please report; "
              "JOINTER_GEN_DEBUG=1 shows the traceback)", file=sys.stderr)
        return None, 2


def _check(args, files, dest: Path) -> int:
    """--check: exit 1 when the folder on disk differs from what would be written."""
    from .output import compare
    diffs = compare(files, dest)
    for line in diffs:
        print(f"jointer-gen: {dest}: {line}", file=sys.stderr)
    if diffs:
        print(f"jointer-gen: {dest} is out of date ({len(diffs)} difference"
              f"{'s' if len(diffs) != 1 else ''}); run jointer-gen {args.config} -o {args.out}",
              file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"jointer-gen: {dest} is up to date ({len(files)} files)")
    return 0


def _libjointer(args, design) -> int:
    """<OUT>/libjointer/ beside the monitor (the same files for every monitor):
    written, or with --check compared; 0, or 1 after saying why not."""
    from .backends import libbundle
    from .output import write_tree
    dest = Path(args.out) / libbundle.FOLDER
    if design.name == libbundle.FOLDER:
        print(f"jointer-gen: {args.config}: a monitor may not be named {libbundle.FOLDER} "
              f"(<OUT>/{libbundle.FOLDER}/ is libjointer's bundle); nothing written", file=sys.stderr)
        return 1
    if args.check:
        return _check(args, libbundle.files(), dest)
    write_tree(libbundle.files(), dest)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    design, files = _generate_or_report(args.config)
    if design is None:
        return files
    from .output import write_tree
    dest = Path(args.out) / design.name
    try:
        if not args.regen_golden and _libjointer(args, design) != 0:
            return 1
        if args.check:
            return _check(args, files, dest)
        if args.regen_golden:
            dest = GOLDEN / design.name
            files = golden_files(files)
        write_tree(files, dest)
    except OSError as e:
        blocker = _not_a_directory(dest.parent)
        why = f"{blocker} is not a directory" if blocker else (e.strerror or e)
        print(f"jointer-gen: cannot write {dest}: {why}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"jointer-gen: wrote {len(files)} files to {dest} (config hash {design.hash_hex})")
    return 0
