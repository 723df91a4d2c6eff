#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gen_check.sh BUILD PYTHON - libjointer against the generator's C output: for
# every configs/*.yaml, generate, compile the generated files with the
# library (-std=c99 -pedantic -Wall -Wextra -Werror), run the generated
# self-check and drivers/tests/test_generated.c over the emulated monitor,
# and drivers/tests/test_descfile.c: the generated <name>.jdesc parsed and
# compared field by field with the compiled-in <name>_cfg.
# Skips (exit 0) when the generator is not there yet.
set -euo pipefail
BUILD=${1:-build}
PYTHON=${2:-python3}
out="$BUILD/drivers/gen-check"
WARN="-std=c99 -pedantic -Wall -Wextra -Werror"
if [ ! -f gen/jointer_gen/__main__.py ]; then
  echo "gen-check: no generator (gen/jointer_gen/__main__.py) yet: skipped"
  exit 0
fi
rm -rf "$out" && mkdir -p "$out"
LIB="$("$PYTHON" scripts/driver_sources.py DRV_BASE_SRCS) drivers/src/jointer_trace.c drivers/src/jointer_global.c drivers/tests/mock/jointer_mock.c"
DESC_LIB=$(for f in $("$PYTHON" scripts/driver_sources.py DRV_PORTABLE_SRCS) \
                    $("$PYTHON" scripts/driver_sources.py DRV_HOSTED_SRCS); do printf '%s ' "$f"; done)
n=0
for y in configs/*.yaml; do
  stem=$(basename "$y" .yaml)
  PYTHONPATH=gen "$PYTHON" -m jointer_gen "$y" -o "$out/$stem" >"$out/$stem.log"
  regs=$(ls "$out/$stem"/*/c/*_regs.h | head -n 1)
  dir=$(dirname "$regs")
  name=$(basename "$regs" _regs.h)
  if [ -f "$dir/${name}_selfcheck.c" ]; then
    gcc $WARN -Idrivers/include -I"$dir" "$dir/${name}_selfcheck.c" "$dir/$name.c" -o "$out/$stem.selfcheck"
    "$out/$stem.selfcheck" >/dev/null
  fi
  gcc $WARN -O1 -g -Idrivers/include -Idrivers/src -Idrivers/tests -I"$dir" -DGEN_CFG="${name}_cfg" \
    $LIB "$dir/$name.c" drivers/tests/test_generated.c -o "$out/$stem.test"
  "$out/$stem.test"
  gcc $WARN -O1 -g -Idrivers/include -Idrivers/src -Idrivers/tests -I"$dir" -DGEN_CFG="${name}_cfg" \
    $DESC_LIB "$dir/$name.c" drivers/tests/test_descfile.c -o "$out/$stem.descfile"
  "$out/$stem.descfile" "$out/$stem/$name/$name.jdesc"
  n=$((n + 1))
done
echo "gen-check: $n generated drivers compiled, self-checked and exercised; their descriptor files parsed as compiled"
