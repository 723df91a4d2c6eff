#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Static checks: VHDL syntax (GHDL, VHDL-2008), Python byte-compilation,
# no `case ... when others` that GHDL 2.0.0 would drop (see doc/design.md, "VHDL rules"),
# and the Vivado lint (scripts/vivado_lint.py: hdl/ and every configs/ top inside what
# UG901 documents, each IP's top a plain VHDL-93 wrapper that ghdl -a --std=93c analyses).
set -euo pipefail
cd "$(dirname "$0")/.."
work=build/lint; mkdir -p "$work"
mapfile -t vhd < <(find hdl -name '*.vhd' | sort)
rm -f "$work"/*.cf
ghdl -i --std=08 --work=jointer --workdir="$work" "${vhd[@]}"   # parses every file
mapfile -t ents < <(grep -h -i -o -E '^\s*entity\s+\w+\s+is' "${vhd[@]}" | awk '{print $2}')
for e in "${ents[@]}"; do                                      # analyses in dependency order
  ghdl -m --std=08 --work=jointer --workdir="$work" "$e" >/dev/null
done
echo "lint: ${#vhd[@]} VHDL files parse and analyse (${#ents[@]} entities)"
# a reachable `when others` in a case turns into a latch in GHDL's Verilog
if grep -n -i -E '^\s*when\s+others\s*=>' "${vhd[@]}" >/dev/null; then
  grep -n -i -E '^\s*when\s+others\s*=>' "${vhd[@]}"
  echo "lint: error: case ... when others in library VHDL (use if/elsif or an AND-OR mux)"; exit 1
fi
mapfile -t cfgs < <(find configs -name '*.yaml' | sort)
python3 scripts/vivado_lint.py hdl "${cfgs[@]/#/--config=}"
mapfile -t py < <(git ls-files '*.py' 2>/dev/null || find . -name '*.py' -not -path './build/*')
# bytecode into build/ (no __pycache__ in the tree: the golden folders hold generated .py files)
[ ${#py[@]} -eq 0 ] || PYTHONPYCACHEPREFIX="$PWD/$work/pycache" python3 -m py_compile "${py[@]}"
echo "lint: ${#py[@]} Python files compile"
