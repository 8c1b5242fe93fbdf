#!/bin/sh
# SPDX-License-Identifier: MIT
# The PostgreSQL store, on a throwaway server (tests/pg/server.sh): the seed
# fixtures render the same guide from it, byte for byte, as from SQLite;
# runs, compare and history say the same; 16 concurrent imports of different runs
# into an empty database all land; the same run imported twice at once lands
# once; an import is one transaction and a broken file changes nothing;
# `run` follows into it through PERFGUIDE_DB with its labels.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without the results store"
. "$PG_SOURCE_DIR/tests/pg/server.sh"
trap 'pg_server_stop; rm -rf "$T"' EXIT
pg_server_start || skip "$PG_SERVER_WHY"
F="$PG_SOURCE_DIR/tests/fixtures"
set +e
"$PG" runs --db "postgresql:///nodb?host=$PG_SERVER_DIR&user=perfguide" >"$T/out" 2>"$T/err"
rc=$?
set -e
grep -q 'without libpq' "$T/err" && skip "built without libpq: $(cat "$T/err")"
[ $rc -eq 2 ] && grep -q 'cannot connect.*nodb' "$T/err" || fail "no such database: exit $rc: $(cat "$T/err")"

U=$(pg_newdb seed)
"$PG" import --db "$U" "$F"/seed-*.jsonl >"$T/out" || fail "import into PostgreSQL failed: $(cat "$T/out")"
[ "$(grep -c ' imported$' "$T/out")" -eq 7 ] || fail "expected 7 runs imported: $(cat "$T/out")"
"$PG" import --db "$T/s.db" "$F"/seed-*.jsonl >/dev/null || fail "import into SQLite failed"
mkdir "$T/pg" "$T/sq"
for fmt in md rst csv json html; do
	"$PG" report --db "$U" --format $fmt -o "$T/pg/guide.$fmt" 2>/dev/null || fail "report --format $fmt from PostgreSQL"
	"$PG" report --db "$T/s.db" --format $fmt -o "$T/sq/guide.$fmt" 2>/dev/null || fail "report --format $fmt from SQLite"
done
# every guide and every chart beside them the same
diff -r "$T/pg" "$T/sq" >"$T/diff" || fail "the guides differ between the stores: $(head -5 "$T/diff")"
ls "$T/pg" | grep -q '^guide-lmbench-1.svg$' || fail "no charts beside the md and rst guides"
"$PG" report --db "$U" --board j7200-evm --baseline j7200-evm --board am68_sk-fs -o "$T/pg/base.md" 2>/dev/null
"$PG" report --db "$T/s.db" --board j7200-evm --baseline j7200-evm --board am68_sk-fs -o "$T/sq/base.md" 2>/dev/null
diff -r "$T/pg" "$T/sq" >/dev/null || fail "report --baseline differs between the stores"
"$PG" runs --db "$U" --json >"$T/pg.runs"
"$PG" runs --db "$T/s.db" --json >"$T/sq.runs"
cmp -s "$T/pg.runs" "$T/sq.runs" || fail "runs differ: $(diff "$T/sq.runs" "$T/pg.runs" | head -5)"
set +e
"$PG" compare --db "$U" j7200-evm j721e-idk-gw --format json >"$T/pg.cmp"
a=$?
"$PG" compare --db "$T/s.db" j7200-evm j721e-idk-gw --format json >"$T/sq.cmp"
b=$?
set -e
[ $a -eq $b ] && cmp -s "$T/pg.cmp" "$T/sq.cmp" || fail "compare differs between the stores (exit $a, $b)"

# Two releases of the fleet: --release gives the guide of one, the same
# from both stores.
UR=$(pg_newdb rel)
for r in 09.01 09.02; do
	for b in am68_sk-fs j721e-idk-gw; do
		sed "s/seed-$b/rel-$r-$b/; s/\"config\":{}/\"config\":{},\"labels\":{\"release\":\"$r\"}/" "$F/seed-$b.jsonl" >"$T/rel-$r-$b.jsonl"
	done
	# 09.01's figures are a tenth of 09.02's: which release a cell is from shows
	[ $r = 09.01 ] && sed -i 's/"median":\([0-9.]*\),/"median":0.1,/' "$T"/rel-$r-*.jsonl
