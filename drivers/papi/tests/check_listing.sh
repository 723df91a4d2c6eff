#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_listing.sh TEST_PAPI - `papi_native_avail -sde TEST_PAPI` must list
# every event the test library's hook registers (TEST_PAPI --names): the
# utility finds libjointer_papi_test.so through ldd and calls its
# papi_sde_hook_list_events().
set -euo pipefail
bin=$1
out=$(dirname "$bin")/papi_native_avail.txt
if ! command -v papi_native_avail >/dev/null; then
  echo "check_listing: papi_native_avail not installed (apt package papi-tools)"; exit 1
fi
papi_native_avail -sde "$bin" >"$out" 2>&1 || true
names=$("$bin" --names)
n=0; missing=0
while read -r name; do
  n=$((n + 1))
  if ! grep -qF -- "| $name " "$out"; then
    echo "check_listing: papi_native_avail -sde $bin does not list $name"; missing=$((missing + 1))
  fi
done <<<"$names"
if [ "$missing" -ne 0 ]; then
  echo "check_listing: output in $out"; exit 1
fi
echo "check_listing: papi_native_avail -sde lists all $n events"
