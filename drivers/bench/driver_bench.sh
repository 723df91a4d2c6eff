#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# driver_bench.sh BUILD PYTHON - libjointer's benchmarks (make driver-bench):
#  1. .text bytes of libjointer + the Y9 driver, arm-linux-gnueabihf-gcc -Os
#     (goal <= 3,000; the paper's driver added 6,900 bytes);
#  2. instructions per jointer_read of a 32-bit metric vs a raw volatile load
#     (valgrind callgrind, host build; goal <= 20);
#  3. the same .text sizes with aarch64-linux-gnu-gcc -Os;
#  4. descriptor files (doc/descriptor-file.md): bytes of Y9's and stress_15x4's
#     <name>.jdesc; the generic jointer CLI (no descriptor compiled in) built
#     with arm-linux-gnueabihf-gcc -Os: stripped file size and .text, beside the
#     CLI with Y9's descriptor compiled in.
# The Y9 driver is the one generated from configs/selective_accumulations.yaml.
# Results: stdout, $BUILD/bench/driver.json and the make bench report fragment
# $BUILD/bench/fragments/driver-bench.json.
set -euo pipefail
BUILD=${1:-build}
PYTHON=${2:-python3}
out="$BUILD/drivers/bench"
rm -rf "$out" && mkdir -p "$out" "$BUILD/bench"
WARN="-std=c99 -pedantic -Wall -Wextra -Werror"

# --- which Y9 driver ---------------------------------------------------------
if ! PYTHONPATH=gen "$PYTHON" -m jointer_gen configs/selective_accumulations.yaml -o "$out/gen" >"$out/gen.log" 2>&1; then
  echo "driver-bench: jointer-gen configs/selective_accumulations.yaml failed:" >&2
  cat "$out/gen.log" >&2
  exit 1
