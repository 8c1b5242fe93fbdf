# SPDX-License-Identifier: MIT
# The storage group's safety rules, each one: bad targets are one-line
# errors with exit 2 and nothing touched (a device's bytes checked before
# and after); a device is read when named, written only with
# --destroy-data repeating its path and never while it or a partition of
# it is mounted; Ctrl-C, SIGTERM and even SIGKILL leave no file behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/storage_lib.inc"
need_json
cd "$T"
Q="--runs 1 --no-db -p time=1 -p ramp=0"
mkdir "$T/d"
: >"$T/theirs"
truncate -s 1M "$T/theirs"

# --- bad input, without root ---
expect_usage_error "no such directory" run storage.read -p path="$T/nodir/x"
mkfifo "$T/fifo"
expect_usage_error "neither a file nor a block device (a FIFO)" run storage.read -p path="$T/fifo"
expect_usage_error "someone's file written" run storage.write -p path="$T/theirs"
expect_usage_error "--destroy-data naming another file" run storage.write -p path="$T/theirs" --destroy-data="$T/d"
expect_usage_error "--destroy-data on a directory" run storage.write -p path="$T/d" --destroy-data="$T/d"
expect_usage_error "--destroy-data for reads" run storage.read -p path="$T/theirs" --destroy-data="$T/theirs"
expect_usage_error "bs not a multiple of 512 with O_DIRECT" run storage.read -p path="$T/d" -p bs=1000
cmp -s -n 1048576 "$T/theirs" /dev/zero || fail "the file refused was written to"
[ -z "$(ls -A "$T/d")" ] || fail "a refused run left files: $(ls -A "$T/d")"

# --- an existing file: read as it is, written with --destroy-data ---
"$PG" run storage.read -p path="$T/theirs" $Q --out "$T/f.jsonl" >"$T/f.out" 2>&1 ||
	fail "reading an existing file: exit $? ($(cat "$T/f.out"))"
"$PG" run storage.write -p path="$T/theirs" --destroy-data="$T/theirs" -p direct=0 $Q --out "$T/f.jsonl" \
	>"$T/f.out" 2>&1 || fail "writing an existing file with --destroy-data: exit $? ($(cat "$T/f.out"))"
[ -f "$T/theirs" ] || fail "the named file was removed: it is not perfguide's"
[ "$(grep -c '"status":"ok"' "$T/f.jsonl")" -eq 12 ] || fail "file runs: $(grep -o '"reason":"[^"]*"' "$T/f.jsonl")"

# --- signals: the file goes at once, whatever stops the run ---
# (it is unlinked as soon as it is made; the run holds it open meanwhile)
holds_file() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perfguide-storage.*(deleted)'
}
for sig in INT TERM KILL; do
	"$PG" run storage.read -p path="$T/d" -p size=8m -p time=30 --runs 1 --no-db \
		--out "$T/sig.jsonl" >"$T/sig.out" 2>&1 &
	pid=$!
	i=0
	until holds_file $pid; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "SIG$sig: the run never opened its file ($(cat "$T/sig.out"))"
		sleep 0.1
	done
	[ -z "$(ls -A "$T/d")" ] || fail "SIG$sig: the file is visible while the run holds it: $(ls -A "$T/d")"
	t0=$(date +%s)
	kill -$sig $pid
	set +e
	wait $pid
	rc=$?
	set -e
	case $sig in
	INT|TERM) [ $rc -eq 130 ] || fail "SIG$sig: exit $rc, expected 130 ($(cat "$T/sig.out"))"
		grep -q '"status":"interrupted"' "$T/sig.jsonl" || fail "SIG$sig: the results do not end interrupted" ;;
	KILL) [ $rc -eq 137 ] || fail "SIGKILL: exit $rc" ;;
	esac
	[ $(( $(date +%s) - t0 )) -lt 10 ] || fail "SIG$sig: took more than 10 s to stop a 30 s trial"
	[ -z "$(ls -A "$T/d")" ] || fail "SIG$sig: left $(ls -A "$T/d")"
done

