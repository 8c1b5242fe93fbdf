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
echo ok
