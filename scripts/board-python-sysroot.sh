#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# board-python-sysroot.sh ARCH DIR - a Debian (bookworm) Python 3.11 userland
# for ARCH (arm64 or armhf) unpacked into DIR/sysroot, to run a board's
# Python under qemu-user: `qemu-aarch64 -L DIR/sysroot DIR/sysroot/usr/bin/python3.11`.
#
# What a Zynq board's Debian image has: python3.11 (minimal + stdlib), numpy
# 1.24 (python3-numpy with its BLAS/LAPACK), and the C libraries they load.
# The packages are Debian's own, fetched with `apt-get download` (the
# architecture is added to dpkg and the lists updated only when they are
# missing) into DIR/debs (kept out of git: DIR is under build/) and unpacked
# with `dpkg -x`: nothing is installed on this machine. Idempotent: a stamp
# holding the package list skips everything once done.
set -euo pipefail

arch=${1:?usage: board-python-sysroot.sh arm64|armhf DIR}
dir=${2:?usage: board-python-sysroot.sh arm64|armhf DIR}
case "$arch" in
  arm64) triplet=aarch64-linux-gnu ;;
  armhf) triplet=arm-linux-gnueabihf ;;
  *) echo "board-python-sysroot.sh: unknown architecture '$arch' (arm64 or armhf)" >&2; exit 2 ;;
esac

# python3.11 and what `import ctypes, json, csv, hashlib, numpy` loads
pkgs=(libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5 libuuid1
      libcrypt1 libncursesw6 libtinfo6 libreadline8 libsqlite3-0
      python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
      python3-numpy libblas3 liblapack3 libgfortran5)

sysroot="$dir/sysroot"
stamp="$dir/.done"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${pkgs[*]}" ] && [ -x "$sysroot/usr/bin/python3.11" ]; then
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  echo "board-python-sysroot: dpkg --add-architecture $arch"
  "${sudo[@]}" dpkg --add-architecture "$arch"
fi
# a mirror in the middle of a sync: the lists and the downloads again with a
# back-off, judged by whether the packages can be had (scripts/apt_retry.sh)
. "$(dirname "${BASH_SOURCE[0]}")/apt_retry.sh"
if ! apt_have "${pkgs[@]/%/:$arch}"; then
  echo "board-python-sysroot: apt-get update (the $arch package lists)"
  apt_update_for "${sudo[@]}" -- "${pkgs[@]/%/:$arch}"
fi

debs="$dir/debs"
mkdir -p "$debs"
have_deb() { compgen -G "$debs/${1}_*_$arch.deb" >/dev/null || compgen -G "$debs/${1}_*_all.deb" >/dev/null; }
all_debs() {  # every package's .deb is in $debs
  local p
  for p in "${pkgs[@]}"; do have_deb "$p" || return 1; done
}
need=()
for p in "${pkgs[@]}"; do
  have_deb "$p" || need+=("$p:$arch")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "board-python-sysroot: apt-get download ${#need[@]} packages for $arch"
  sandbox=()
  [ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)   # root writes into build/ itself
  (cd "$debs" && apt_retry "${sudo[@]}" -- all_debs -- "${APT_GET:-apt-get}" download -q "${sandbox[@]}" "${need[@]}")
fi

# unpack into a fresh tree, then swap it in: a failed run leaves no half sysroot
tmp="$dir/sysroot.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
for p in "${pkgs[@]}"; do
  for f in "$debs/${p}_"*"_$arch.deb" "$debs/${p}_"*"_all.deb"; do
    [ -f "$f" ] && dpkg -x "$f" "$tmp"
  done
done
# what update-alternatives would do on the board: the reference BLAS/LAPACK
lib="$tmp/usr/lib/$triplet"
ln -sf blas/libblas.so.3 "$lib/libblas.so.3"
ln -sf lapack/liblapack.so.3 "$lib/liblapack.so.3"
# the dynamic loader where binaries look for it (ld-linux-*.so.* under /lib)
if [ ! -e "$tmp/lib/ld-linux-aarch64.so.1" ] && [ ! -e "$tmp/lib/ld-linux-armhf.so.3" ]; then
  mkdir -p "$tmp/lib"
  for l in "$tmp/usr/lib/$triplet"/ld-linux-*.so.* "$tmp/lib/$triplet"/ld-linux-*.so.*; do
    [ -e "$l" ] && ln -sf "../${l#"$tmp"/}" "$tmp/lib/$(basename "$l")"
  done
fi
rm -rf "$sysroot"
mv "$tmp" "$sysroot"
echo "${pkgs[*]}" > "$stamp"
echo "board-python-sysroot: $sysroot ($(ls "$debs" | wc -l) packages, python3.11 for $arch)"
