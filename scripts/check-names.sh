#!/bin/sh
# SPDX-License-Identifier: MIT
# The naming rule (docs/architecture.md, "Names"): every name an object file
# of perfguide exports begins with pg_, or with the prefix its part of the
# tree documents: a benchmark group's name (audio_, can_, ...; storage's is
# st_), the network's net_ (src/net and src/bench/net share it), the run,
# compare and ab subcommands' run_, compare_ and ab_ (src/cli/run*.c,
# compare*.c, ab*.c), the stores' sq_ (SQLite) and pq_ (PostgreSQL). Prints one
# line per other name, FILE: NAME, and exits 1 when there is one.
#
# usage: scripts/check-names.sh OBJECT_DIR
#   OBJECT_DIR: where the build put pgcore's objects, BUILD/CMakeFiles/pgcore.dir
set -eu
dir=$1
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm (binutils) is not installed" >&2; exit 77; }
objs=$(find "$dir" -name '*.o' 2>/dev/null | LC_ALL=C sort)
[ -n "$objs" ] || { echo "SKIP: no object files under $dir (another generator's layout?)" >&2; exit 77; }

# One nm for all (-A: each line names its object file); the ported
# reference programs (src/bench/*/ref/) keep their authors' names; the
# compiler's and the sanitizers' own names begin with "__" or ".".
# shellcheck disable=SC2086 # object paths have no spaces
nm -A -g --defined-only $objs | awk -v dir="$dir/" '
{
	f = $1
	sub(/:[^:]*$/, "", f)
	if (index(f, dir) == 1)
		f = substr(f, length(dir) + 1)
	sub(/\.o$/, "", f)
	if (NF == 3 && $3 !~ /^(__|\.)/ && f !~ /^src\/bench\/[^\/]+\/ref\//)
		print f, $3
}' | awk '
BEGIN { bad = 0 }
function accepted(f, name,    p) {
	if (name ~ /^pg_/ || name == "main")
		return 1
	if (f ~ /^src\/bench\/storage\//)
		return name ~ /^st_/
	if (f ~ /^src\/bench\/net\// || f ~ /^src\/net\//)
		return name ~ /^net_/
	if (f ~ /^src\/bench\/[^\/]+\//) {
		split(f, p, "/")
		return index(name, p[3] "_") == 1
	}
	if (f ~ /^src\/cli\/run/)
		return name ~ /^run_/
	if (f ~ /^src\/cli\/compare/)
		return name ~ /^compare_/
	if (f ~ /^src\/cli\/ab/)
		return name ~ /^ab_/
	if (f ~ /^src\/store\/store_sqlite/)
		return name ~ /^sq_/
	if (f ~ /^src\/store\/(store_pgsql|pq_dl)/)
		return name ~ /^pq_/
	return 0
}
{
	if (!accepted($1, $2)) {
		print $1 ": " $2 " has no accepted prefix"
		bad = 1
	}
}
END { exit bad }' || exit 1
