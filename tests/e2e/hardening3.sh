#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 26 at the command line: the third audit's defects (the library's side
# is tests/unit/test_store_hardening.c, the storage target's tests/unit/
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

# 2: the schema version is read as 64 bits: 4294967300 is a newer store
# (read by runs and report, never written), not schema 4; a version that is
# no integer is damaged. (PostgreSQL's side: tests/e2e/store_pg.sh.)
if want 2; then
	cp "$T/base.db" "$T/v64.db"
	sql "$T/v64.db" "UPDATE perfguide_schema SET version = 4294967300"
	"$PG" runs --db "$T/v64.db" | grep -q j7200 || fail "2: runs does not read a store of schema 4294967300"
	"$PG" report --db "$T/v64.db" 2>/dev/null | grep -q '^## ' || fail "2: report does not read a store of schema 4294967300"
	expect_usage_error "2: import into schema 4294967300" import --db "$T/v64.db" "$C/mem-bw-rd.jsonl"
	grep -q 'knows schema 4294967300' "$T/err" || fail "2: $(cat "$T/err")"
	sql "$T/v64.db" "UPDATE perfguide_schema SET version = '4x'"
	expect_usage_error "2: a version that is text" runs --db "$T/v64.db"
	grep -q "store schema version '4x' is not an integer" "$T/err" || fail "2: $(cat "$T/err")"
fi

