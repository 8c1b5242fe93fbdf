#!/bin/sh
# SPDX-License-Identifier: MIT
# compare across a fleet: runs labelled release=1 and release=2 on six
# boards, two runs of each release per board (its replicates); b2 lost 10%
# bandwidth, b3 gained 20% latency (lower is better), b1 is unchanged, b4
# has no run of release 2, b5's second release-2 run crashed (no end
# record), b6's failed in every result. One verdict per board and
# benchmark, the regressions largest first, exit 1; the json form for CI;
# the same from a PostgreSQL store when one can be started.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without the results store"

# file BOARD RELEASE N BW_CENTRE LAT_CENTRE [crash|error]: run N of a
# release, with t.bw and t.lat, ten tight samples each
file() {
	f="$T/$1-$2$3.jsonl"
	printf '{"type":"run","schema":"perfguide/1","id":"%s-r%s%s","board":"%s","started":"2026-01-0%s%sT00:00:00Z","machine":{},"build":{"version":"t"},"config":{},"labels":{"release":"%s"}}\n' \
		"$1" "$2" "$3" "$1" "$2" "$3" "$2" >"$f"
	how=${6:-}
	for m in "t.bw bandwidth MB/s higher $4" "t.lat latency us lower $5"; do
		set -- $m
		if [ "$how" = error ]; then
			printf '{"type":"result","bench":"%s","params":{"size":1024},"metric":"%s","status":"error","reason":"it broke"}\n' "$1" "$2" >>"$f"
			continue
		fi
		s=$(awk -v c="$5" 'BEGIN { for (i = 0; i < 10; i++) printf "%s%.3f", i ? "," : "", c * (1 + (i - 4.5) / 1000) }')
		printf '{"type":"result","bench":"%s","params":{"size":1024},"metric":"%s","unit":"%s","better":"%s","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
			"$1" "$2" "$3" "$4" "$s" "$5" "$5" "$5" >>"$f"
		[ "$how" = crash ] && return
	done
	printf '{"type":"end","finished":"2026-01-01T00:01:00Z","status":"complete"}\n' >>"$f"
}
for n in a b; do
	d=$([ $n = a ] && echo 100 || echo 101)
	file b1 1 $n $d 10
	file b1 2 $n $d 10
	file b2 1 $n $d 10
	file b2 2 $n "$(awk -v d=$d "BEGIN { print d * 0.9 }")" 10
	file b3 1 $n $d 10
	file b3 2 $n $d 12
	file b4 1 $n $d 10
	file b5 1 $n $d 10
	file b6 1 $n $d 10
done
file b5 2 a 100 10
file b5 2 b 100 10 crash
file b6 2 a 100 10 error
file b6 2 b 100 10 error

check() {
	db=$1
	"$PG" import --db "$db" "$T"/b*.jsonl >/dev/null || fail "import of the fleet into $db"
	set +e
	"$PG" compare --db "$db" --baseline-release 1 --release 2 >"$T/md" 2>"$T/err"
	rc=$?
	set -e
	[ $rc -eq 1 ] || fail "$db: a fleet with regressions: exit $rc ($(cat "$T/md" "$T/err"))"
	grep -q '^| b1 | b1-r1b (+1) | b1-r2b (+1) | 2 | 0 | 0 | pass |$' "$T/md" || fail "$db: b1: $(cat "$T/md")"
	grep -q '^| b2 | b2-r1b (+1) | b2-r2b (+1) | 2 | 1 | 0 | regressed |$' "$T/md" || fail "$db: b2: $(cat "$T/md")"
	grep -q '^| b4 | b4-r1b (+1) | - | | | | no run of 2 |$' "$T/md" || fail "$db: b4: $(cat "$T/md")"
	grep -q '^| b5 | .* | failed |$' "$T/md" || fail "$db: b5 crashed: $(cat "$T/md")"
	grep -q '^- NEW run b5-r2b has no end record' "$T/md" || fail "$db: b5 crash not said: $(cat "$T/md")"
	grep -q '^| b6 | .* | 0 | 0 | 0 | failed |$' "$T/md" || fail "$db: b6 all errors: $(cat "$T/md")"
	grep -q '^- t.bw size=1k: failed in run b6-r2a: it broke' "$T/md" || fail "$db: b6 errors not listed: $(cat "$T/md")"
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
assert o["baseline_release"] == "1" and o["release"] == "2" and o["regressed"] == 2 and o["exit"] == 1, o
b = {x["board"]: x for x in o["boards"]}
assert sorted(b) == ["b1", "b2", "b3", "b5", "b6"], b.keys()
assert [x["board"] for x in o["missing"]] == ["b4"] and o["missing"][0]["missing_release"] == "2"
assert b["b2"]["verdict"] == "regressed" and b["b1"]["verdict"] == "pass" and b["b1"]["exit"] == 0
assert b["b5"]["verdict"] == "failed" and b["b6"]["verdict"] == "failed"
assert b["b2"]["new_runs"] == ["b2-r2a", "b2-r2b"], b["b2"]
v = {(r["bench"], r["verdict"]) for r in b["b3"]["results"]}
assert v == {("t.bw", "within noise"), ("t.lat", "regressed")}, v
assert {(l["bench"], l["what"]) for l in b["b6"]["lost"]} == {("t.bw", "failed"), ("t.lat", "failed")}, b["b6"]
assert [(r["board"], r["bench"]) for r in o["regressions"]] == [("b3", "t.lat"), ("b2", "t.bw")], o["regressions"]
PY
	"$PG" compare --db "$db" --baseline-release 1 --release 2 --board b1 >"$T/md1" || fail "$db: b1 alone failed"
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