done
"$PG" import --db "$UR" "$T"/rel-*.jsonl >/dev/null || fail "import of two releases into PostgreSQL"
"$PG" import --db "$T/rel.db" "$T"/rel-*.jsonl >/dev/null || fail "import of two releases into SQLite"
"$PG" report --db "$UR" --release 09.02 >"$T/pg-rel.md" 2>/dev/null || fail "report --release 09.02 from PostgreSQL"
"$PG" report --db "$T/rel.db" --release 09.02 >"$T/sq-rel.md" 2>/dev/null || fail "report --release 09.02 from SQLite"
cmp -s "$T/pg-rel.md" "$T/sq-rel.md" || fail "report --release differs between the stores"
grep -q '^Made on .* from 2 board columns; release 09.02\.\( \|$\)' "$T/pg-rel.md" || fail "the guide does not say its release: $(sed -n 3p "$T/pg-rel.md")"
grep -q '| Labels | release=09.02 | release=09.02 |' "$T/pg-rel.md" || fail "machine table labels: $(grep Labels "$T/pg-rel.md")"
grep -q '^| bw_mem-bcopy-1mb (MB/s) | 4779.41 |' "$T/pg-rel.md" || fail "not 09.02's figures: $(grep bw_mem-bcopy-1mb "$T/pg-rel.md")"
grep -q 'rel-09.01' "$T/pg-rel.md" && fail "a run of 09.01 in the guide of 09.02"
# without --release: a column per board and release, side by side
"$PG" report --db "$UR" >"$T/both.md" 2>/dev/null || fail "report of two releases"
grep -q '^| Benchmarks | am68_sk-fs (release=09.01) | am68_sk-fs (release=09.02) |' "$T/both.md" ||
	fail "columns per release: $(grep '^| Benchmarks' "$T/both.md")"
expect_usage_error "no such release" report --db "$UR" --release 10.00
grep -q 'no runs with release=10.00' "$T/err" || fail "no such release: $(cat "$T/err")"
# history: a board's runs without their samples, the same from both stores
for fmt in md json svg html; do
	"$PG" history --db "$UR" --board am68_sk-fs --format $fmt >"$T/pg-h.$fmt" || fail "history --format $fmt from PostgreSQL"
	"$PG" history --db "$T/rel.db" --board am68_sk-fs --format $fmt >"$T/sq-h.$fmt" || fail "history --format $fmt from SQLite"
	cmp -s "$T/pg-h.$fmt" "$T/sq-h.$fmt" || fail "history --format $fmt differs between the stores"
done
grep -q '^2 runs, [0-9]* rows, 0 change points\.' "$T/pg-h.md" || fail "history from PostgreSQL: $(sed -n 3p "$T/pg-h.md")"

# 16 runs imported at once into an empty database: the schema is made once
# and every run lands with every result and sample.
U16=$(pg_newdb c16)
pids=""
for i in $(seq -w 1 16); do
	sed "s/seed-j7200-evm/conc-$i/; s/\"board\":\"j7200-evm\"/\"board\":\"conc-$i\"/" "$F/seed-j7200-evm.jsonl" >"$T/c$i.jsonl"
done
for i in $(seq -w 1 16); do
	"$PG" import --db "$U16" "$T/c$i.jsonl" >"$T/c$i.out" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "a concurrent import failed: $(cat "$T"/c*.out | grep -v ' imported$')"
done
[ "$(cat "$T"/c*.out | grep -c ' imported$')" -eq 16 ] || fail "not every import says imported: $(cat "$T"/c*.out)"
[ "$("$PG" runs --db "$U16" | grep -c ' 115  complete$')" -eq 16 ] || fail "runs: $("$PG" runs --db "$U16")"
n=$(grep -o '"samples":\[[^]]*\]' "$F/seed-j7200-evm.jsonl" | tr -cd ',[' | wc -c)
got=$(pg_psql c16 -At -c "SELECT count(*) FROM samples")
[ "$got" -eq $((16 * n)) ] || fail "16 imports kept $got samples, expected $((16 * n))"

# The same run from two machines at once lands once.
for round in 1 2 3; do
	sed "s/seed-j7200-evm/twice-$round/" "$F/seed-j7200-evm.jsonl" >"$T/tw.jsonl"
	"$PG" import --db "$U16" "$T/tw.jsonl" >"$T/tw1.out" 2>&1 &
	p1=$!
	"$PG" import --db "$U16" "$T/tw.jsonl" >"$T/tw2.out" 2>&1 &
	p2=$!
	wait $p1 || fail "import twice: $(cat "$T/tw1.out")"
	wait $p2 || fail "import twice: $(cat "$T/tw2.out")"
	[ "$(cat "$T/tw1.out" "$T/tw2.out" | grep -c ' imported$')" -eq 1 ] &&
		[ "$(cat "$T/tw1.out" "$T/tw2.out" | grep -c 'already in the store')" -eq 1 ] ||
		fail "round $round: $(cat "$T/tw1.out" "$T/tw2.out")"
	[ "$(pg_psql c16 -At -c "SELECT count(*) FROM results WHERE run_id = 'twice-$round'")" -eq 115 ] ||
		fail "round $round: the run's results are not there once"
