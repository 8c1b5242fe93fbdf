#!/bin/sh
# Issue 26 at the command line: the third audit's defects (the library's side
# is tests/unit/test_hardening3.c, the storage target's tests/unit/
# test_storage.c). Each check failed before its fix; the defect's number is
# in its message. PG_ITEMS="1 9" runs only those defects' checks.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
python3 -c 'import sqlite3' 2>/dev/null || skip "python3's sqlite3 module is needed to make hostile stores"
C="$PG_SOURCE_DIR/fuzz/corpus/results"
ESC=$(printf '\033')

want() {
	[ -z "${PG_ITEMS:-}" ] && return 0
	case " $PG_ITEMS " in *" $1 "*) return 0 ;; esac
	return 1
}
run_line() { # id board [labels]
	printf '{"type":"run","schema":"perfguide/1","id":"%s","board":"%s","started":"2026-01-01T00:00:00Z"%s}\n' \
		"$1" "$2" "${3:+,\"labels\":$3}"
}
result_line() { # bench median
	printf '{"type":"result","bench":"%s","params":{},"metric":"m","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
		"$1" "$2" "$2" "$2" "$2"
}
end_line() { echo '{"type":"end","finished":"f","status":"complete"}'; }
sql() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }
# rc CMD...: runs it, its exit status in RC, its output in $T/out and $T/err.
rc() {
	set +e
	"$@" >"$T/out" 2>"$T/err"
	RC=$?
	set -e
}
# A store with one run: $T/base.db
"$PG" import --db "$T/base.db" "$C/seed-j7200-cut.jsonl" >/dev/null || fail "import of a seed failed"

# 1: a null key ("metric": null, "bench": null, "status": null) is refused
# with one line, exit 2, by report, compare and import; never a crash.
if want 1; then
	for k in bench metric status params; do
		{ run_line n1 b; result_line x.y 1 | sed "s/\"$k\":[^,]*,/\"$k\":null,/; s/\"status\":\"ok\"}/\"status\":$([ $k = status ] && echo null || echo '"ok"')}/"; end_line; } >"$T/null-$k.jsonl"
		grep -q "\"$k\":null" "$T/null-$k.jsonl" || fail "1: the test file has no null $k"
		for f in md html csv rst json; do
			expect_usage_error "1: report --format $f of a null $k" report "$T/null-$k.jsonl" --format $f
		done
		expect_usage_error "1: compare of a null $k" compare "$T/null-$k.jsonl" "$T/null-$k.jsonl"
		expect_usage_error "1: import of a null $k" import --db "$T/null.db" "$T/null-$k.jsonl"
		grep -q 'line 2: .*without "bench", "params", "metric" or "status"' "$T/err" || fail "1: $k: $(cat "$T/err")"
	done
fi

# 5: a label set that `run` accepts (16 labels of 128 bytes) is kept whole
# by the store, `runs --json` and the fleet gate.
if want 5; then
	set -- --label release=A
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		set -- "$@" --label "key$i=$(printf "%0128d" $i)"
	done
	"$PG" run mem.bw.rd $FAST -p size=4k --board big --db "$T/l.db" \
		--out "$T/la.jsonl" "$@" >/dev/null 2>"$T/err" || fail "5: run with 16 labels: $(cat "$T/err")"
	shift 2
	"$PG" run mem.bw.rd $FAST -p size=4k --board big --db "$T/l.db" \
		--out "$T/lb.jsonl" --label release=B "$@" >/dev/null 2>"$T/err" || fail "5: second run: $(cat "$T/err")"
	"$PG" runs --db "$T/l.db" --json >"$T/runs.json" || fail "5: runs --json failed"
	python3 - "$T/runs.json" <<'PY' || fail "5: runs --json dropped or cut the labels: $(head -c 400 "$T/runs.json")"
import json, sys
runs = json.load(open(sys.argv[1]))
assert len(runs) == 2, runs
for r in runs:
    assert len(r["labels"]) == 16 and r["labels"]["key15"] == "%0128d" % 15, r.get("labels")
PY
	rc "$PG" compare --db "$T/l.db" --baseline-release A --release B --format json
	[ $RC -le 1 ] || fail "5: the fleet gate lost the runs with long labels: exit $RC $(cat "$T/err")"
	python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); assert [b["board"] for b in o["boards"]] == ["big"], o' \
		"$T/out" || fail "5: the board is not in the gate's verdicts: $(cat "$T/out")"
