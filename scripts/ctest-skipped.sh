#!/bin/sh
# SPDX-License-Identifier: MIT
# After `make check`: how many tests were skipped, and each one's reason (the
# "SKIP: ..." line it printed), which ctest does not show for a skipped test.
# Reads ctest's console output (BUILD_DIR/ctest.log, for which tests were
# skipped) and its log (for what each printed).
#
# usage: scripts/ctest-skipped.sh BUILD_DIR
b=$1
[ -r "$b/ctest.log" ] || exit 0
awk '
FNR == NR { if (match($0, / - [^ ]+ \(Skipped\)$/)) { t = substr($0, RSTART + 3); sub(/ \(Skipped\)$/, "", t); skipped[t] = 1; order[n++] = t } next }
/^[0-9]+\/[0-9]+ Testing: / { name = $3; next }
/^SKIP: / && name != "" && !(name in why) { s = $0; sub(/^.*SKIP: /, "", s); why[name] = s }
END {
	printf "make check: %d test%s skipped%s\n", n, n == 1 ? "" : "s", n ? ", for want of what this machine lacks:" : ""
	for (i = 0; i < n; i++) printf "  %s: %s\n", order[i], (order[i] in why) ? why[order[i]] : "no reason printed"
}' "$b/ctest.log" "$b/Testing/Temporary/LastTest.log"
# What scripts/deps.sh could not install (a broken index, a package the
# archive lacks): the tests above that need it skipped for that reason.
if [ -s "$b/deps-missing" ]; then
	echo "scripts/deps.sh could not install:"
	sed 's/^/  /; s/\t/: /' "$b/deps-missing"
fi
