# SPDX-License-Identifier: MIT
"""scripts/apt_retry.sh: the suite's apt calls wait out a mirror in the
middle of a sync, judged by whether the packages can be had.

A fake apt (apt-get, apt-cache, sleep, dpkg, sudo on PATH, scripted by
environment variables) plays the mirror: `apt-get update` fails with the
"File has unexpected size ... Mirror sync in progress?" error FAKE_SYNC
times, a download fails with "Hash Sum mismatch" FAKE_FETCH_FAIL times, a
package of FAKE_ABSENT never has a candidate. The tests check the outcome,
how many updates were made and the back-off (the waits asked of sleep), on
the library and on board-python-sysroot.sh as py-install-test runs it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIB = REPO / "scripts" / "apt_retry.sh"

FAKE_APT_GET = r"""#!/bin/bash
st=$FAKE_APT
echo "$*" >> "$st/calls"
count() { local n=$(( $(cat "$st/$1" 2>/dev/null || echo 0) + 1 )); echo $n > "$st/$1"; echo $n; }
for a in "$@"; do
  case "$a" in
    update)
      n=$(count updates)
      if [ "$n" -le "${FAKE_SYNC:-0}" ]; then
        echo "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/main/binary-armhf/Packages.xz" \
             " File has unexpected size (40192 != 40188). Mirror sync in progress? [IP: 151.101.2.132 80]" >&2
        exit 100
      fi
      touch "$st/lists"
      if [ -n "${FAKE_UPDATE_RC:-}" ]; then echo "E: The repository 'http://example.org x Release' does not have a Release file." >&2; exit "$FAKE_UPDATE_RC"; fi
      exit 0 ;;
    install|download)
      n=$(count fetches)
      if [ "$n" -le "${FAKE_FETCH_FAIL:-0}" ]; then
        echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/x.deb  Hash Sum mismatch" >&2
        exit 100
      fi
      if [ "$a" = install ]; then touch "$st/installed"; exit 0; fi
      shift_done=0
      for p in "$@"; do
        case "$p" in download|-q|-o|APT::*) ;; *) name=${p%%:*}; ar=${p##*:}; touch "${name}_1.0_${ar}.deb" ;; esac
      done
      exit 0 ;;
  esac
done
echo "fake apt-get: unexpected $*" >&2
exit 1
"""

FAKE_APT_CACHE = r"""#!/bin/bash
[ "$1" = policy ] || { echo "fake apt-cache: unexpected $*" >&2; exit 1; }
shift
for p in "$@"; do
  [ -f "$FAKE_APT/lists" ] || continue
  case " ${FAKE_ABSENT:-} " in *" ${p%%:*} "*) echo "${p}:"; echo "  Installed: (none)"; echo "  Candidate: (none)"; continue ;; esac
  echo "${p}:"; echo "  Installed: (none)"; echo "  Candidate: 1.0"
done
"""

FAKE_SLEEP = '#!/bin/bash\necho "$1" >> "$FAKE_APT/sleeps"\n'
FAKE_SUDO = '#!/bin/bash\nexec "$@"\n'
# dpkg for board-python-sysroot.sh: architectures, and -x unpacking a "package"
FAKE_DPKG = r"""#!/bin/bash
case "$1" in
  --print-foreign-architectures) cat "$FAKE_APT/arches" 2>/dev/null ;;
  --add-architecture) echo "$2" >> "$FAKE_APT/arches" ;;
  -x) mkdir -p "$3/usr/bin" "$3/usr/lib/arm-linux-gnueabihf" && touch "$3/usr/bin/python3.11" && chmod +x "$3/usr/bin/python3.11" ;;
  *) echo "fake dpkg: unexpected $*" >&2; exit 1 ;;
