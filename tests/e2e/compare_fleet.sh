#!/bin/sh
# compare across a fleet: runs labelled release=1 and release=2 on four
# boards; b2 lost 10% bandwidth, b3 gained 20% latency (lower is better),
# b1 is unchanged, b4 has no run of release 2. One verdict per board and
# benchmark, the regressions largest first, exit 1; the json form for CI;
# the same from a PostgreSQL store when one can be started.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without the results store"

# file BOARD RELEASE DAY BW_CENTRE LAT_CENTRE: a run with t.bw and t.lat, ten tight samples each
file() {
	f="$T/$1-$2.jsonl"
	printf '{"type":"run","schema":"perfguide/1","id":"%s-r%s","board":"%s","started":"2026-01-0%sT00:00:00Z","machine":{},"build":{"version":"t"},"config":{},"labels":{"release":"%s"}}\n' \
		"$1" "$2" "$1" "$3" "$2" >"$f"
	for m in "t.bw bandwidth MB/s higher $4" "t.lat latency us lower $5"; do
		set -- $m
		s=$(awk -v c="$5" 'BEGIN { for (i = 0; i < 10; i++) printf "%s%.3f", i ? "," : "", c * (1 + (i - 4.5) / 1000) }')
		printf '{"type":"result","bench":"%s","params":{"size":1024},"metric":"%s","unit":"%s","better":"%s","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
			"$1" "$2" "$3" "$4" "$s" "$5" "$5" "$5" >>"$f"
	done
	printf '{"type":"end","finished":"2026-01-01T00:01:00Z","status":"complete"}\n' >>"$f"
}
file b1 1 1 100 10
file b1 2 2 100 10
file b2 1 1 100 10
file b2 2 2 90 10
file b3 1 1 100 10
file b3 2 2 100 12
file b4 1 1 100 10
# an older run of release 2 on b2 that was better: the latest counts
file b2 0 1 100 10
sed 's/"release":"0"/"release":"2"/; s/"started":"2026-01-01/"started":"2025-12-31/' "$T/b2-0.jsonl" >"$T/b2-old2.jsonl"
sed -i 's/b2-r0/b2-old2/' "$T/b2-old2.jsonl"
rm "$T/b2-0.jsonl"

check() {
	db=$1
	"$PG" import --db "$db" "$T"/b*.jsonl >/dev/null || fail "import of the fleet into $db"
	set +e
	"$PG" compare --db "$db" --baseline-release 1 --release 2 >"$T/md" 2>"$T/err"
	rc=$?
	set -e
	[ $rc -eq 1 ] || fail "$db: a fleet with regressions: exit $rc ($(cat "$T/md" "$T/err"))"
	grep -q '^| b1 | b1-r1 | b1-r2 | 2 | 0 | 0 | pass |$' "$T/md" || fail "$db: b1: $(cat "$T/md")"
	grep -q '^| b2 | b2-r1 | b2-r2 | 2 | 1 | 0 | regressed |$' "$T/md" || fail "$db: b2: $(cat "$T/md")"
	grep -q '^| b4 | b4-r1 | - | | | | no run of 2 |$' "$T/md" || fail "$db: b4: $(cat "$T/md")"
	sed -n '/^Regressions/,$p' "$T/md" | grep '^| b' >"$T/regs"
	[ "$(sed -n 1p "$T/regs" | cut -d'|' -f2,6)" = " b3 | +20.0% " ] &&
		[ "$(sed -n 2p "$T/regs" | cut -d'|' -f2,6)" = " b2 | -10.0% " ] &&
		[ "$(wc -l <"$T/regs")" -eq 2 ] || fail "$db: regressions not largest first: $(cat "$T/md")"
	set +e
	"$PG" compare --db "$db" --baseline-release 1 --release 2 --format json >"$T/json"
	set -e
	python3 - "$T/json" <<'PY' || fail "$db: json: $(cat "$T/json")"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["baseline_release"] == "1" and o["release"] == "2" and o["regressed"] == 2, o
b = {x["board"]: x for x in o["boards"]}
assert sorted(b) == ["b1", "b2", "b3"], b.keys()
assert [x["board"] for x in o["missing"]] == ["b4"] and o["missing"][0]["missing_release"] == "2"
assert b["b2"]["verdict"] == "regressed" and b["b1"]["verdict"] == "pass"
v = {(r["bench"], r["verdict"]) for r in b["b3"]["results"]}
assert v == {("t.bw", "within noise"), ("t.lat", "regressed")}, v
assert [(r["board"], r["bench"]) for r in o["regressions"]] == [("b3", "t.lat"), ("b2", "t.bw")], o["regressions"]
PY
	"$PG" compare --db "$db" --baseline-release 1 --release 2 --board b1 >"$T/md1" || fail "$db: b1 alone regressed"
	cp "$T/md" "$T/md.$2"
	cp "$T/json" "$T/json.$2"
}
check "$T/fleet.db" sqlite
expect_usage_error "no such release" compare --db "$T/fleet.db" --baseline-release 1 --release 7
expect_usage_error "release alone" compare --db "$T/fleet.db" --release 2
expect_usage_error "same release" compare --db "$T/fleet.db" --baseline-release 2 --release 2
expect_usage_error "runs and releases" compare --db "$T/fleet.db" --baseline-release 1 --release 2 b1 b2

. "$PG_SOURCE_DIR/tests/pg/server.sh"
trap 'pg_server_stop; rm -rf "$T"' EXIT
if pg_server_start; then
	U=$(pg_newdb fleet)
	if "$PG" runs --db "$U" 2>&1 | grep -q 'without libpq'; then
		echo "PostgreSQL part skipped: built without libpq"
	else
		check "$U" pgsql
		cmp -s "$T/md.sqlite" "$T/md.pgsql" && cmp -s "$T/json.sqlite" "$T/json.pgsql" ||
			fail "the fleet compare differs between SQLite and PostgreSQL"
	fi
else
	echo "PostgreSQL part skipped: $PG_SERVER_WHY"
fi
echo ok
