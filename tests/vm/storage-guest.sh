# SPDX-License-Identifier: MIT
# Guest side of `make check-vm` for the storage group (busybox sh, root):
# O_DIRECT through io_uring and libaio on an ext4 virtio disk and on raw
# devices (a virtio disk, brd's RAM disk, null_blk), the kernel's own I/O
# counts beside perfguide's, the refusals (a mounted device, a mounted
# partition), tmpfs refusing O_DIRECT on this kernel, and I/O errors from
# a failing disk (vdc: qemu's blkdebug fails what touches its 2 MB mark).
# Results in $PG_OUT; the host checks.
set -u
say() { echo "storage-guest: $*"; }
fail() { say "$*"; exit 1; }
Q="--runs 1 --no-db -p time=1 -p ramp=0"
perfguide list | grep -q '^storage\.' || fail "this perfguide has no storage group"
perfguide list | grep -A40 '^storage.read' | grep -q 'io_uring' || fail "storage has no engines listed"

# --- ext4 on the first virtio disk, O_DIRECT, both engines ---
[ -b /dev/vda ] && [ -b /dev/vdb ] || fail "no virtio disks (vda: ext4, vdb: raw)"
mkdir -p /mnt/ext4
mount -t ext4 /dev/vda /mnt/ext4 || fail "cannot mount the ext4 disk"
perfguide run storage.write storage.read -p path=/mnt/ext4 -p size=8m -p bs=64k \
	-p engine=io_uring,libaio $Q --out "$PG_OUT/ext4.jsonl" >"$PG_OUT/ext4.log" 2>&1 ||
	fail "ext4 runs failed: $(cat "$PG_OUT/ext4.log")"
ls /mnt/ext4 >"$PG_OUT/ext4.ls"
# Mounted: a write to it is refused, even with --destroy-data.
perfguide run storage.write -p path=/dev/vda --destroy-data=/dev/vda --no-db \
	--out "$PG_OUT/refused.jsonl" >"$PG_OUT/refused-mounted.log" 2>&1
echo $? >"$PG_OUT/refused-mounted.rc"
umount /mnt/ext4

# --- raw devices: counted bytes beside the kernel's /sys/block/X/stat ---
# stat: reads, merged, sectors read, ms, writes, merged, sectors written...
raw() {	# raw NAME DEVICE BENCH ENGINE [more args]
	name=$1 dev=$2 bench=$3 engine=$4
	shift 4
	before=$(cat "/sys/block/${dev#/dev/}/stat")
	perfguide run "$bench" -p path="$dev" -p engine="$engine" -p size=16m $Q "$@" \
		--out "$PG_OUT/$name.jsonl" >"$PG_OUT/$name.log" 2>&1
	echo $? >"$PG_OUT/$name.rc"
	after=$(cat "/sys/block/${dev#/dev/}/stat")
	echo "$before" >"$PG_OUT/$name.stat"
	echo "$after" >>"$PG_OUT/$name.stat"
}
modprobe brd rd_nr=1 rd_size=32768 || fail "modprobe brd"
[ -b /dev/nullb0 ] || fail "no /dev/nullb0 (null_blk)"
for e in io_uring libaio; do
	raw vdb-read-$e /dev/vdb storage.read $e
	raw vdb-write-$e /dev/vdb storage.write $e --destroy-data=/dev/vdb
	raw ram0-randread-$e /dev/ram0 storage.randread $e
	raw ram0-randwrite-$e /dev/ram0 storage.randwrite $e --destroy-data=/dev/ram0
	raw nullb0-read-$e /dev/nullb0 storage.read $e -p bs=1m
done

# --- a partition mounted: the whole disk is refused ---
if printf 'o\nn\np\n1\n\n+8M\nn\np\n2\n\n\nw\n' | fdisk /dev/ram0 >/dev/null 2>&1 &&
	blockdev --rereadpt /dev/ram0 2>/dev/null; [ -b /dev/ram0p2 ]; then
	mke2fs -q /dev/ram0p2 >/dev/null 2>&1 && mkdir -p /mnt/p2 && mount /dev/ram0p2 /mnt/p2 &&
		perfguide run storage.write -p path=/dev/ram0 --destroy-data=/dev/ram0 --no-db \
			--out "$PG_OUT/refused.jsonl" >"$PG_OUT/refused-partition.log" 2>&1
	echo $? >"$PG_OUT/refused-partition.rc"
	umount /mnt/p2 2>/dev/null
else
	say "brd gave no partitions: that case not checked here"
fi

# --- tmpfs before Linux 6.6 refuses O_DIRECT: a skip that says so ---
mkdir -p /tmp/st
perfguide run storage.read -p path=/tmp/st -p size=4m $Q --out "$PG_OUT/tmpfs.jsonl" >"$PG_OUT/tmpfs.log" 2>&1
perfguide run storage.read -p path=/tmp/st -p size=4m -p direct=0 $Q --out "$PG_OUT/tmpfs.jsonl" >>"$PG_OUT/tmpfs.log" 2>&1
ls -A /tmp/st >"$PG_OUT/tmpfs.ls"

# --- a failing disk: vdc answers EIO at 2 MB ---
[ -b /dev/vdc ] || fail "no failing disk (vdc)"
for e in io_uring libaio; do
	raw eio-read-$e /dev/vdc storage.read $e -p size=8m -p bs=64k
	raw eio-write-$e /dev/vdc storage.write $e -p size=8m -p bs=64k --destroy-data=/dev/vdc
done
exit 0
