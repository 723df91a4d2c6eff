#!/usr/bin/env bash
# Installs everything jointer needs: Debian packages (apt) and pinned PyPI
# packages (requirements.txt). Idempotent: a second run only checks.
# Works as root or through sudo. Set JOINTER_SKIP_APT=1 to skip apt,
# JOINTER_SKIP_DEPS=1 to skip everything (a second git worktree whose
# editable jointer-gen must keep pointing at the main checkout).
set -euo pipefail
[ "${JOINTER_SKIP_DEPS:-0}" = 1 ] && exit 0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

apt_pkgs=(
  ghdl verilator iverilog yosys make g++ gcc pkg-config
  gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user gcc-arm-none-eabi libnewlib-arm-none-eabi tcl
  libc6-dev-arm64-cross libc6-dev-armhf-cross
  libyaml-cpp-dev libpapi-dev papi-tools
  clang libclang-rt-14-dev llvm valgrind cppcheck util-linux device-tree-compiler zlib1g-dev graphviz
  prometheus
)
# prometheus: the server and promtool the exporter tests run (drivers/python/tests/test_exporter*.py);
# with systemd, Debian also enables prometheus.service on :9090 (systemctl disable --now prometheus)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    echo "install-deps: not root and no sudo; install as root: ${apt_pkgs[*]}" >&2; exit 1
  fi
fi

if [ "${JOINTER_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${apt_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: apt-get install ${missing[*]}"
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

py="${PYTHON:-python3}"
if ! "$py" - "$here/requirements.txt" <<'PYEOF'
import sys
from importlib import metadata
ok = True
for line in open(sys.argv[1]):
    line = line.split('#')[0].strip()
    if not line:
        continue
    name, _, want = line.partition('==')
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        have = None
    if have != want:
        ok = False
sys.exit(0 if ok else 1)
PYEOF
then
  echo "install-deps: pip install -r requirements.txt"
  pip_root=()
  [ "$(id -u)" -eq 0 ] && pip_root=(--root-user-action=ignore)
  "$py" -m pip install -q --disable-pip-version-check "${pip_root[@]}" -r "$here/requirements.txt"
fi
# the generator as a command (jointer-gen); editable, so it follows this checkout
if ! "$py" -c "import jointer_gen, sys; from pathlib import Path; sys.exit(0 if Path(jointer_gen.__file__).resolve().is_relative_to(Path('$here').resolve()) else 1)" 2>/dev/null \
   || ! command -v jointer-gen >/dev/null 2>&1; then
  echo "install-deps: pip install -e gen (jointer-gen)"
  pip_root=()
  [ "$(id -u)" -eq 0 ] && pip_root=(--root-user-action=ignore)
  "$py" -m pip install -q --disable-pip-version-check "${pip_root[@]}" --no-deps -e "$here/gen"
fi
# the jointer Python package (drivers/python); editable, so it follows this checkout
# (its libjointer.so: `make py-lib`, build/drivers/shared/)
if ! "$py" -c "import jointer, sys; from pathlib import Path; sys.exit(0 if Path(jointer.__file__).resolve().is_relative_to(Path('$here').resolve()) else 1)" 2>/dev/null; then
  echo "install-deps: pip install -e drivers/python (jointer)"
  pip_root=()
  [ "$(id -u)" -eq 0 ] && pip_root=(--root-user-action=ignore)
  "$py" -m pip install -q --disable-pip-version-check "${pip_root[@]}" --no-deps -e "$here/drivers/python"
fi
# package_ip.tcl is tested through Python's Tcl binding
if ! "$py" -c "import tkinter" 2>/dev/null; then
  echo "install-deps: $py has no tkinter (Python's Tcl binding): install python3-tk or build Python with tk" >&2
  exit 1
fi
echo "install-deps: ok"