fi
regs=$(ls "$out"/gen/*/c/*_regs.h | head -n 1)
gdir=$(dirname "$regs")
name=$(basename "$regs" _regs.h)
origin="generated from configs/selective_accumulations.yaml ($gdir)"
echo "driver-bench: Y9 driver = $origin"

# --- 1. size -------------------------------------------------------------------
CC=arm-linux-gnueabihf-gcc
text() { arm-linux-gnueabihf-size -A "$1" | awk '$1 == ".text" { t += $2 } END { print t + 0 }'; }
rodata() { arm-linux-gnueabihf-size -A "$1" | awk '$1 ~ /^\.(rodata|data)/ { t += $2 } END { print t + 0 }'; }
BASE=$("$PYTHON" scripts/driver_sources.py DRV_BASE_SRCS)   # the core proper, one file per concern
for f in $BASE drivers/src/jointer_trace.c drivers/src/jointer_names.c drivers/src/jointer_recorder.c \
         drivers/src/jointer_global.c; do
  $CC $WARN -Os -Idrivers/include -Idrivers/src -c "$f" -o "$out/$(basename "$f" .c).o"
done
$CC $WARN -Os -Idrivers/include -I"$gdir" -c "$gdir/$name.c" -o "$out/$name.o"
# the core a Y9 program links from libjointer.a: every base object but the interrupts'
# (a static link takes only the objects a program calls: the split by concern pays off here)
core=0; core_all=0
for f in $BASE; do
  t=$(text "$out/$(basename "$f" .c).o"); core_all=$((core_all + t))
  [ "$(basename "$f")" = jointer_irq.c ] || core=$((core + t))
done
gen=$(text "$out/$name.o"); gen_data=$(rodata "$out/$name.o")
trace=$(text "$out/jointer_trace.o"); names=$(text "$out/jointer_names.o"); recorder=$(text "$out/jointer_recorder.o")
global=$(text "$out/jointer_global.o")
total=$((core + gen))
verdict=$([ "$total" -le 3000 ] && echo "meets the goal" || echo "ABOVE the goal")
printf "driver size, %s -Os (Thumb-2), .text bytes:\n" "$CC"
printf "  libjointer core a Y9 program links (DRV_BASE_SRCS but jointer_irq.c) %5d (all of DRV_BASE_SRCS: %d)\n" "$core" "$core_all"
printf "  Y9 driver (%s.c; its descriptor is %d bytes of const data, wrappers are static inline) %d\n" "$name" "$gen_data" "$gen"
printf "  core + Y9 driver                           %5d   goal <= 3000: %s (paper: +6900)\n" "$total" "$verdict"
printf "  optional modules: jointer_trace.c %d (monitors with trace buffers), jointer_global.c %d (TIMESTAMP, MARK), jointer_names.c %d, jointer_recorder.c %d\n" \
  "$trace" "$global" "$names" "$recorder"

# --- 2. instructions per read ----------------------------------------------------
N=100000
gcc $WARN -O2 -g -Idrivers/include -I"$gdir" -DBENCH_CFG="${name}_cfg" \
  drivers/bench/bench_read.c $BASE "$gdir/$name.c" -o "$out/bench_read"
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" "$out/bench_read" $N >"$out/bench_read.log" 2>"$out/valgrind.log"
cat "$out/bench_read.log"
callgrind_annotate --inclusive=yes "$out/callgrind.out" >"$out/callgrind.txt"   # jointer_read is a call now: count its body
ir() { awk -v f="$1" '$0 ~ f"( |$)" { gsub(",", "", $1); print $1; exit }' "$out/callgrind.txt"; }
ir_read=$(ir "bench_jointer_read"); ir_raw=$(ir "bench_raw_load")
per_read=$(awk -v a="$ir_read" -v n=$N 'BEGIN { printf "%.2f", a / n }')
per_raw=$(awk -v a="$ir_raw" -v n=$N 'BEGIN { printf "%.2f", a / n }')
ratio=$(awk -v a="$ir_read" -v b="$ir_raw" 'BEGIN { printf "%.2f", a / b }')
verdict2=$(awk -v a="$per_read" 'BEGIN { print (a <= 20 ? "meets the goal" : "ABOVE the goal") }')
printf "instructions per call (callgrind inclusive, gcc -O2 x86-64: the call site and jointer_read):\n"
printf "  jointer_read, 32-bit metric, direct seam   %6s   goal <= 20: %s\n" "$per_read" "$verdict2"
printf "  raw volatile load                          %6s\n" "$per_raw"
printf "  ratio jointer_read / raw load              %6s x\n" "$ratio"
objdump -d --no-show-raw-insn "$out/bench_read" | awk '/<bench_jointer_read>:/,/^$/' >"$out/bench_jointer_read.s"
# the same call site for the Cortex-A9 (armhf -O2, Thumb-2): static instruction count
arm-linux-gnueabihf-gcc $WARN -O2 -Idrivers/include -I"$gdir" -DBENCH_CFG="${name}_cfg" \
  -c drivers/bench/bench_read.c -o "$out/bench_read_armhf.o"
arm-linux-gnueabihf-objdump -d --no-show-raw-insn "$out/bench_read_armhf.o" \
  | awk '/<bench_jointer_read>:/,/^$/' >"$out/bench_jointer_read_armhf.s"
arm_insns=$(grep -c '^ *[0-9a-f]*:' "$out/bench_jointer_read_armhf.s")
printf "  armhf -O2 (Thumb-2): bench_jointer_read is %d instructions, fast path and the tail call to the slow path included\n" "$arm_insns"

# --- 3. size, aarch64 -------------------------------------------------------------
A64=aarch64-linux-gnu-gcc
text64() { aarch64-linux-gnu-size -A "$1" | awk '$1 == ".text" { t += $2 } END { print t + 0 }'; }
core64=0
for f in $BASE; do
  $A64 $WARN -Os -Idrivers/include -Idrivers/src -c "$f" -o "$out/a64.o"; core64=$((core64 + $(text64 "$out/a64.o")))
done
$A64 $WARN -Os -Idrivers/include -I"$gdir" -c "$gdir/$name.c" -o "$out/${name}_a64.o"
gen64=$(text64 "$out/${name}_a64.o"); total64=$((core64 + gen64))
printf "driver size, %s -Os, .text bytes: core %d + Y9 driver %d = %d\n" "$A64" "$core64" "$gen64" "$total64"

# --- 4. descriptor files and the generic CLI ---------------------------------------
PYTHONPATH=gen "$PYTHON" -m jointer_gen configs/stress_15x4.yaml -o "$out/gen" -q
desc_y9=$(stat -c %s "$out/gen/$name/$name.jdesc")
desc_stress=$(stat -c %s "$out/gen/stress_15x4/stress_15x4.jdesc")
clisrc="$(for f in $("$PYTHON" scripts/driver_sources.py DRV_PORTABLE_SRCS) \
                   $("$PYTHON" scripts/driver_sources.py DRV_HOSTED_SRCS); do printf '%s ' "$f"; done) \
        $(ls drivers/cli/*.c | tr '\n' ' ')"
$CC $WARN -Os -Idrivers/include -Idrivers/src $clisrc -o "$out/jointer-generic"
$CC $WARN -Os -Idrivers/include -Idrivers/src -I"$gdir" -DJOINTER_CLI_CFG="${name}_cfg" $clisrc "$gdir/$name.c" \
  -o "$out/jointer-$name"
arm-linux-gnueabihf-strip -o "$out/jointer-generic.stripped" "$out/jointer-generic"
arm-linux-gnueabihf-strip -o "$out/jointer-$name.stripped" "$out/jointer-$name"
cli_file=$(stat -c %s "$out/jointer-generic.stripped"); cli_text=$(text "$out/jointer-generic")
cli_y9_file=$(stat -c %s "$out/jointer-$name.stripped"); cli_y9_text=$(text "$out/jointer-$name")
printf "descriptor files: Y9 %s.jdesc %d bytes, stress_15x4.jdesc %d bytes\n" "$name" "$desc_y9" "$desc_stress"
printf "generic jointer CLI, %s -Os: stripped file %d bytes, .text %d bytes (Y9 compiled in: file %d, .text %d)\n" \
  "$CC" "$cli_file" "$cli_text" "$cli_y9_file" "$cli_y9_text"

mkdir -p "$BUILD/bench/fragments"
cat >"$BUILD/bench/fragments/driver-bench.json" <<JSON
{"section": "Driver (libjointer)", "order": 40,
 "text": ["Y9 driver: $origin. Sizes: .text of libjointer's core (DRV_BASE_SRCS) + the generated Y9 driver, -Os. The paper's anchor is the growth of the whole executable (the TECS paper's Table 4, Y9 Instr. 235304 - Y0 229988 B), which holds more than the driver."],
 "figures": [
  {"name": ".text core + Y9 driver, armhf -Os", "value": $total, "unit": "bytes", "anchor": 5316,
   "anchor_source": "the TECS paper's Table 4: Y9 Instr. 235304 - Y0 229988 (whole executable)", "summary": true,
   "note": "arm-linux-gnueabihf-gcc -Os (Thumb-2): core $core + Y9 driver $gen; goal <= 3000"},
  {"name": ".text core + Y9 driver, aarch64 -Os", "value": $total64, "unit": "bytes", "anchor": null,
   "anchor_source": null, "summary": true, "note": "aarch64-linux-gnu-gcc -Os: core $core64 + Y9 driver $gen64"},
  {"name": ".text optional modules, armhf -Os", "value": $((trace + names + recorder)), "unit": "bytes", "anchor": null,
   "anchor_source": null, "note": "jointer_trace.c $trace, jointer_global.c $global, jointer_names.c $names, jointer_recorder.c $recorder"},
  {"name": "instructions per jointer_read (32-bit metric)", "value": $per_read, "unit": "instructions",
   "anchor": 20, "anchor_source": "goal: <= 20 (driver issue)", "summary": true,
   "note": "callgrind, gcc -O2 x86-64, $N calls, direct seam; raw volatile load $per_raw"},
  {"name": "jointer_read / raw volatile load", "value": $ratio, "unit": "x", "anchor": null, "anchor_source": null,
   "note": "instructions"},
  {"name": "bench_jointer_read, armhf -O2 (static)", "value": $arm_insns, "unit": "instructions", "anchor": null,
   "anchor_source": null, "note": "fast path and the tail call to the slow path"},
  {"name": "descriptor file, Y9", "value": $desc_y9, "unit": "bytes", "anchor": null, "anchor_source": null,
   "summary": true, "note": "$name.jdesc (doc/descriptor-file.md, format 1)"},
  {"name": "descriptor file, stress_15x4", "value": $desc_stress, "unit": "bytes", "anchor": null,
   "anchor_source": null, "note": "stress_15x4.jdesc: 4 clocks, 105 metrics, 2 traces"},
  {"name": "generic jointer CLI, armhf -Os, stripped file", "value": $cli_file, "unit": "bytes", "anchor": null,
   "anchor_source": null, "summary": true,
   "note": "no descriptor compiled in (descriptor files); .text $cli_text; the CLI with Y9 compiled in: file $cli_y9_file, .text $cli_y9_text"}]}
JSON

cat >"$BUILD/bench/driver.json" <<JSON
{"y9_driver": "$origin",
 "text_bytes_armhf_Os": {"core": $core, "y9_driver": $gen, "total": $total, "goal": 3000,
                         "trace_module": $trace, "names_module": $names, "recorder_module": $recorder},
 "instructions_per_call": {"jointer_read_32bit": $per_read, "raw_volatile_load": $per_raw, "ratio": $ratio, "goal": 20,
                           "armhf_function_instructions": $arm_insns},
 "descriptor_files": {"y9_bytes": $desc_y9, "stress_15x4_bytes": $desc_stress},
 "generic_cli_armhf_Os": {"stripped_file_bytes": $cli_file, "text_bytes": $cli_text,
                          "y9_compiled_in_stripped_file_bytes": $cli_y9_file, "y9_compiled_in_text_bytes": $cli_y9_text}}
JSON
echo "driver-bench: wrote $BUILD/bench/driver.json"
