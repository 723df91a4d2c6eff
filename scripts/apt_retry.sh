# SPDX-License-Identifier: MIT
# apt_retry.sh - apt that waits out a package mirror in the middle of a sync.
# Sourced by scripts/install-deps.sh and scripts/board-python-sysroot.sh.
#
# A Debian mirror being synced serves lists and packages that do not match
# their index for a few minutes ("File has unexpected size ... Mirror sync in
# progress?", "Hash Sum mismatch"): `apt-get update` or a download fails,
# and the same command succeeds a little later. What decides here is whether
# the packages the suite needs can be had, not an exit status alone:
#
#   apt_update_for SUDO... -- PKG...
#       `apt-get update`, again with a back-off until every PKG (name or
#       name:arch) has an install candidate; an update that fails on an
#       unrelated list while every PKG is there is fine (a warning).
#   apt_retry SUDO... -- CHECK -- CMD...
#       CMD (apt-get install / download), until the shell function CHECK
#       says the packages are installed or fetched; between two attempts the
#       lists are fetched again after the back-off.
#
# Back-off: APT_RETRY_ATTEMPTS tries (default 6), waiting APT_RETRY_DELAY
# seconds (default 5) after the first failure, twice as long after each next
# one, at most 60 s (5+10+20+40+60: about 2 minutes, longer than a sync
# usually lasts). Then the error names what is missing and what apt said.
# The commands are $APT_GET, $APT_CACHE and $APT_SLEEP (default apt-get,
# apt-cache, sleep; scripts/tests/test_apt_retry.py replaces them).

APT_RETRY_MISSING=""

# apt_have PKG...: every PKG has an install candidate in the package lists
# (else APT_RETRY_MISSING names the first that has none)
apt_have() {
  local p cand
  for p in "$@"; do
    cand=$(LC_ALL=C "${APT_CACHE:-apt-cache}" policy "$p" 2>/dev/null | awk '$1 == "Candidate:" {print $2; exit}')
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
      APT_RETRY_MISSING=$p
      return 1
    fi
  done
  APT_RETRY_MISSING=""
}

# the wait before attempt $1 + 1 (seconds)
_apt_retry_delay() {
  local d=${APT_RETRY_DELAY:-5} i
  for ((i = 1; i < $1; i++)); do d=$((d * 2)); done
  [ "$d" -le 60 ] || d=60
  echo "$d"
}

# the last line apt printed (its error), for the messages
_apt_retry_last() { printf '%s\n' "$1" | grep -v '^[[:space:]]*$' | tail -n 1; }

# _apt_retry_split SUDO... -- REST...: sets _apt_sudo and _apt_rest
_apt_retry_split() {
  _apt_sudo=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do _apt_sudo+=("$1"); shift; done
  [ $# -gt 0 ] || { echo "apt_retry.sh: missing -- after the sudo command" >&2; return 2; }
  shift
  _apt_rest=("$@")
}

_apt_update() {  # the lists, once: prints apt's output, returns its status
  "${_apt_sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${APT_GET:-apt-get}" update -qq 2>&1
}

apt_update_for() {
  _apt_retry_split "$@" || return 2
  local pkgs=("${_apt_rest[@]}") attempts=${APT_RETRY_ATTEMPTS:-6} i out rc wait
  for ((i = 1; ; i++)); do
    rc=0
    out=$(_apt_update) || rc=$?
    if apt_have "${pkgs[@]}"; then
      if [ "$rc" -ne 0 ]; then
        echo "apt: 'apt-get update' exited $rc ($(_apt_retry_last "$out")), but every needed package" \
             "can be had: going on" >&2
      fi
      return 0
    fi
    if [ "$i" -ge "$attempts" ]; then
      echo "apt: error: package $APT_RETRY_MISSING cannot be had after $i 'apt-get update' attempts" \
           "(last exit status $rc: $(_apt_retry_last "$out")); expected it in the package lists" \
           "(a mirror still syncing, or a missing source or architecture)" >&2
      return 1
    fi
    wait=$(_apt_retry_delay "$i")
    echo "apt: $APT_RETRY_MISSING not in the package lists yet ('apt-get update' exited $rc:" \
         "$(_apt_retry_last "$out")); a mirror in the middle of a sync? again in ${wait}s" \
         "(attempt $i of $attempts)" >&2
    "${APT_SLEEP:-sleep}" "$wait"
  done
}

apt_retry() {
  _apt_retry_split "$@" || return 2
  local check=${_apt_rest[0]:-} attempts=${APT_RETRY_ATTEMPTS:-6} i out rc wait
  if [ "${_apt_rest[1]:-}" != "--" ] || [ ${#_apt_rest[@]} -lt 3 ]; then
    echo "apt_retry.sh: usage: apt_retry SUDO... -- CHECK -- CMD..." >&2
    return 2
  fi
  local cmd=("${_apt_rest[@]:2}")
  for ((i = 1; ; i++)); do
    rc=0
    out=$("${cmd[@]}" 2>&1) || rc=$?
    if "$check"; then
      [ "$rc" -eq 0 ] || echo "apt: '${cmd[*]}' exited $rc, but what it was for is done: going on" >&2
      return 0
    fi
    if [ "$i" -ge "$attempts" ]; then
      printf '%s\n' "$out" >&2
      echo "apt: error: '${cmd[*]}' did not get the packages after $i attempts (last exit status $rc)" >&2
      return 1
    fi
    wait=$(_apt_retry_delay "$i")
    echo "apt: '${cmd[*]}' failed ($rc: $(_apt_retry_last "$out")); a mirror in the middle of a sync?" \
         "lists again and another try in ${wait}s (attempt $i of $attempts)" >&2
    "${APT_SLEEP:-sleep}" "$wait"
    _apt_update >/dev/null || true
  done
}
