#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs everything jointer needs, per checkout where it can be:
# - Debian packages (apt, machine-wide: simulators, compilers, qemu...);
# - a Python environment of this checkout, build/venv: a venv over the
#   system's Python (--system-site-packages, so the heavy packages already
#   installed there, cocotb, yowasp, numpy..., are shared, not downloaded
#   again) holding the pinned packages of requirements.txt that the system
#   lacks and the editable installs of THIS checkout's `jointer_gen` (gen/,
#   command jointer-gen) and `jointer` (drivers/python). Two clones on one
#   machine each test their own code; nothing is pip-installed machine-wide.
# The Makefile runs its Python from the venv (PYTHON, PATH).
# Idempotent and fast: a stamp in the venv records what it was made from
# (this script, requirements.txt, the two pyproject.toml, the Python, the
# checkout); when nothing changed a run only compares the stamp.
# Works as root or through sudo (for apt). Environment:
#   JOINTER_SKIP_DEPS=1   do nothing (the Makefile then uses build/venv if it
#                         exists, else python3 as it finds it)
#   JOINTER_SKIP_APT=1    skip the apt packages
#   JOINTER_VENV=DIR      the venv (default <checkout>/build/venv)
#   JOINTER_BASE_PYTHON=P the Python the venv is made from (default python3)
set -euo pipefail
[ "${JOINTER_SKIP_DEPS:-0}" = 1 ] && exit 0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${JOINTER_VENV:-$here/build/venv}"
base="${JOINTER_BASE_PYTHON:-python3}"
stamp="$venv/.jointer-deps"

apt_pkgs=(
  ghdl verilator iverilog yosys make g++ gcc pkg-config
  gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user gcc-arm-none-eabi libnewlib-arm-none-eabi tcl cmake
  libc6-dev-arm64-cross libc6-dev-armhf-cross
  libyaml-cpp-dev libpapi-dev papi-tools
  clang libclang-rt-14-dev llvm valgrind cppcheck util-linux device-tree-compiler zlib1g-dev graphviz
  swig python3-dev
  prometheus
)
# swig, python3-dev: pip builds pylibfdt (dtschema's, requirements.txt) from its source
# cmake: the Vitis Unified (CMake) build of the IP's Vitis driver (gen/tests/test_gen_vitis.py)
# prometheus: the server and promtool the exporter tests run (drivers/python/tests/test_exporter*.py);
# with systemd, Debian also enables prometheus.service on :9090 (systemctl disable --now prometheus)

# what the environment is made from; equal to the stamp: nothing to do
base_id="$("$base" -c 'import os, sys; print(os.path.realpath(sys.executable), sys.version.split()[0])')"
want="$(cat "$here/scripts/install-deps.sh" "$here/requirements.txt" "$here/gen/pyproject.toml" \
             "$here/drivers/python/pyproject.toml" | sha256sum | cut -d' ' -f1) $base_id $here"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

apt_deps() {
  local sudo_cmd=() missing=() p
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
      echo "install-deps: not root and no sudo; install as root: ${apt_pkgs[*]}" >&2; exit 1
    fi
  fi
  for p in "${apt_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: apt-get install ${missing[*]}"
    # a mirror in the middle of a sync: lists and downloads again with a back-off, judged by
    # whether the packages can be had / are installed (scripts/apt_retry.sh)
    apt_update_for "${sudo_cmd[@]}" -- "${missing[@]}"
    apt_retry "${sudo_cmd[@]}" -- apt_installed -- "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
      "${APT_GET:-apt-get}" install -y -qq --no-install-recommends "${missing[@]}"
  fi
}
apt_installed() {  # every package of apt_pkgs is installed
  local p
  for p in "${apt_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || return 1
  done
}
. "$here/scripts/apt_retry.sh"
[ "${JOINTER_SKIP_APT:-0}" = 1 ] || apt_deps

# the venv: (re)made when missing, broken or of another Python; pip is the
# system's one (seen through the system site-packages) when it has one
py="$venv/bin/python"
if ! [ -x "$py" ] || [ "$("$py" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null)" != "${base_id##* }" ]; then
  echo "install-deps: python3 -m venv --system-site-packages $venv"
  no_pip=()
  "$base" -m pip --version >/dev/null 2>&1 && no_pip=(--without-pip)
  "$base" -m venv --clear --system-site-packages "${no_pip[@]}" "$venv"
fi
unset PYTHONPATH
pip=("$py" -m pip install -q --disable-pip-version-check)
[ "$(id -u)" -eq 0 ] && pip+=(--root-user-action=ignore)

# the pinned packages the system (or the venv) does not have yet go into the venv
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
  echo "install-deps: pip install -r requirements.txt (into $venv)"
  "${pip[@]}" -r "$here/requirements.txt"
fi

# this checkout's packages, editable (they follow the sources), in the venv;
# the venv's installs come before any machine-wide one of another checkout
ours() {  # ours MODULE: MODULE imports from this checkout, in the venv
  (cd / && "$py" -c "import $1, sys; from pathlib import Path
sys.exit(0 if Path($1.__file__).resolve().is_relative_to(Path('$here').resolve()) else 1)") 2>/dev/null
}
if ! ours jointer_gen || ! [ -x "$venv/bin/jointer-gen" ]; then
  echo "install-deps: pip install -e gen (jointer_gen, jointer-gen; into $venv)"
  "${pip[@]}" --no-deps -e "$here/gen"
fi
# the jointer Python package (its libjointer.so: `make py-lib`, build/drivers/shared/)
if ! ours jointer; then
  echo "install-deps: pip install -e drivers/python (jointer; into $venv)"
  "${pip[@]}" --no-deps -e "$here/drivers/python"
fi
for m in jointer_gen jointer; do
  ours "$m" || { echo "install-deps: $py imports $m from outside $here" >&2; exit 1; }
done

# package_ip.tcl is tested through Python's Tcl binding
if ! "$py" -c "import tkinter" 2>/dev/null; then
  echo "install-deps: $base has no tkinter (Python's Tcl binding): install python3-tk or build Python with tk" >&2
  exit 1
fi
echo "$want" > "$stamp"
echo "install-deps: ok ($venv)"
