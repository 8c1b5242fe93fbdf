#!/bin/sh
# SPDX-License-Identifier: MIT
# compare with a board's history in the store: one run a side takes each
# row's spread between runs from the board's earlier runs (its noise
# profile) instead of a fixed allowance, and says so; --history K judges
# NEW against the K runs before it. A quiet history (0.5%): 10% slower is
# regressed (exit 1), the same level within noise (exit 0). Six runs that
# vary 20%: 10% slower is undecided (exit 3), never within noise, with how
# many more runs would decide it. Without a history one run a side is
# undecided. A fleet's boards take their profiles the same way.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_json
need_python

# run FILE ID BOARD LEVEL MINUTE [RELEASE]: appends a run of one result, ten
# samples within 0.1% of LEVEL, started at that minute
run() {
	awk -v f="$1" -v id="$2" -v b="$3" -v c="$4" -v m="$5" -v rel="${6:-}" 'BEGIN {
		lab = rel == "" ? "" : sprintf(",\"labels\":{\"release\":\"%s\"}", rel)
		s = ""
		for (i = 0; i < 10; i++) s = s sprintf("%s%.4f", i ? "," : "", c * (1 + (i - 4.5) / 10000))
		printf "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"%s\",\"board\":\"%s\",\"started\":\"2026-02-01T00:%02d:00Z\",\"machine\":{},\"build\":{\"version\":\"t\",\"compiler\":\"cc\"},\"config\":{\"suite\":\"quick\"}%s}\n", id, b, m, lab >> f
		printf "{\"type\":\"result\",\"bench\":\"t.bw\",\"params\":{},\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"better\":\"higher\",\"samples\":[%s],\"median\":%.4f,\"min\":%.4f,\"max\":%.4f,\"status\":\"ok\"}\n", s, c, c * 0.9995, c * 1.0005 >> f
		printf "{\"type\":\"end\",\"finished\":\"2026-02-01T00:%02d:30Z\",\"status\":\"complete\"}\n", m >> f
	}'
}
expect() { # expect RC what args...
	want=$1 what=$2
	shift 2
	set +e
	"$PG" compare "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ $rc -eq "$want" ] || fail "$what: exit $rc, expected $want: $(cat "$T/out" "$T/err")"
}
# verdict FILE: the one row's verdict, spread and how many more, from JSON
verdict() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(r["verdict"], r.get("spread", {}).get("from"), r.get("spread", {}).get("runs"), r.get("more"), r.get("more_of"))' "$1"
}

# a quiet board: six runs within 0.5% of each other, then BASE and NEW
i=0
for lvl in 100 100.6 99.5 100.3 99.6 100.1; do
	i=$((i + 1))
	run "$T/quiet.jsonl" "q$i" quiet "$lvl" "$i"
done
run "$T/quiet.jsonl" qbase quiet 100 10
run "$T/qslow.jsonl" qslow quiet 90 12
run "$T/qsame.jsonl" qsame quiet 100.2 11
# a noisy board: six runs that vary 20%
i=0
for lvl in 80 120 90 110 100 115; do
	i=$((i + 1))
	run "$T/noisy.jsonl" "n$i" noisy "$lvl" "$i"
done
run "$T/noisy.jsonl" nbase noisy 100 10
run "$T/nslow.jsonl" nslow noisy 90 11
DB="$T/s.db"
"$PG" import --db "$DB" "$T/quiet.jsonl" "$T/qslow.jsonl" "$T/qsame.jsonl" "$T/noisy.jsonl" "$T/nslow.jsonl" >/dev/null

# no history: one run a side is undecided, never within noise
sed -n '/"id":"qbase"/,/"type":"end"/p' "$T/quiet.jsonl" >"$T/qbase.jsonl"
expect 3 "no store, 10% slower" "$T/qbase.jsonl" "$T/qslow.jsonl"
grep -q '| undecided: between .* more runs a side would decide it' "$T/out" || fail "no store: $(cat "$T/out")"
grep -q '% allowed |' "$T/out" || fail "no store, the allowance not said: $(cat "$T/out")"
expect 3 "no store, the same level" "$T/qbase.jsonl" "$T/qsame.jsonl"
grep -q '| within noise' "$T/out" && fail "one run a side, no history, within noise: $(cat "$T/out")"

