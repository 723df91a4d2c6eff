# SPDX-License-Identifier: MIT
"""doc/config.md names every choice the generator has: the `type:` list of
the annotated example is the registry of interfacer kinds (interfacers.KINDS,
in its order), the `platform:` line and the "Platforms" table the registry of
platforms (platforms.PLATFORMS), each platform's apertures as the table
writes them. A kind or a platform added without its line in the reference
fails here."""

from __future__ import annotations

import re

from gentest_util import REPO
from jointer_gen import interfacers, platforms

CONFIG_MD = REPO / "doc" / "config.md"


def _choices(text: str, key: str) -> list[str]:
    """The `a | b | c` choices after `key: value  #`, continued on `#   | ...` lines."""
    m = re.search(rf"^ *{key}: \w+ +# ([\w |]+)\n((?: +#   \|[\w |]+\n)*)", text, re.M)
    assert m, f"doc/config.md: no annotated '{key}:' line"
    words = m.group(1).split("|") + [w for line in m.group(2).splitlines() for w in line.split("#", 1)[1].split("|")]
    return [w.strip() for w in words if w.strip()]


def test_type_list_is_every_kind():
    assert _choices(CONFIG_MD.read_text(), "type") == list(interfacers.KINDS)


def test_platform_line_and_table_are_every_platform():
    text = CONFIG_MD.read_text()
    m = re.search(r"^  platform: (\w+) +# ([\w |]+?):", text, re.M)
    assert m and m.group(1) == platforms.DEFAULT
    assert [w.strip() for w in m.group(2).split("|")] == list(platforms.PLATFORMS)
    section = text.split("### Platforms", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `(\w+)`(?: \(default\))? \|.*\| ([^|]+) \|$", section, re.M)
    assert [r[0] for r in rows] == list(platforms.PLATFORMS)
    for name, apertures in rows:
        # every aperture of the platform, as 0x4_0000_0000..0x4_FFFF_FFFF under its port
        written = {int(a.replace("_", ""), 16) for a in re.findall(r"0x[0-9A-F_]+", apertures)}
        want = {x for a in platforms.platform(name).apertures for x in (a.low, a.high)}
        assert written == want, name


def test_the_check_sees_a_missing_kind():
    text = CONFIG_MD.read_text().replace("#   | axi4_latency | axis_util\n", "")
    assert _choices(text, "type") != list(interfacers.KINDS)
