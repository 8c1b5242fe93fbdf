#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check-fresh`: the README's two commands as a newcomer meets them, on a
# freshly installed Debian 12. Builds a minimal Debian 12 root with
# debootstrap (once; cached), copies it, clones this repository's committed
# HEAD into the copy, and runs `make run` then `make check` there as root,
# with nothing else installed. Prints both exit codes and times, and the
# tail of each log. Needs root (chroot, bind mounts) and Debian's archive.
#
# usage: scripts/check-fresh.sh [--keep]
#   PG_FRESH_DIR   where the cached root and the run's copy live
#                  (default /var/tmp/perfguide-fresh)
#   PG_FRESH_MIRROR  Debian mirror (default: the one this machine's apt uses)
set -u
me=check-fresh
top=$(cd "$(dirname "$0")/.." && pwd)
keep=0
[ "${1:-}" = --keep ] && keep=1
[ "$(id -u)" -eq 0 ] || { echo "$me: needs root (debootstrap, chroot, bind mounts)" >&2; exit 2; }
dir=${PG_FRESH_DIR:-/var/tmp/perfguide-fresh}
base=$dir/bookworm
copy=$dir/run
mkdir -p "$dir"

mirror=${PG_FRESH_MIRROR:-}
if [ -z "$mirror" ]; then
	mirror=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	echo "$me: installing debootstrap" >&2
	apt-get -o DPkg::Lock::Timeout=600 install -y -q debootstrap >/dev/null || { echo "$me: cannot install debootstrap" >&2; exit 1; }
fi
if [ ! -f "$base/.ready" ]; then
	rm -rf "$base"
	echo "$me: debootstrap bookworm from $mirror (once; cached in $base)" >&2
	debootstrap --variant=minbase --include=ca-certificates,git,make bookworm "$base" "$mirror" \
		>"$dir/debootstrap.log" 2>&1 || { tail -n 5 "$dir/debootstrap.log" >&2; echo "$me: debootstrap failed ($dir/debootstrap.log)" >&2; exit 1; }
	# The same archive this machine uses (a mirror behind a proxy, say).
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
		[ -f "$f" ] && mkdir -p "$base$(dirname "$f")" && cp "$f" "$base$f"
	done
	: >"$base/.ready"
fi

# Everything mounted under the copy, deepest first: the bind mounts above and
# what ran inside left behind (ip netns keeps /run/netns mounted), so that
# the copy can be removed and the next check starts clean.
umount_all() {
	awk -v p="$copy/" 'index($2, p) == 1 { print $2 }' /proc/mounts | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null; done
}
umount_all
rm -rf "$copy"
cp -a "$base" "$copy" || { echo "$me: cannot copy the root" >&2; exit 1; }
git clone -q "$top" "$copy/root/perfguide" || { echo "$me: cannot clone $top" >&2; exit 1; }
echo "$me: cloned $(git -C "$top" rev-parse --short HEAD) (committed work only) into a fresh Debian 12 root" >&2
for m in proc sys dev dev/pts; do
	mount --bind "/$m" "$copy/$m"
done
trap 'umount_all; [ $keep -eq 1 ] || rm -rf "$copy"' EXIT INT TERM
cp /etc/resolv.conf "$copy/etc/resolv.conf" 2>/dev/null

# step NAME COMMAND: runs COMMAND in the root as a newcomer's root shell.
step() {
	t0=$(date +%s)
	chroot "$copy" /usr/bin/env -i HOME=/root TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /root/perfguide && $2" >"$dir/$1.log" 2>&1
	rc=$?
	echo "$1: exit $rc in $(($(date +%s) - t0)) s (log: $dir/$1.log)"
	return $rc
}
# apt-get update: a debootstrapped root has no package lists yet, as a
# freshly installed system has them; nothing else is done by hand.
chroot "$copy" apt-get update -qq >/dev/null 2>&1
step make-run "make run"; r1=$?
step make-check "make check"; r2=$?
for l in make-run make-check; do
	echo "== tail of $l"
	tail -n 12 "$dir/$l.log"
done
echo "$me: make run exit $r1, make check exit $r2"
[ $r1 -eq 0 ] && [ $r2 -eq 0 ]
