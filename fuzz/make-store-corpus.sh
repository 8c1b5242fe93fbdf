#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the seeds of fuzz/corpus/store (fuzz/store.c): stores perfguide made
# from the results corpus, in 512-byte pages (small inputs fuzz faster), and
# the hostile stores of issue 26 (a view in place of runs, a trigger, a
# table of someone else's, schema versions out of range, an empty store).
# The files it makes are committed; run it again only to remake them.
#
# usage: fuzz/make-store-corpus.sh PERFGUIDE [DIR]   (DIR: fuzz/corpus/store)
set -eu
PG=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$top/fuzz/corpus/store}
C=$top/fuzz/corpus/results
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$out"
export XDG_DATA_HOME="$T/xdg"

sql() {
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit(); c.execute("VACUUM")' "$@"
}
# store NAME FILE...: a store of those results files, small pages.
store() {
	name=$1
	shift
	sql "$T/$name" "PRAGMA page_size = 512"
	"$PG" import --db "$T/$name" "$@" >/dev/null
	sql "$T/$name" "PRAGMA user_version = 0"
}

store mem-bw-rd.db "$C/mem-bw-rd.jsonl"
store two-boards.db "$C/seed-two-boards.jsonl"
store markup.db "$C/markup.jsonl" "$C/lava-forge.jsonl"
store long-labels.db "$C/long-labels.jsonl"
for s in mem-bw-rd two-boards markup long-labels; do
	cp "$T/$s.db" "$out/$s.db"
done
# issue 26, defect 8: a view in place of runs (an endless query), a trigger
cp "$T/mem-bw-rd.db" "$T/view.db"
sql "$T/view.db" "DROP TABLE runs; CREATE VIEW runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
	SELECT 'r' || x AS id, 'b' AS board, NULL AS started, NULL AS finished, NULL AS status, NULL AS version,
	NULL AS machine_id, NULL AS build, NULL AS config, NULL AS source, NULL AS added, NULL AS sections,
	NULL AS labels FROM c"
cp "$T/view.db" "$out/view-runs.db"
cp "$T/mem-bw-rd.db" "$T/trigger.db"
sql "$T/trigger.db" "CREATE TRIGGER t AFTER INSERT ON results BEGIN DELETE FROM runs; END"
cp "$T/trigger.db" "$out/trigger.db"
cp "$T/mem-bw-rd.db" "$T/extra.db"
sql "$T/extra.db" "CREATE TABLE notes(x); ALTER TABLE runs ADD COLUMN g AS (length(id)) VIRTUAL"
cp "$T/extra.db" "$out/extra-objects.db"
# defect 2: versions beyond 32 bits and below 1, and one that is text
for v in 4294967300:big -3:negative "'4x'":text; do
	cp "$T/mem-bw-rd.db" "$T/v.db"
	sql "$T/v.db" "UPDATE perfguide_schema SET version = ${v%:*}"
	cp "$T/v.db" "$out/version-${v#*:}.db"
done
# defect 9: a store without runs
cp "$T/mem-bw-rd.db" "$T/empty.db"
sql "$T/empty.db" "DELETE FROM runs"
cp "$T/empty.db" "$out/no-runs.db"
ls "$out"