# the quiet board's profile (its runs before NEW but BASE: qsame's too
# before qslow): by id in the store, and the same runs as files
expect 1 "quiet profile, 10% slower" --db "$DB" qbase qslow
grep -q '| regressed |' "$T/out" || fail "quiet, 10% slower: $(cat "$T/out")"
grep -q '(7 runs of the board) | regressed' "$T/out" || fail "quiet, spread not said: $(cat "$T/out")"
grep -q "spread between runs is board quiet's, from its 7 earlier runs" "$T/out" || fail "quiet, no note: $(cat "$T/out")"
expect 0 "quiet profile, the same level" --db "$DB" qbase qsame
grep -q '| within noise |' "$T/out" || fail "quiet, same: $(cat "$T/out")"
expect 1 "quiet profile, files" --db "$DB" "$T/qbase.jsonl" "$T/qslow.jsonl" --format json
[ "$(verdict "$T/out")" = "regressed board history 7 None None" ] || fail "quiet, files: $(verdict "$T/out")"
# the default store is read when there is one, and never made
[ ! -e "$XDG_DATA_HOME/perfguide" ] || fail "compare of files made the default store's directory"
mkdir -p "$XDG_DATA_HOME/perfguide" && cp "$DB" "$XDG_DATA_HOME/perfguide/results.db"
expect 0 "quiet profile, default store" "$T/qbase.jsonl" "$T/qsame.jsonl"
grep -q '(6 runs of the board) | within noise' "$T/out" || fail "default store: $(cat "$T/out")"
rm -rf "$XDG_DATA_HOME/perfguide"
# --history: NEW against the runs before it
expect 1 "quiet history, 10% slower" --db "$DB" qslow --history 6 --format json
[ "$(verdict "$T/out")" = "regressed runs None None None" ] || fail "quiet history: $(verdict "$T/out")"
expect 0 "quiet history, the same level" --db "$DB" qsame --history 6
grep -q '| within noise |' "$T/out" || fail "quiet history, same: $(cat "$T/out")"

# the noisy board: undecided, how many more said
expect 3 "noisy history, 10% slower" --db "$DB" nslow --history 6
grep -q '| undecided: between -[0-9.]*% and +[0-9.]*%; about [0-9]* more NEW runs (more runs of history alone would not) would decide it' "$T/out" ||
	fail "noisy history: $(cat "$T/out")"
# Base and Change are the interval's own estimate: the geometric mean of
# the six runs (120 90 110 100 115 100), not a median of medians
grep -q '| 105.34 | 90.00 | -14.6% | -' "$T/out" || fail "noisy history, Base/Change not the estimate: $(cat "$T/out")"
# 8% slower on the noisy board: neither more history nor more NEW runs
# alone would decide it, more runs on each side would
run "$T/nmid.jsonl" nmid noisy 97 11
"$PG" import --db "$T/mid.db" "$T/noisy.jsonl" "$T/nmid.jsonl" >/dev/null
expect 3 "noisy history, 8% slower" --db "$T/mid.db" nmid --history 6
grep -q '| undecided: between .*; about [0-9]* more runs on each side (more runs of history or NEW runs alone would not) would decide it' "$T/out" ||
	fail "noisy history, 8% slower: $(cat "$T/out")"
expect 3 "noisy profile, 10% slower" --db "$DB" nbase nslow --format json
v=$(verdict "$T/out")
case "$v" in
"undecided board history 6 "[1-9]*" runs a side") ;;
*) fail "noisy profile: $v" ;;
esac
# a fleet's boards take theirs too: release B at the same level as A is
# within noise on the quiet board, undecided on a board with no history
# (before qslow: its 10% would widen the board's spread)
run "$T/fleet.jsonl" fa quiet 100.1 7 A
run "$T/fleet.jsonl" fb quiet 100.2 8 B
run "$T/fleet.jsonl" la lone 100.1 7 A
run "$T/fleet.jsonl" lb lone 100.2 8 B
"$PG" import --db "$DB" "$T/fleet.jsonl" >/dev/null
expect 0 "fleet, quiet board" --db "$DB" --baseline-release A --release B --board quiet
expect 3 "fleet, both boards" --db "$DB" --baseline-release A --release B --format json
python3 -c 'import json, sys
b = {x["board"]: x for x in json.load(open(sys.argv[1]))["boards"]}
q, l = b["quiet"]["results"][0], b["lone"]["results"][0]
assert q["verdict"] == "within noise" and q["spread"]["from"] == "board history", q
assert l["verdict"] == "undecided" and l["spread"]["from"] == "allowance", l
assert b["lone"]["verdict"] == "undecided" and b["lone"]["undecided"] == 1, b["lone"]' "$T/out" ||
	fail "fleet: $(cat "$T/out")"
# a store that cannot be read is said, and the allowance used
printf 'not a store' >"$T/bad.db"
expect 3 "unreadable store" --db "$T/bad.db" "$T/qbase.jsonl" "$T/qslow.jsonl"
grep -q 'no noise profile of the board' "$T/out" || fail "bad store: $(cat "$T/out")"
echo ok