esac
"""


def fake_apt(tmp: Path, **env) -> dict:
    """A PATH with the fake tools first, their state folder, the scripted mirror."""
    bin_, st = tmp / "bin", tmp / "state"
    bin_.mkdir()
    st.mkdir()
    for name, text in (("apt-get", FAKE_APT_GET), ("apt-cache", FAKE_APT_CACHE), ("sleep", FAKE_SLEEP),
                       ("sudo", FAKE_SUDO), ("dpkg", FAKE_DPKG)):
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    return dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}", FAKE_APT=str(st),
                **{k: str(v) for k, v in env.items()})


def state(env: dict, name: str) -> list[str]:
    p = Path(env["FAKE_APT"]) / name
    return p.read_text().split("\n")[:-1] if p.exists() else []


def lib(env: dict, call: str) -> subprocess.CompletedProcess:
    """`call` in bash with the library sourced, the way the scripts source it (set -euo pipefail)."""
    return subprocess.run(["bash", "-c", f"set -euo pipefail; . {LIB}; {call}"], env=env,
                          capture_output=True, text=True, timeout=60)


def test_update_waits_out_a_mirror_sync(tmp_path):
    env = fake_apt(tmp_path, FAKE_SYNC=2)
    r = lib(env, "apt_update_for -- ghdl yosys")
    assert r.returncode == 0, r.stderr
    assert state(env, "updates") == ["3"]
    assert state(env, "sleeps") == ["5", "10"]                # back-off: doubled
    assert r.stderr.count("Mirror sync in progress?") == 2 and "ghdl not in the package lists" in r.stderr


def test_a_failed_update_with_every_package_there_is_no_failure(tmp_path):
    """An unrelated list failing (exit 100) does not stop a suite whose packages are all there."""
    env = fake_apt(tmp_path, FAKE_UPDATE_RC=100)
    r = lib(env, "apt_update_for -- ghdl yosys")
    assert r.returncode == 0, r.stderr
    assert state(env, "updates") == ["1"] and state(env, "sleeps") == []
    assert "exited 100" in r.stderr and "can be had: going on" in r.stderr


def test_a_successful_update_without_the_package_is_retried_then_fails(tmp_path):
    """Judged by the package: an update exiting 0 whose lists lack it is retried, then a clear error."""
    env = fake_apt(tmp_path, FAKE_ABSENT="yosys")
    r = lib(env, "apt_update_for -- ghdl yosys")
    assert r.returncode == 1
    assert state(env, "updates") == ["6"]
    assert state(env, "sleeps") == ["5", "10", "20", "40", "60"]   # capped at 60 s
    assert "package yosys cannot be had after 6 'apt-get update' attempts" in r.stderr


def test_attempts_and_first_delay_from_the_environment(tmp_path):
    env = fake_apt(tmp_path, FAKE_SYNC=9, APT_RETRY_ATTEMPTS=3, APT_RETRY_DELAY=1)
    r = lib(env, "apt_update_for -- ghdl")
    assert r.returncode == 1 and state(env, "updates") == ["3"] and state(env, "sleeps") == ["1", "2"]


def test_install_retried_until_installed(tmp_path):
    """A download failing mid-sync: the lists again, the install again, until the check holds."""
    env = fake_apt(tmp_path, FAKE_FETCH_FAIL=2)
    check = 'done_() { [ -f "$FAKE_APT/installed" ]; }'
    r = lib(env, f"{check}; apt_retry sudo -- done_ -- apt-get install -y ghdl")
    assert r.returncode == 0, r.stderr
    assert state(env, "fetches") == ["3"] and state(env, "sleeps") == ["5", "10"]
    assert state(env, "updates") == ["2"]                       # fresh lists before each new try
    assert r.stderr.count("Hash Sum mismatch") == 2


def test_install_that_never_succeeds_fails_with_apt_output(tmp_path):
    env = fake_apt(tmp_path, FAKE_FETCH_FAIL=99, APT_RETRY_ATTEMPTS=2)
    r = lib(env, 'done_() { [ -f "$FAKE_APT/installed" ]; }; apt_retry -- done_ -- apt-get install -y ghdl')
    assert r.returncode == 1
    assert "Hash Sum mismatch" in r.stderr and "did not get the packages after 2 attempts" in r.stderr


def test_board_sysroot_through_a_mirror_sync(tmp_path):
    """board-python-sysroot.sh (py-install-test's armhf Python) with the armhf lists mid-sync twice and
    the first download cut: it adds the architecture, waits, downloads everything and unpacks it."""
    env = fake_apt(tmp_path, FAKE_SYNC=2, FAKE_FETCH_FAIL=1)
    out = tmp_path / "board"
    r = subprocess.run(["bash", str(REPO / "scripts" / "board-python-sysroot.sh"), "armhf", str(out)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert state(env, "arches") == ["armhf"]
    assert state(env, "updates") == ["4"]          # 2 cut, 1 good, 1 before the second download
    assert state(env, "sleeps") == ["5", "10", "5"]
    assert (out / "sysroot" / "usr" / "bin" / "python3.11").exists()
    debs = sorted(p.name for p in (out / "debs").iterdir())
    assert len(debs) == 22 and "python3-numpy_1.0_armhf.deb" in debs


def test_the_suite_fetches_packages_only_through_the_library():
    """install-deps.sh and board-python-sysroot.sh: every update, install and download goes
    through apt_update_for / apt_retry (a bare `apt-get update` would stop at a mirror mid-sync)."""
    for script in ("install-deps.sh", "board-python-sysroot.sh"):
        text = (REPO / "scripts" / script).read_text()
        assert "apt_retry.sh" in text and "apt_update_for" in text and "apt_retry " in text, script
        code = [l.split("#")[0] for l in text.splitlines() if not l.strip().startswith("echo")]
        bare = [l for l in code if "apt-get update" in l or "apt-get install" in l or "apt-get download" in l]
        assert bare == [], f"{script}: apt called outside scripts/apt_retry.sh: {bare}"
