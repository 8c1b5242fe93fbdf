#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 40 at the command line: the fourth audit's defects (the PostgreSQL
# store's are tests/e2e/store_pg_guard.sh, completion's
# tests/e2e/completion_pty.sh). Each check failed before its fix; the
# defect's number is in its message. PG_ITEMS="2 3" runs only those
# defects' checks.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
C="$PG_SOURCE_DIR/fuzz/corpus/results"

want() {
	[ -z "${PG_ITEMS:-}" ] && return 0
	case " $PG_ITEMS " in *" $1 "*) return 0 ;; esac
	return 1
}
run_line() { # id board
	printf '{"type":"run","schema":"perfguide/1","id":"%s","board":"%s","started":"2026-01-01T00:00:00Z"}\n' "$1" "$2"
}
result_line() { # bench median [params]
	printf '{"type":"result","bench":"%s","params":%s,"metric":"m","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
		"$1" "${3:-{\}}" "$2" "$2" "$2" "$2"
}
end_line() { echo '{"type":"end","finished":"f","status":"complete"}'; }
# rc CMD...: runs it, its exit status in RC, its output in $T/out and $T/err.
rc() {
	set +e
	"$@" >"$T/out" 2>"$T/err"
	RC=$?
	set -e
}
# A library that, right after the first open of $SWAP_AT returns, renames
# $SWAP_WITH over it: what is at the path changes between two results.
swap_lib() {
	command -v cc >/dev/null 2>&1 || skip "a C compiler is needed to build the swapping library"
	cat >"$T/swap.c" <<'CC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void swap(const char *path, int fd)
{
	static int done;
	const char *at = getenv("SWAP_AT"), *with = getenv("SWAP_WITH");
	if (!done && fd >= 0 && at && with && strcmp(path, at) == 0) {
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
		int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
		int fd = real(path, flags, mode); \
		swap(path, fd); \
		return fd; \
	}
WRAP(open)
WRAP(open64)
CC
	cc -shared -fPIC -o "$T/swap.so" "$T/swap.c" -ldl || fail "cannot build the swapping library"
}

# 2: storage resolves its target once per run: a link (or another file)
# swapped in after the first result was taken, at the second, for a link
# the user named, and its victim overwritten.
if want 2; then
	swap_lib
	yes precious | head -c 1048576 >"$T/victim"
	sum=$(cksum <"$T/victim")
	for kind in link file; do
		head -c 1048576 /dev/zero >"$T/target"
		if [ $kind = link ]; then ln -sf "$T/victim" "$T/swap"; else yes other | head -c 1048576 >"$T/swap"; fi
		other=$(cksum <"$T/swap")
		rc env SWAP_AT="$T/target" SWAP_WITH="$T/swap" LD_PRELOAD="$T/swap.so" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$PG" run storage.write -p path="$T/target" --destroy-data="$T/target" -p direct=0 -p size=64k \
			-p bs=4k,8k -p time=1 -p ramp=0 --runs 1 --no-db --out "$T/swap-$kind.jsonl"
		[ -e "$T/swap" ] && fail "2: $kind: nothing was swapped in (the run opened no target: $(cat "$T/err"))"
		[ "$(cksum <"$T/victim")" = "$sum" ] || fail "2: a $kind swapped in between two results was written through"
		[ $kind = link ] || [ "$(cksum <"$T/target")" = "$other" ] || fail "2: the file swapped in was written"
		[ "$(grep -c '"status":"ok"' "$T/swap-$kind.jsonl")" -ge 1 ] || fail "2: $kind: the first result failed: $(cat "$T/err")"
		grep -q 'became a symbolic link after it was checked\|not what was checked when the run was planned' \
			"$T/swap-$kind.jsonl" || fail "2: $kind: $(grep -o '"reason":"[^"]*"' "$T/swap-$kind.jsonl")"
		rm -f "$T/target"
	done
fi
# 3: the charts beside -o guide.md are new files of perfguide's: a link, a
# FIFO or a device node planted at a chart's name is left as it is (the
# victim unchanged, the FIFO never opened), the report fails in words, and
# nothing of perfguide's is left in the directory.
if want 3; then
	F="$PG_SOURCE_DIR/tests/fixtures"
	yes precious | head -c 4096 >"$T/victim"
	sum=$(cksum <"$T/victim")
	for kind in link fifo device; do
		rm -rf "$T/c" && mkdir "$T/c"
		case $kind in
		link) ln -s "$T/victim" "$T/c/guide-crypto-1.svg" ;;
		fifo) mkfifo "$T/c/guide-crypto-1.svg" ;;
		device) mknod "$T/c/guide-crypto-1.svg" c 1 3 2>/dev/null || { echo "3: no mknod here: device case left out"; continue; } ;;
		esac
		rc timeout 60 "$PG" report "$F"/seed-*.jsonl -o "$T/c/guide.md"
		[ $RC -ne 124 ] || fail "3: a $kind at a chart's name blocked the report"
		[ $RC -ne 0 ] || fail "3: a $kind at a chart's name: the report said nothing"
		grep -q 'guide-crypto-1.svg is a' "$T/err" || fail "3: $kind: $(cat "$T/err")"
		grep -q 'guide.md not written: a chart beside it could not be' "$T/err" ||
			fail "3: $kind: the guide's own line: $(cat "$T/err")"
		[ "$(cksum <"$T/victim")" = "$sum" ] || fail "3: a link at a chart's name was written through"
		case $kind in
		link) [ -L "$T/c/guide-crypto-1.svg" ] ;;
		fifo) [ -p "$T/c/guide-crypto-1.svg" ] ;;
		device) [ -c "$T/c/guide-crypto-1.svg" ] ;;
		esac || fail "3: the $kind at a chart's name was replaced"
		left=$(ls -A "$T/c" | grep -v '^guide' || true)
		[ -z "$left" ] || fail "3: $kind: left in the directory: $left"
	done
	# a clean directory: every chart the guide names is there, nothing else
	rm -rf "$T/c" && mkdir "$T/c"
	"$PG" report "$F"/seed-*.jsonl -o "$T/c/guide.md" 2>"$T/err" || fail "3: report: $(cat "$T/err")"
	for f in $(sed -n 's/.*](\(guide-[^)]*\.svg\)).*/\1/p' "$T/c/guide.md"); do
		[ -s "$T/c/$f" ] || fail "3: the chart $f was not written"
	done
	left=$(ls -A "$T/c" | grep -v '^guide' || true)
	[ -z "$left" ] || fail "3: left in the directory: $left"
