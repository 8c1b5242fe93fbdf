#!/bin/sh
# SPDX-License-Identifier: MIT
# The size rule of the developer page, kept: no function over 80 lines and no
# C file over 800 in src/, outside the ported reference programs
# (src/bench/*/ref/, which stay as their authors wrote them). Prints one line
# per offender, FILE:LINE: what, and exits 1 when there is one.
#
# A function is counted from the line that names it to its closing brace,
# both included: the tree's style (.clang-format) puts a function's braces
# alone at the start of a line, and only there.
#
# usage: scripts/check-size.sh [SOURCE_DIR]   (default: the tree this script is in)
# PG_SIZE_FUNC and PG_SIZE_FILE change the limits (to list the functions over
# 60 lines, say).
set -eu
top=${1:-$(dirname "$0")/..}
cd "$top"
func_max=${PG_SIZE_FUNC:-80}
file_max=${PG_SIZE_FILE:-800}

# Known exceptions, FILE:FUNCTION, each with why; remove a line when its
# function is split.
exceptions='
'

files=$(find src -name '*.[ch]' ! -path 'src/bench/*/ref/*' | LC_ALL=C sort)
# shellcheck disable=SC2086 # the tree's file names have no spaces
awk -v func_max="$func_max" -v file_max="$file_max" -v exceptions="$exceptions" '
BEGIN {
	n = split(exceptions, ex, "\n")
	for (i = 1; i <= n; i++)
		if (ex[i] != "")
			known[ex[i]] = 1
	bad = 0
}
FNR == 1 {
	if (prev != "" && lines > file_max) {
		print prev ": " lines " lines, over " file_max
		bad = 1
	}
	cand = 0; start = 0; name = ""
}
{ prev = FILENAME; lines = FNR }
# a definition begins at column 0 with an identifier and a parenthesis
start == 0 && /^[A-Za-z_][A-Za-z0-9_ \t\*]*[A-Za-z0-9_]+\(/ && !/;[ \t]*$/ {
	cand = FNR
	s = $0
	sub(/\(.*/, "", s)
	sub(/.*[ \t\*]/, "", s)
	name = s
	next
}
start == 0 && cand && /^\{/ { start = cand; next }
start == 0 && cand && /;[ \t]*$/ { cand = 0 }
start && /^\}/ {
	len = FNR - start + 1
	if (len > func_max && !((FILENAME ":" name) in known)) {
		print FILENAME ":" start ": " name "() is " len " lines, over " func_max
		bad = 1
	}
	start = 0; cand = 0
}
END {
	if (prev != "" && lines > file_max) {
		print prev ": " lines " lines, over " file_max
		bad = 1
	}
	exit bad
}' $files || exit 1
