#!/bin/sh
# SPDX-License-Identifier: MIT
# `report -o FILE` killed mid-write leaves FILE as it was and no temporary
# file beside it (issue 40, defect 8j: it left FILE.XXXXXX; fixed in
# 5dfc887, core/newfile.c). A report of 30,000 rows is killed with SIGTERM,
# SIGINT, SIGHUP and SIGKILL while its output file is open (found in
# /proc/PID/fd; SIGTERM also while it reads its input), to -o guide.html
# and to -o guide.md (whose charts are written beside it): the old guide is intact and the
# directory holds nothing but it (and for md, charts: whole files). The
# guide's file has no name until complete (O_TMPFILE), so even SIGKILL
# leaves nothing. Then the same where the file system seems to have no
# O_TMPFILE (/proc hidden in a mount namespace of its own, so the file
# cannot be named through /proc/self/fd: a random name instead): the
# catchable signals leave nothing; SIGKILL may leave the random name, never
# a damaged guide.
. "$(dirname "$0")/lib.sh"
need_python
need_json
python3 "$(dirname "$0")/report_scale_gen.py" "$T/big.jsonl" --records 30000 --boards 1 --runs 1 >/dev/null
printf 'the old guide\n' >"$T/old"
PGX=$(readlink -f "$PG")
# A command run in the background of a script has SIGINT ignored, and
# perfguide leaves a signal that is ignored as it is: each signal back to
# its default before perfguide starts.
DFL='import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])'

# Whether perfguide (pid $1) has a file open in $T/out: its output.
open_in_out() {
	for fd in /proc/"$1"/fd/*; do
		case $(readlink "$fd" 2>/dev/null) in "$T/out/"*) return 0 ;; esac
	done
	return 1
}

# killed HOW SIG WHEN FILE: report -o $T/out/FILE killed with SIG at WHEN
# (reading: 0.1 s after it starts; writing: once its output is open), HOW
# plain or noproc (/proc hidden: no O_TMPFILE that can be named). Checks
# what is left in $T/out.
killed() {
	how=$1 sig=$2 when=$3 file=$4
	rm -rf "$T/out"
	mkdir "$T/out"
	cp "$T/old" "$T/out/$file"
	if [ "$how" = plain ]; then
		python3 -c "$DFL" "$PG" report "$T/big.jsonl" -o "$T/out/$file" 2>"$T/kerr" &
	else
		unshare -m sh -c 'mount -t tmpfs none /proc && exec python3 -c "$1" "$2" report "$3" -o "$4"' \
			sh "$DFL" "$PG" "$T/big.jsonl" "$T/out/$file" 2>"$T/kerr" &
	fi
	pid=$!
	# perfguide itself, not the commands that start it
	i=0
	while [ "$(readlink /proc/$pid/exe 2>/dev/null)" != "$PGX" ]; do
		kill -0 $pid 2>/dev/null || fail "$how $sig $when $file: report did not start: $(cat "$T/kerr")"
		i=$((i + 1))
		[ $i -lt 3000 ] || fail "$how $sig $when $file: report did not start"
		sleep 0.01
	done
	if [ "$when" = reading ]; then
		sleep 0.1
	else
		i=0
		while ! open_in_out $pid; do
			kill -0 $pid 2>/dev/null || fail "$how $sig $when $file: report ended before its output was open: $(cat "$T/kerr")"
			i=$((i + 1))
			[ $i -lt 30000 ] || fail "$how $sig $when $file: its output never open"
			sleep 0.01
		done
	fi
	kill -s "$sig" $pid
	st=0
	wait $pid || st=$?
	[ $st -ne 0 ] || fail "$how $sig $when $file: report finished before the signal; a larger input is needed"
	cmp -s "$T/old" "$T/out/$file" || fail "$how $sig $when $file: the old guide was changed (exit $st)"
	left=$(cd "$T/out" && ls -A | grep -v -x -F "$file" | grep -v '^guide-.*\.svg$' || true)
	if [ -n "$left" ] && [ "$how $sig" = "noproc KILL" ]; then
		echo "note: $how $sig $when $file: SIGKILL left $left (a random name: no O_TMPFILE)" >&2
		case $left in .pg-*) ;; *) fail "$how $sig $when $file: left $left" ;; esac
	elif [ -n "$left" ]; then
		fail "$how $sig $when $file: left $left beside the guide (exit $st)"
	fi
	for svg in "$T"/out/guide-*.svg; do
		[ -e "$svg" ] || break
		tail -c 8 "$svg" | grep -q '</svg>' || fail "$how $sig $when $file: a chart cut short: ${svg##*/}"
	done
	echo "$how SIG$sig while $when, -o $file: exit $st, the old guide intact, nothing left${left:+ but $left}"
}

# Each signal once while writing, the two formats in turn, and once while
# reading (every kill takes a report of 30,000 rows: make check's time).
killed plain TERM reading guide.html
killed plain TERM writing guide.html
killed plain INT writing guide.md
killed plain HUP writing guide.html
killed plain KILL writing guide.md
killed plain KILL writing guide.html

# The file system as one without O_TMPFILE: where a mount namespace can
# be made (root, or a user namespace).
if unshare -m sh -c 'mount -t tmpfs none /proc && ! [ -e /proc/self/fd ]' 2>/dev/null; then
	killed noproc TERM writing guide.html
	killed noproc INT writing guide.md
	killed noproc KILL writing guide.md
else
	echo "note: no mount namespace here: the random-name fallback is not tried" >&2
fi
