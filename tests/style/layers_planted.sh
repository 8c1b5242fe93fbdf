#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/check-layers.sh must fail on an include across a forbidden line:
# a copy of src/ and the rules, one forbidden include planted in each of
# the ways the rules forbid (a benchmark including cli/, the gate
# including the guide, core including the store), each run on its own.
set -eu
top=${1:?usage: layers_planted.sh SOURCE_DIR}
w=$(mktemp -d "${TMPDIR:-/tmp}/pg-layers.XXXXXX")
trap 'rm -rf "$w"' EXIT
plant() {	# FILE INCLUDE: a fresh copy with one line added; 0 when the check fails on it
	rm -rf "$w/t"; mkdir -p "$w/t/docs"
	cp -R "$top/src" "$w/t/src"; cp "$top/docs/architecture.md" "$w/t/docs/"
	printf '#include "%s"\n' "$2" >>"$w/t/src/$1"
	if out=$(sh "$top/scripts/check-layers.sh" "$w/t" 2>&1); then
		echo "FAIL: $1 including $2 passed the layer check"; return 1
	fi
	echo "$out" | grep -q "src/\{0,1\}$1: includes" || echo "$out" | grep -q "^$1: includes" ||
		{ echo "FAIL: the check failed without naming $1: $out"; return 1; }
	echo "ok: $out"
}
sh "$top/scripts/check-layers.sh" "$top"
plant bench/os/proc.c cli/cli.h
plant gate/compare_out.c guide/writer.h
plant core/runner.c store/store.h
plant store/store.c guide/guide.h
plant bench/mem/mem.c runs/rundata.h
