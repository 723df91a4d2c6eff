# SPDX-License-Identifier: MIT
"""The repository speaks of its design only: no tracked text file refers to
issue numbers, to the documents the project was started from, or to files
outside the repository (PATTERNS below; the planted examples show each),
none of which a reader of the repository has. A random seed ("seed=1", "--seed", "seed: 7", "hash seeds") is not such
a reference: the patterns below are written so that it does not match.
Generated golden files are scanned too (their text comes from the generator).
"""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SELF = Path(__file__).resolve().relative_to(REPO).as_posix()

PATTERNS = [
    (r"(?i)\bissues? ?#?\d+", "an issue number"),
    (r"(?i)[#(/]issue-\d+|-issue-\d+", "an anchor made from an issue number"),
    (r"(?i)\bseeds? ?#?0\d\d\b|\bseed0\d\d", "a seed document by number"),
    (r"(?i)(?<![\w.-])seeds/", "the seeds/ directory"),
    (r"(?i)\bseed (paper|document|file)s?\b", "a seed document"),
    (r"(?i)\b(PMTS|TECS|topology|PAPI) seed\b", "a seed document"),
    (r"(?i)\bthe seed's (own |tables?\b|structure)", "a seed document"),
    (r"(?i)\bthe seed (gives|draws|prints|paper)\b", "a seed document"),
    (r"\.\./shared\b|/work/shared\b", "a directory outside the repository"),
    (r"\bSTYLE\.md\b|\bDESIGN\.md\b", "a file outside the repository"),
]
COMPILED = [(re.compile(p), why) for p, why in PATTERNS]


def tracked_text_files():
    """Every tracked file that decodes as UTF-8 text (binary files skipped)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in out.decode().split("\0"):
        path = REPO / name
        if not name or name == SELF or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            yield name, data.decode("utf-8")
        except UnicodeDecodeError:
            continue


def history_refs(name, text):
    """file:line: why: the line, for each line matching a pattern."""
    hits = []
    for i, line in enumerate(text.splitlines(), 1):
        for rx, why in COMPILED:
            if rx.search(line):
                hits.append(f"{name}:{i}: {why}: {line.strip()[:160]}")
                break
    return hits


def test_patterns_find_references_and_spare_random_seeds():
    found = ["see issue 12", "(issue 7 part 2)", "Issue #15", "internals.md#cdc-rules-issue-14-x",
             "seed 003's BUM", "seeds/004 Table 3", "after seed 002", "seed002_paths.tsv",
             "The seed paper's 1.71x", "(PMTS seed, x)", "the seed's own table", "the seed draws",
             "(STYLE.md \"Generator\")", "../shared/DESIGN.md"]
    spared = ["seed=1", "--seed 7", "seed: 7, error_burst: 0", "random.Random(seed)", "hash seeds",
              "fuzz_seeds/", "the seeds are trace files the tests write", "f\"seed {seed} cycle\"",
              "issues a read", "the issue is that", "seeded mutations", "LCG seed 1"]
    for s in found:
        assert history_refs("x", s), s
    for s in spared:
        assert not history_refs("x", s), s


def test_no_history_references_in_tracked_files():
    hits = []
    for name, text in tracked_text_files():
        hits += history_refs(name, text)
    print("\n".join(hits))
    assert not hits, f"{len(hits)} references to issues, seed documents or outside files:\n" + "\n".join(hits)