fi

# 7: import --table refuses in one line what it cannot take whole: more
# than 255 columns, a line of 1 MiB or more, a NUL byte, one board twice
# (cells, rows or runs were dropped and the import said "imported").
if want 7; then
	python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
open(t + "/wide.csv", "w").write("row," + ",".join("b%d" % i for i in range(300)) + "\n" +
                                  "x (MB/s)," + ",".join("1" for i in range(300)) + "\n")
open(t + "/long.csv", "w").write("row,b1\n" + "x (MB/s)," + "1" * (1 << 20) + "\n" + "y (MB/s),2\n")
open(t + "/nul.csv", "wb").write(b"row,b1,b2\nx (MB/s),1\x00,2\ny (MB/s),3,4\n")
open(t + "/twice.csv", "w").write("row,same,same (MB/s)\nx (MB/s),1,2\n")
PY
	for f in wide long nul twice; do
		expect_usage_error "7: $f" import --db "$T/t7.db" --table "$T/$f.csv"
		[ ! -e "$T/t7.db" ] || [ -z "$("$PG" runs --db "$T/t7.db" 2>/dev/null | grep table-)" ] ||
			fail "7: $f: runs were added"
	done
fi
# 8: the smaller ones, each by its letter.
if want 8; then
	C="$PG_SOURCE_DIR/fuzz/corpus"
	{ run_line r1 b1; result_line x.y 1; end_line; } >"$T/r1.jsonl"
	# 8a: a LAVA log's line is never held whole: a 64 MiB line outside the
	# results files is read past, the files in the log imported
	{
		head -c 67108864 /dev/zero | tr '\0' x
		echo
		echo "perfguide-results-begin r1.jsonl $(wc -c <"$T/r1.jsonl") base64"
		base64 <"$T/r1.jsonl"
		echo "perfguide-results-end complete"
	} >"$T/long.log"
	rc "$PG" import --db "$T/8a.db" --from-lava-log "$T/long.log"
	[ $RC -eq 0 ] || fail "8a: a long line in a LAVA log: $(cat "$T/err")"
	# 8d: an object named sqlite_stat* that is no ANALYZE table refuses the store
	if python3 -c 'import sqlite3' 2>/dev/null; then
		"$PG" import --db "$T/8d.db" "$T/r1.jsonl" 2>/dev/null || fail "8d: import"
		python3 - "$T/8d.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA writable_schema=ON")
