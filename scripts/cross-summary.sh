#!/bin/sh
# SPDX-License-Identifier: MIT
# The last lines of `make cross-aarch64` / `make cross-armhf`: what the board
# binary is (size, static, stripped) and which optional libraries it has,
# as the binary itself says (`perfguide info`, run under qemu-user).
#
# usage: scripts/cross-summary.sh BINARY QEMU   (QEMU: qemu-aarch64, qemu-arm)
set -eu
bin=$1 qemu=$2
[ -x "$bin" ] || { echo "cross-summary: no binary at $bin" >&2; exit 1; }
bytes=$(wc -c <"$bin")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')
how=""
if command -v readelf >/dev/null 2>&1 || command -v "${qemu#qemu-}-linux-gnu-readelf" >/dev/null 2>&1; then
	re=readelf
	command -v readelf >/dev/null 2>&1 || re="${qemu#qemu-}-linux-gnu-readelf"
	if $re -l "$bin" 2>/dev/null | grep -q 'Requesting program interpreter'; then how="dynamic"; else how="static"; fi
	if $re -S "$bin" 2>/dev/null | grep -q '\.symtab'; then how="$how, not stripped"; else how="$how, stripped"; fi
fi
echo "$bin: ${how:+$how, }$mb MB ($bytes bytes)"
if command -v "$qemu" >/dev/null 2>&1; then
	# The binary's own account of its backends (the same lines `perfguide
	# info` prints on the board).
	"$qemu" "$bin" info 2>/dev/null | sed -n 's/^\(backends\|without\) \{1,\}/\1: /p'
else
	echo "($qemu is not installed: run '$bin info' on the board to see its backends)"
fi