done

# A broken file changes nothing; a file the server refuses half-way (a
# writer that may not add samples) leaves nothing of it: one transaction.
dump() { pg_psql c16 -At -c "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM results), (SELECT count(*) FROM samples), (SELECT count(*) FROM machines)"; }
before=$(dump)
head -n 5 "$F/seed-am68_sk-fs.jsonl" | sed 's/seed-am68_sk-fs/bad-run/' >"$T/bad.jsonl"
echo '{"type":"result","bench":' >>"$T/bad.jsonl"
expect_usage_error "corrupt file" import --db "$U16" "$T/bad.jsonl"
grep -q 'line 6: not JSON' "$T/err" || fail "corrupt line: $(cat "$T/err")"
pg_psql c16 -c "CREATE ROLE writer LOGIN; GRANT SELECT, INSERT, UPDATE, DELETE ON runs, results, machines TO writer;
	GRANT SELECT ON samples, perfguide_schema TO writer; GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO writer"
set +e
"$PG" import --db "postgresql:///c16?host=$PG_SERVER_DIR&user=writer" "$F/seed-am68_sk-fs.jsonl" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "an import the server refused: exit $rc ($(cat "$T/err"))"
grep -q 'nothing of it was added' "$T/err" && grep -q 'permission denied' "$T/err" || fail "refused import: $(cat "$T/err")"
grep -q 'postgresql://writer@/c16' "$T/err" || fail "the refusal does not name the store: $(cat "$T/err")"
[ "$(dump)" = "$before" ] || fail "the store changed: $before -> $(dump)"

# The schema version (issue 26, defect 2): the rules SQLite's store has. A
# version below 1 is refused in one line by every command (it indexed the
# migrations below their start); a newer store, of a version beyond 32 bits
# too, is read by runs and report and never written.
UV=$(pg_newdb ver)
"$PG" import --db "$UV" "$F/seed-j7200-evm.jsonl" >/dev/null || fail "import into the version database"
for v in -3 0; do
	pg_psql ver -c "UPDATE perfguide_schema SET version = $v"
	expect_usage_error "schema $v: runs" runs --db "$UV"
	grep -q "schema version $v is not one perfguide writes" "$T/err" || fail "schema $v: $(cat "$T/err")"
	expect_usage_error "schema $v: import" import --db "$UV" "$F/seed-j721e-idk-gw.jsonl"
done
pg_psql ver -c "ALTER TABLE perfguide_schema ALTER COLUMN version TYPE BIGINT; UPDATE perfguide_schema SET version = 4294967300"
"$PG" runs --db "$UV" | grep -q j7200 || fail "a newer store: runs does not read it: $("$PG" runs --db "$UV" 2>&1)"
"$PG" report --db "$UV" 2>/dev/null | grep -q '^## ' || fail "a newer store: report does not read it"
expect_usage_error "a newer store: import" import --db "$UV" "$F/seed-j721e-idk-gw.jsonl"
grep -q 'knows schema 4294967300' "$T/err" || fail "a newer store: $(cat "$T/err")"
[ "$(pg_psql ver -At -c "SELECT count(*) FROM runs")" -eq 1 ] || fail "a newer store was written to"
pg_psql ver -c "ALTER TABLE results RENAME COLUMN median TO middle"
expect_usage_error "a newer store without a column read" runs --db "$UV"
grep -q 'use a perfguide that knows schema 4294967300' "$T/err" || fail "a newer store without median: $(cat "$T/err")"

# run adds to it as it goes, through PERFGUIDE_DB, with its labels.
PERFGUIDE_DB="$U16" "$PG" run mem.bw.rd -p size=64k $FAST --board pg-board --label release=09.02 \
	--out "$T/r.jsonl" >/dev/null 2>&1 || fail "run with PERFGUIDE_DB failed"
"$PG" runs --db "$U16" --json | grep -q '"release": "09.02"' || fail "run's labels not in the store: $("$PG" runs --db "$U16" --json | tail -20)"
PERFGUIDE_DB="$U16" "$PG" runs | grep -q 'pg-board .* 1  complete' || fail "run did not reach the PostgreSQL store"
PERFGUIDE_DB="$U16" "$PG" import "$T/r.jsonl" | grep -q 'already in the store' || fail "run + import duplicated"
echo ok
