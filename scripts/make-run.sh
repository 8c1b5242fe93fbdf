#!/bin/sh
# SPDX-License-Identifier: MIT
# `make run`: the quick suite (or RUN_ARGS) on this machine, then the guide
# (guide.html and guide.md) beside the results file, whenever at least one
# result was measured: one benchmark's failure must not cost the whole guide.
# Exit status: 0 when the guide was written (the run's own summary names any
# benchmark that failed), otherwise perfguide run's (2 bad input, 130
# interrupted before anything finished, 1 nothing measured).
#
# usage: scripts/make-run.sh PERFGUIDE [perfguide run arguments...]
set -u
pg=$1
shift
dir=perfguide-results
mkdir -p "$dir"
mark=$(mktemp)
trap 'rm -f "$mark"' EXIT
# A second Ctrl-C quits perfguide at once; this script goes on to the guide.
trap '' INT
"$pg" run "$@"
rc=$?
trap - INT
[ "$rc" -eq 2 ] && exit 2

res=$(find "$dir" -maxdepth 1 -name '*.jsonl' -newer "$mark" 2>/dev/null | head -n 1)
if [ -z "$res" ]; then
	echo "make run: no results file was written (perfguide run exited $rc)" >&2
	exit "$([ "$rc" -ne 0 ] && echo "$rc" || echo 1)"
fi
if ! grep -q '"type":"result".*"status":"ok"' "$res"; then
	echo "make run: nothing was measured (every result skipped or failed): no guide; results in $res" >&2
	exit "$([ "$rc" -ne 0 ] && echo "$rc" || echo 1)"
fi
if ! "$pg" report --help >/dev/null 2>&1; then
	echo "make run: this perfguide was built without SQLite, so it cannot write the guide (install libsqlite3-dev and rebuild); results in $res" >&2
	exit 1
fi
d=$(dirname "$res")
"$pg" report "$res" --format html -o "$d/guide.html" && "$pg" report "$res" --format md -o "$d/guide.md" || {
	echo "make run: the guide could not be written from $res" >&2
	exit 1
}
echo "make run: results $res"
echo "make run: guide   $d/guide.html and $d/guide.md"
[ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && exit "$rc"
exit 0
