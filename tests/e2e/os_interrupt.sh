# SPDX-License-Identifier: MIT
# Ctrl-C in the middle of the os benchmarks: the run ends "interrupted",
# the ring of lat_ctx processes and the IPC peers are reaped, and the files
# of the file-system benchmarks are removed.
. "$(dirname "$0")/lib.sh"
cd "$T"
cp "$PG" "$T/pg-os-int"
PGC="$T/pg-os-int"
mkdir "$T/tmp"
export TMPDIR="$T/tmp"
export XDG_DATA_HOME="$T/xdg"

# until COMMAND: retry for at most 30 s
until_true() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "timed out waiting for: $*"
		sleep 0.1
	done
}
procs() { pgrep -f "$PGC" | wc -l; }
has_children() { [ "$(procs)" -ge 3 ]; }
# os.fs.create may work on an ext4 of its own (bench/os/ownfs.c): its image
# in TMPDIR is unlinked at once, and only its loop device shows it.
loops_here() { cat /sys/block/loop*/loop/backing_file 2>/dev/null | grep -q "^$T/tmp/"; }
has_files() { [ -n "$(find "$T/tmp" -type f 2>/dev/null | head -n 1)" ] || loops_here; }

for what in ctx fs; do
	if [ $what = ctx ]; then
		"$PGC" run os.ctx -p procs=4 os.pipe.lat --runs 50 --min-time 0.5 --no-db \
			--out "$T/$what.jsonl" >"$T/$what.out" 2>&1 &
		pid=$!
		until_true has_children
	else
		"$PGC" run os.fs.create os.syscall.open --runs 50 --min-time 0.5 --no-db \
			--out "$T/$what.jsonl" >"$T/$what.out" 2>&1 &
		pid=$!
		until_true has_files
	fi
	kill -INT $pid
	set +e
	wait $pid
	rc=$?
	set -e
	[ $rc -eq 130 ] || fail "$what: exit $rc after Ctrl-C, expected 130: $(cat "$T/$what.out")"
	[ "$(procs)" -eq 0 ] || fail "$what: processes left: $(pgrep -af "$PGC")"
	[ -z "$(ls -A "$T/tmp")" ] || fail "$what: left in TMPDIR: $(ls -A "$T/tmp")"
	! loops_here || fail "$what: a loop device still holds an image in TMPDIR"
done