# 3: report -o writes through a character device, a FIFO and -, and never
# replaces what is not a regular file: the device node stays one (as root,
# -o /dev/null replaced the machine's /dev/null with a file).
if want 3; then
	G="$C/mem-bw-rd.jsonl"
	dev=""
	if [ "$(id -u)" -eq 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then
		dev="$T/null"	# a node of our own: nothing of the machine's at stake
	elif [ "$(id -u)" -ne 0 ]; then
		dev=/dev/null	# not root: the old rename could not replace it
	else
		echo "note: 3: mknod is refused here; the device case is not checked" >&2
	fi
	if [ -n "$dev" ]; then
		rc "$PG" report "$G" -o "$dev"
		[ $RC -eq 0 ] || fail "3: report -o $dev: exit $RC $(cat "$T/err")"
		[ -c "$dev" ] || fail "3: report -o $dev replaced the device: $(ls -l "$dev")"
		ln -s "$dev" "$T/devlink"
		rc "$PG" report "$G" -o "$T/devlink"
		[ $RC -eq 0 ] && [ -L "$T/devlink" ] && [ -c "$dev" ] || fail "3: -o a link to a device: exit $RC, $(ls -l "$T/devlink" "$dev")"
	fi
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/fifo.out" &
	reader=$!
	rc timeout 60 "$PG" report "$G" -o "$T/fifo"
	wait $reader
	[ $RC -eq 0 ] || fail "3: report -o FIFO: exit $RC $(cat "$T/err")"
	[ -p "$T/fifo" ] || fail "3: the FIFO was replaced by $(ls -l "$T/fifo")"
	grep -q '^## ' "$T/fifo.out" || fail "3: the guide did not come through the FIFO: $(head -c 300 "$T/fifo.out")"
	(cd "$T" && "$PG" report "$G" -o - >"$T/dash.md" 2>"$T/err") || fail "3: report -o -: $(cat "$T/err")"
	[ ! -e "$T/-" ] && grep -q '^## ' "$T/dash.md" || fail "3: -o - did not write to standard output"
	mkdir "$T/adir"
	expect_usage_error "3: -o a directory" report "$G" -o "$T/adir"
	[ -d "$T/adir" ] || fail "3: the directory was replaced"
	ln -s "$T/nowhere" "$T/dangling"
	expect_usage_error "3: -o a dangling link" report "$G" -o "$T/dangling"
	[ -L "$T/dangling" ] || fail "3: the dangling link was replaced"
	# a link to a regular file: the file gets the guide, the link stays
	echo old >"$T/real.md"
	ln -s "$T/real.md" "$T/link.md"
	"$PG" report "$G" -o "$T/link.md" 2>/dev/null || fail "3: -o a link to a file"
	[ -L "$T/link.md" ] && grep -q '^## ' "$T/real.md" || fail "3: -o a link to a file: $(ls -l "$T/link.md")"
fi

# 4: no LAVA signal and no terminal control from foreign text: a hostile
# peer's ERROR reason, -p bin=..., an external program's output, the --json
# records, and the results file the LAVA run step puts into the job log.
FORGE='<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged RESULT=pass>'
no_forgery() { # what files...
	what=$1; shift
	if grep -q 'LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged' "$@"; then
		grep -q '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged' "$@" && fail "4: $what: a forged LAVA test case: $(grep -h forged "$@" | head -3)"
	fi
	grep -q "$ESC" "$@" && fail "4: $what: a raw ESC reached the output"
	return 0
}
if want 4; then
	# a peer that answers HELLO with an ERROR whose reason is a LAVA signal
	cat >"$T/badpeer.py" <<'PY'
import socket, struct, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
reason = sys.argv[1].encode()
while True:
    c, _ = s.accept()
    c.settimeout(5)
    try:
        c.recv(4096)
        body = b"reason=" + reason + b"\n"
        c.sendall(struct.pack(">IBB", len(body) + 2, 1, 10) + body)
    except OSError:
        pass
    c.close()
PY
	python3 "$T/badpeer.py" "$FORGE" >"$T/badpeer.port" &
	PIDS="$PIDS $!"
	trap 'kill $PIDS 2>/dev/null; rm -rf "$T"' EXIT
	i=0
	while [ ! -s "$T/badpeer.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(cat "$T/badpeer.port")
	rc "$PG" run net.tcp.stream -p time=1 --runs 1 --peer "127.0.0.1:$port" --lava --no-db --out "$T/peer.jsonl"
	grep -q 'refused' "$T/out" "$T/err" || fail "4: the hostile peer's refusal is not reported: $(cat "$T/out" "$T/err")"
	no_forgery "the peer's ERROR reason" "$T/out" "$T/err"
	rc "$PG" run net.tcp.stream -p time=1 --runs 1 --peer "127.0.0.1:$port" --json --no-db --out "$T/peer2.jsonl"
	no_forgery "the peer's reason in --json" "$T/out" "$T/err"
	grep -q '<' "$T/out" && fail "4: a raw '<' in the --json records: $(grep '<' "$T/out" | head -2)"
	python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/out" || fail "4: --json is no longer JSON"
	grep -q 'LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged' "$T/out" || fail "4: the reason is not in the --json records"
	# -p bin= and a program's output with terminal controls
	rc "$PG" run ext.glmark2 -p "bin=$FORGE" --lava --no-db --out "$T/bin.jsonl"
	no_forgery "-p bin=" "$T/out" "$T/err"
	cat >"$T/prog" <<'SH'
#!/bin/sh
printf '\033]0;pwned\007\033[2J<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged RESULT=pass>\n' >&2
exit 3
SH
	chmod +x "$T/prog"
	rc "$PG" run ext.glmark2 -p "bin=$T/prog" --lava --no-db --out "$T/prog.jsonl"
	no_forgery "an external program's output" "$T/out" "$T/err"
	# the guide on standard output (a LAVA job's log): md, rst, html and json
	# print the board, the reason and the note without a signal LAVA takes
	for f in md rst html json; do
		rc "$PG" report "$T/prog.jsonl" --format $f -o -
		[ "$RC" -le 1 ] || fail "4: report --format $f of a forged result: exit $RC $(cat "$T/err")"
		no_forgery "report --format $f on standard output" "$T/out" "$T/err"
	done
	# the LAVA run step: a results file holding a LAVA signal (a board
	# named so) goes into the job log base64 (run --lava), where it cannot
	# read as a signal, and comes back out whole (import --from-lava-log)
	mkdir -p "$T/lavarun/bin"
	printf '#!/bin/sh\nexit 0\n' >"$T/lavarun/bin/lava-test-case"
	chmod +x "$T/lavarun/bin/lava-test-case"
	(cd "$T/lavarun" && PATH="$T/lavarun/bin:$PATH" PERFGUIDE="$PG" BENCHMARKS=mem.bw.rd \
		EXTRA="-p size=4k $FAST" BOARD='<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged RESULT=pass>' \
		sh "$PG_SOURCE_DIR/lava/perfguide-run.sh") >"$T/lavarun.log" 2>&1 ||
		fail "4: lava/perfguide-run.sh failed: $(cat "$T/lavarun.log")"
	no_forgery "lava/perfguide-run.sh's log" "$T/lavarun.log"
	grep -q '^perfguide-results-begin ' "$T/lavarun.log" || fail "4: no results file in the log: $(cat "$T/lavarun.log")"
	"$PG" import --db "$T/art.db" --from-lava-log "$T/lavarun.log" >/dev/null 2>&1 &&
		"$PG" runs --db "$T/art.db" --json | grep -q 'LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged' ||
		fail "4: the results file from the log does not import whole: $(tail -n 5 "$T/lavarun.log")"
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
	# one run a side may be judged or inconclusive (exit 3); lost, the board
	# would be missing from the verdicts
	[ $RC -le 1 ] || [ $RC -eq 3 ] || fail "5: the fleet gate failed on long labels: exit $RC $(cat "$T/err")"
	python3 - "$T/out" <<'PY' || fail "5: the fleet gate lost the runs with long labels: $(head -c 400 "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert "big" in json.dumps(d), d
PY
	python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); assert [b["board"] for b in o["boards"]] == ["big"], o' \
		"$T/out" || fail "5: the board is not in the gate's verdicts: $(cat "$T/out")"
fi

# 6: storage opens what it checked: a symbolic link or another file swapped
# in between the check and the open (made certain here by a library that
# swaps it at the first open of the path) is refused, and the file it leads
# to is not written.
if want 6; then
	command -v cc >/dev/null 2>&1 || skip "6: a C compiler is needed to build the swapping library"
	cat >"$T/swap.c" <<'CC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* At the first open of $SWAP_AT, rename $SWAP_WITH over it first. */
static void swap(const char *path)
{
	static int done;
	const char *at = getenv("SWAP_AT"), *with = getenv("SWAP_WITH");
	if (!done && at && with && strcmp(path, at) == 0) {
		done = 1;
		rename(with, at);
	}
}
#define WRAP(name) \
	int name(const char *path, int flags, ...) \
	{ \
		va_list ap; \
		va_start(ap, flags); \
		int mode = va_arg(ap, int); \
		va_end(ap); \
		swap(path); \
		int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
		return real(path, flags, mode); \
	}
WRAP(open)
WRAP(open64)
CC
	cc -shared -fPIC -o "$T/swap.so" "$T/swap.c" -ldl || fail "6: cannot build the swapping library"
	head -c 1048576 /dev/zero >"$T/target"
	yes precious | head -c 1048576 >"$T/victim"
	sum=$(cksum <"$T/victim")
	for kind in link file; do
		if [ $kind = link ]; then ln -s "$T/victim" "$T/swap"; else yes other | head -c 1048576 >"$T/swap"; fi
		other=$(cksum <"$T/swap")
		rc env SWAP_AT="$T/target" SWAP_WITH="$T/swap" LD_PRELOAD="$T/swap.so" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$PG" run storage.write -p path="$T/target" --destroy-data="$T/target" -p direct=0 -p size=64k -p bs=4k \
			-p time=1 -p ramp=0 --runs 1 --no-db --out "$T/swap-$kind.jsonl"
		[ "$(cksum <"$T/victim")" = "$sum" ] || fail "6: a $kind swapped in was written through: the file it leads to changed"
		[ $kind = link ] || [ "$(cksum <"$T/target")" = "$other" ] || fail "6: the file swapped in was written"
		grep -q '"status":"error"' "$T/swap-$kind.jsonl" || fail "6: a $kind swapped in is not an error: $(cat "$T/out" "$T/err")"
		grep -q 'after it was checked: refused\|not what was checked' "$T/swap-$kind.jsonl" || fail "6: $(grep -o '"reason":"[^"]*"' "$T/swap-$kind.jsonl")"
		rm -f "$T/target"
		head -c 1048576 /dev/zero >"$T/target"
	done
fi

# 7: ext.coremark-pro and ext.multibench without path= run nothing that
# lies in the current directory (planted *.exe files ran, as root too).
if want 7; then
	mkdir "$T/planted"
	for w in core zip-test iDCT-4M 4M-check; do
		printf '#!/bin/sh\ntouch "%s/ran"\n' "$T" >"$T/planted/$w.exe"
		chmod 755 "$T/planted/$w.exe"
	done
	for b in ext.coremark-pro ext.multibench; do
		rc sh -c 'cd "$1" && shift && exec "$@"' sh "$T/planted" "$PG" run $b -p contexts=1 --runs 1 --no-db \
			--out "$T/planted-$b.jsonl"
		[ ! -e "$T/ran" ] || fail "7: $b ran a program planted in the current directory"
		[ $RC -eq 0 ] || fail "7: $b: exit $RC $(cat "$T/err")"
		grep -q '"status":"skipped","reason":"[^"]*never the current directory' "$T/planted-$b.jsonl" ||
			fail "7: $b: $(grep -o '"reason":"[^"]*"' "$T/planted-$b.jsonl" | head -2)"
	done
fi

# 8: a store runs none of its own SQL: a view in place of runs (an endless
# recursive query: runs and report hung) and a trigger (it deleted a run
# while import said "imported") are refused with one line, exit 2.
if want 8; then
	cp "$T/base.db" "$T/view.db"
	sql "$T/view.db" "DROP TABLE runs; CREATE VIEW runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
		SELECT 'r' || x AS id, 'b' AS board, NULL AS started, NULL AS finished, NULL AS status, NULL AS version,
		NULL AS machine_id, NULL AS build, NULL AS config, NULL AS source, NULL AS added, NULL AS sections,
		NULL AS labels FROM c"
	for cmd in runs report; do
		rc timeout 30 "$PG" $cmd --db "$T/view.db"
		[ $RC -eq 2 ] || fail "8: $cmd on a store with a view: exit $RC (124: it hung) $(head -c 300 "$T/err")"
		[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'holds a view, runs, that perfguide never makes' "$T/err" ||
			fail "8: $cmd: $(cat "$T/err")"
	done
	cp "$T/base.db" "$T/trig.db"
	sql "$T/trig.db" "CREATE TRIGGER t AFTER INSERT ON results BEGIN DELETE FROM runs; END"
	expect_usage_error "8: import into a store with a trigger" import --db "$T/trig.db" "$C/mem-bw-rd.jsonl"
	grep -q 'holds a trigger, t, that perfguide never makes' "$T/err" || fail "8: $(cat "$T/err")"
	[ "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM runs").fetchone()[0])' "$T/trig.db")" -eq 1 ] ||
		fail "8: the trigger's store lost its run"
	cp "$T/base.db" "$T/extra.db"
	sql "$T/extra.db" "CREATE TABLE notes(x); CREATE INDEX runs_x ON runs(source)"
	expect_usage_error "8: a store with a table of another's" runs --db "$T/extra.db"
	grep -q 'that perfguide did not make' "$T/err" || fail "8: $(cat "$T/err")"
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
	# the same run on both sides: compare says so and exits 3
	[ "$RC" -le 1 ] || [ "$RC" -eq 3 ] || fail "10: ./FILE is not read as a file: $(cat "$T/err")"
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
