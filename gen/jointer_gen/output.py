# SPDX-License-Identifier: MIT
"""Stage 7: write the rendered files, all or nothing.

Files go to a temporary folder beside the destination and replace
OUTDIR/<name>/ in one rename once every file is written; a failure leaves
the previous output untouched. `compare` backs --check. A file's content is
text (written as UTF-8) or bytes (the binary descriptor file).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Union

Content = Union[str, bytes]


def to_bytes(content: Content) -> bytes:
    """What a rendered file holds on disk."""
    return content if isinstance(content, bytes) else content.encode("utf-8")


def write_tree(files: dict[str, Content], dest: Path) -> None:
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=dest.parent))
    try:
        _write_files(files, str(tmp))
        os.chmod(tmp, 0o755)
        if dest.exists() or dest.is_symlink():
            old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=dest.parent))
            old.rmdir()
            dest.rename(old)
            tmp.rename(dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _write_files(files: dict[str, Content], root: str) -> None:
    """Every file under root (plain os calls: a few hundred files, each folder made once)."""
    made = {root}
    for rel in sorted(files):
        path = os.path.join(root, rel)
        folder = os.path.dirname(path)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        with open(path, "wb") as f:
            f.write(to_bytes(files[rel]))


def existing_files(dest: Path) -> dict[str, bytes]:
    """Every file under dest, but Python's bytecode caches (running the testbench, tb/,
    or compiling its module leaves a __pycache__ that no generation wrote)."""
    dest = Path(dest)
    if not dest.is_dir():
        return {}
    return {p.relative_to(dest).as_posix(): p.read_bytes()
            for p in sorted(dest.rglob("*")) if p.is_file() and "__pycache__" not in p.relative_to(dest).parts}


def compare(files: dict[str, Content], dest: Path) -> list[str]:
    """Differences between the rendered files and dest: ["changed: x", ...]."""
    have = existing_files(dest)
    out = []
    for rel in sorted(set(files) | set(have)):
        if rel not in have:
            out.append(f"missing: {rel}")
        elif rel not in files:
            out.append(f"not generated (stale): {rel}")
        elif have[rel] != to_bytes(files[rel]):
            out.append(f"differs: {rel}")
    return out


def hash_list(files: dict[str, Content]) -> str:
    """sha256sum-style list of the rendered files (golden files of large designs)."""
    return "".join(f"{hashlib.sha256(to_bytes(files[rel])).hexdigest()}  {rel}\n"
                   for rel in sorted(files))