fi

# 9: an empty store and a fleet with no matching runs: one line, exit 2
# (the sanitizer build reported qsort(NULL, 0) and exited 1).
if want 9; then
	sql "$T/empty.db" "PRAGMA user_version = 0"
	"$PG" import --db "$T/e9.db" "$C/mem-bw-rd.jsonl" >/dev/null
	sql "$T/e9.db" "DELETE FROM runs"
	expect_usage_error "9: report on an empty store" report --db "$T/e9.db"
	grep -q 'holds no runs' "$T/err" || fail "9: $(cat "$T/err")"
	expect_usage_error "9: a fleet without matching runs" compare --db "$T/e9.db" --baseline-release A --release B
	grep -q 'no board has runs of both' "$T/err" || fail "9: $(cat "$T/err")"
fi

# 10: a file in the current directory named like a run id or a board does
# not stand in for the store's run; a name that is both is refused, naming
# both; ./NAME and NAME.jsonl are files.
if want 10; then
	{ run_line j7200-evm-shadow j7200-evm; result_line mem.bw.rd 1; end_line; } >"$T/shadow.jsonl"
	mkdir "$T/cwd"
	in_cwd() { (cd "$T/cwd" && exec "$PG" "$@"); }
	id=$("$PG" runs --db "$T/base.db" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')
	board=$("$PG" runs --db "$T/base.db" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["board"])')
	cp "$T/shadow.jsonl" "$T/cwd/$board"
	cp "$T/shadow.jsonl" "$T/cwd/$id"
	rc in_cwd compare --db "$T/base.db" "$board" "$id"
	[ "$RC" -eq 2 ] || fail "10: compare used a file of the store run's name: exit $RC $(cat "$T/out")"
	grep -q "is both a run in the store .* and a file here: give ./" "$T/err" || fail "10: $(cat "$T/err")"
	rm "$T/cwd/$id"
	rc in_cwd compare --db "$T/base.db" "$T/shadow.jsonl" "./$board"
	[ "$RC" -le 1 ] || fail "10: ./FILE is not read as a file: $(cat "$T/err")"
	grep -q 'j7200-evm-shadow' "$T/out" || fail "10: ./FILE is not the file's run: $(cat "$T/out")"
	rc in_cwd compare --db "$T/base.db" nosuchrun "$id"
	[ "$RC" -eq 2 ] && grep -q "'nosuchrun' is neither a run id nor a board" "$T/err" ||
		fail "10: an unknown name: $(cat "$T/err")"
	cp "$T/shadow.jsonl" "$T/cwd/onlyfile"
	rc in_cwd compare --db "$T/base.db" onlyfile "$id"
	[ "$RC" -eq 2 ] && grep -q "for the file of that name, give ./onlyfile" "$T/err" ||
		fail "10: a name that is only a file here: $(cat "$T/err")"
fi

# 11: the same run id with other content (another board) is refused: exit 2,
# one line saying it differs, and the store keeps its run; the same run again
# is "already in the store", exit 0.
if want 11; then
	{ run_line dup board-a; result_line x.y 1; end_line; } >"$T/dup-a.jsonl"
	{ run_line dup board-b; result_line x.y 1; end_line; } >"$T/dup-b.jsonl"
	{ run_line dup board-a; result_line x.y 2; end_line; } >"$T/dup-c.jsonl"
	"$PG" import --db "$T/dup.db" "$T/dup-a.jsonl" >/dev/null || fail "11: first import"
	"$PG" import --db "$T/dup.db" "$T/dup-a.jsonl" >"$T/out" || fail "11: the same run again"
	grep -q 'is already in the store' "$T/out" || fail "11: $(cat "$T/out")"
	expect_usage_error "11: another board under the same id" import --db "$T/dup.db" "$T/dup-b.jsonl"
	grep -q "run dup is already in the store with other content (its board is 'board-a' there)" "$T/err" ||
		fail "11: $(cat "$T/err")"
	expect_usage_error "11: other results under the same id" import --db "$T/dup.db" "$T/dup-c.jsonl"
	grep -q "its result 1 (x.y m) differs" "$T/err" || fail "11: $(cat "$T/err")"
	"$PG" runs --db "$T/dup.db" | grep -q 'board-a' || fail "11: the store lost its run"
fi
echo ok