# --- block devices (root and a loop device) ---
need_loop
truncate -s 32M "$T/dev.img"
dd if=/dev/urandom of="$T/dev.img" bs=1M count=32 conv=notrunc 2>/dev/null
dev=$(losetup -f --show "$T/dev.img")
loops="$loops $dev"
sum0=$(md5sum <"$T/dev.img")
expect_usage_error "a device written without --destroy-data" run storage.write -p path="$dev"
grep -q "destroys the data on it: to allow it, repeat its path with --destroy-data=$dev" "$T/err" ||
	fail "the refusal does not say how to allow it: $(cat "$T/err")"
expect_usage_error "--destroy-data naming another device" run storage.write -p path="$dev" --destroy-data=/dev/zero
"$PG" run storage.read storage.randread -p path="$dev" -p size=16m $Q --out "$T/dev.jsonl" >"$T/dev.out" 2>&1 ||
	fail "reading $dev: exit $? ($(cat "$T/dev.out"))"
grep -q '"note":"medium=loop; device=loop[0-9]*; model=[^;]*dev.img; fs=raw' "$T/dev.jsonl" ||
	fail "device read: medium not recorded: $(grep -o '"note":"[^"]*"' "$T/dev.jsonl" | head -n 1)"
[ "$(md5sum <"$T/dev.img")" = "$sum0" ] || fail "reading or refusing changed the device's data"

# Mounted, or a partition of it mounted: refused, even with --destroy-data.
# (Mounted read-only without the journal, so the mount itself writes nothing.)
mkfs.ext4 -q -F "$dev" >/dev/null
mkdir -p "$T/mnt"
sum1=$(md5sum <"$T/dev.img")
mount -o ro,noload "$dev" "$T/mnt" && mounts="$T/mnt $mounts"
expect_usage_error "a mounted device" run storage.write -p path="$dev" --destroy-data="$dev"
grep -q "is mounted on $T/mnt" "$T/err" || fail "the refusal does not say where it is mounted: $(cat "$T/err")"
umount "$T/mnt"
mounts=""
[ "$(md5sum <"$T/dev.img")" = "$sum1" ] || fail "a refused write changed the device's data"
# A partition table, and the device attached again with its partitions.
if command -v sfdisk >/dev/null 2>&1 && printf 'label: dos\n,16M\n,\n' | sfdisk -q "$dev" >/dev/null 2>&1 &&
	losetup -d "$dev"; then
	loops=""
	dev=$(losetup -f --show -P "$T/dev.img") || fail "cannot attach $T/dev.img again"
	loops="$dev"
	if [ -b "${dev}p2" ] && mkfs.ext4 -q -F "${dev}p2" >/dev/null; then
		sum1=$(md5sum <"$T/dev.img")
		mount -o ro,noload "${dev}p2" "$T/mnt" && mounts="$T/mnt"
		expect_usage_error "a device with a mounted partition" run storage.write -p path="$dev" --destroy-data="$dev"
		grep -q "${dev#/dev/}p2 is mounted on $T/mnt" "$T/err" || fail "the refusal does not name the partition: $(cat "$T/err")"
		umount "$T/mnt"
		mounts=""
		[ "$(md5sum <"$T/dev.img")" = "$sum1" ] || fail "a refused write changed the partitioned device's data"
	else
		echo "storage_safety: this kernel shows no partitions of a loop device: that case not checked" >&2
	fi
else
	echo "storage_safety: no sfdisk or no losetup -P here: the mounted partition not checked" >&2
fi
sum1=$(md5sum <"$T/dev.img")

# Unmounted and named twice: written.
"$PG" run storage.write -p path="$dev" --destroy-data="$dev" -p size=4m -p jobs=2 $Q --out "$T/w.jsonl" >"$T/w.out" 2>&1 ||
	fail "writing $dev with --destroy-data: exit $? ($(cat "$T/w.out"))"
grep -q '"metric":"bandwidth".*"status":"ok"' "$T/w.jsonl" || fail "the device write did not measure: $(cat "$T/w.out")"
[ "$(md5sum <"$T/dev.img")" != "$sum1" ] || fail "the device write wrote nothing"
exit 0