c.execute("INSERT INTO sqlite_master VALUES('trigger','sqlite_stat_t','runs',0,"
          "'CREATE TRIGGER sqlite_stat_t AFTER INSERT ON runs BEGIN DELETE FROM runs; END')")
c.commit()
PY
		{ run_line r2 b2; result_line x.y 2; end_line; } >"$T/r2.jsonl"
		rc "$PG" import --db "$T/8d.db" "$T/r2.jsonl"
		[ $RC -ne 0 ] || fail "8d: a trigger named sqlite_stat_t was passed over: $(cat "$T/err")"
	else
		echo "8d: python3 has no sqlite3 module: left out"
	fi
	# 8e: csv on a console (a pipe here) never writes <LAVA_SIGNAL
	{ run_line r3 '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x RESULT=fail>'; result_line x.y 1; end_line; } >"$T/r3.jsonl"
	"$PG" report "$T/r3.jsonl" --format csv 2>/dev/null | cat >"$T/csv" || fail "8e: report --format csv"
	grep -q 'LAVA_SIGNAL' "$T/csv" || fail "8e: the board is not in the csv"
	! grep -q '<LAVA_SIGNAL' "$T/csv" || fail "8e: csv on a console holds <LAVA_SIGNAL: $(cat "$T/csv")"
	"$PG" report "$T/r3.jsonl" -o "$T/r3.csv" 2>/dev/null || fail "8e: report -o x.csv"
	grep -q '<LAVA_SIGNAL' "$T/r3.csv" || fail "8e: csv in a file lost its bytes"
	# 8g: --metrics naming a metric the section does not have
	"$PG" report "$T/r1.jsonl" --format md >"$T/g.md" 2>/dev/null || fail "8g: report"
	sec=$(sed -n 's/^## //p' "$T/g.md" | grep -v Machines | head -n 1)
	expect_usage_error "8g: --metrics naming no metric of the section" report "$T/r1.jsonl" --metrics "$sec=nosuch"
	grep -q "no metric 'nosuch'" "$T/err" || fail "8g: $(cat "$T/err")"
	# 8i: a refused results file from a LAVA log is named by the log and its name there
	expect_usage_error "8i: a damaged results file in a LAVA log" import --db "$T/8i.db" --from-lava-log "$C/lava_log/refused-file"
	grep -q 'refused-file (bad.jsonl)' "$T/err" || fail "8i: $(cat "$T/err")"
	! grep -q 'perfguide-lava-\|/tmp/' "$T/err" || fail "8i: named by its temporary file: $(cat "$T/err")"
	# 8j: report -o leaves nothing beside the guide, killed or not
	mkdir "$T/j"
	"$PG" report "$T/r1.jsonl" -o "$T/j/guide.md" 2>/dev/null || fail "8j: report"
	[ "$(ls -A "$T/j")" = guide.md ] || fail "8j: left beside the guide: $(ls -A "$T/j")"
	# 8k: two tables of one name giving one run id with other content
	mkdir "$T/k1" "$T/k2"
	printf 'row,b1\nx (MB/s),1\n' >"$T/k1/t.csv"
	printf 'row,b1\nx (MB/s),2\n' >"$T/k2/t.csv"
	# (each table's rows of their own are said first, a line each)
	rc "$PG" import --db "$T/8k.db" --table "$T/k1/t.csv" "$T/k2/t.csv"
	[ $RC -eq 2 ] || fail "8k: two tables of one name: exit $RC: $(cat "$T/err")"
	[ "$(grep -c 'both give run' "$T/err")" -eq 1 ] && grep -q 'both give run table-t-b1' "$T/err" ||
		fail "8k: $(cat "$T/err")"
	[ ! -e "$T/8k.db" ] || [ -z "$("$PG" runs --db "$T/8k.db" 2>/dev/null | grep table-)" ] ||
		fail "8k: a run was added"
fi
echo ok
