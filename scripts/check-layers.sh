#!/bin/sh
# SPDX-License-Identifier: MIT
# The layering rule (docs/architecture.md, "Layers"): each part of src/ may
# include only the parts its line there names. The rules are read from that
# page, between the markers <!-- layers --> and <!-- /layers -->, so they are
# written once. Each #include "X" of a file under src/ is resolved as the
# compiler does (the including file's folder, then src/; else it is a
# generated header, which any part may include) and the part it lands in is
# checked against the includer's line. Prints one line per include across a
# forbidden line, FILE: includes PATH (PART may not include PART), and exits
# 1 when there is one.
#
# usage: scripts/check-layers.sh [SOURCE_DIR]   (default: this tree)
set -eu
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
doc=$top/docs/architecture.md
[ -d "$top/src" ] && [ -f "$doc" ] || { echo "check-layers: no src/ and docs/architecture.md under $top" >&2; exit 2; }
rules=$(sed -n '/<!-- layers -->/,/<!-- \/layers -->/p' "$doc" | sed -n 's/^    \([a-z]*\):\(.*\)$/\1:\2/p')
[ -n "$rules" ] || { echo "check-layers: no layer rules in $doc" >&2; exit 2; }

cd "$top/src"
# "FILE TARGET" for every quoted include: TARGET resolved to a path under
# src/, or "-" when it is generated (pg_build.h, pg_groups.c's registry).
find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
	dir=$(dirname "$f")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		if [ -f "$dir/$inc" ]; then
			t=$dir/$inc
		elif [ -f "$inc" ]; then
			t=$inc
		else
			t=-
		fi
		echo "$f $t"
	done
done | awk -v rules="$rules" '
function part(p) {
	if (p == "-") return "-"
	sub(/^\.\//, "", p)
	while (p ~ /(^|\/)[^\/]+\/\.\.\//) sub(/[^\/]+\/\.\.\//, "", p)
	if (p !~ /\//) return "main"
	return substr(p, 1, index(p, "/") - 1)
}
BEGIN {
	n = split(rules, line, "\n")
	for (i = 1; i <= n; i++) {
		name = substr(line[i], 1, index(line[i], ":") - 1)
		known[name] = 1
		k = split(substr(line[i], index(line[i], ":") + 1), dep, " ")
		for (j = 1; j <= k; j++) may[name, dep[j]] = 1
	}
	bad = 0
}
{
	from = part($1); to = part($2)
	if (to == "-" || to == from) next
	if (!(from in known)) { printf "%s: part %s has no line in the layer rules\n", $1, from; bad = 1; next }
	if (!((from, to) in may)) { printf "%s: includes %s (%s may not include %s)\n", $1, $2, from, to; bad = 1 }
}
END { exit bad }'
