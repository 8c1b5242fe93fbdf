#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the RPMsg modules the guest kernel lacks, for tests/vm/rpmsg.check.sh:
# Debian's amd64 kernel has no RPMsg, so the kernel's own rpmsg_core,
# rpmsg_ns, rpmsg_char and rpmsg_ctrl are built out of tree from Debian's
# linux-source (the same version as the guest's kernel image), with the
# echo remote of tests/vm/rpmsg_echo/, against that kernel's linux-headers.
# The packages are fetched with apt-get download and unpacked, never
# installed, into $PG_VM_BUILD/rpmsg/ (a cache; nothing of it is committed).
#
# usage: tests/vm/rpmsg-modules.sh   prints the directory holding the .ko files
# Exit status 125 (one line says why) when what the build needs cannot be had
# (packages, tools); 1 when the modules do not compile.
set -eu
me=rpmsg-modules
here=$(cd "$(dirname "$0")" && pwd)
: "${PG_VM_BUILD:=$(cd "$here/../.." && pwd)/build-vm}"
die() { echo "$me: $*" >&2; exit 125; }
mkdir -p "$PG_VM_BUILD/rpmsg"
cache=$(cd "$PG_VM_BUILD/rpmsg" && pwd)

# The kernel run-in-vm.sh boots: linux-image-amd64's dependency, or (offline)
# the newest one already unpacked in its cache.
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
if [ -z "$kpkg" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -qq >/dev/null 2>&1 || true
	kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
fi
if [ -n "$kpkg" ]; then
	kver=${kpkg#linux-image-}
	ver=$(apt-cache show --no-all-versions "$kpkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || die "apt knows no version of $kpkg"
else
	ready=$(ls -t "$cache"/*/.ready 2>/dev/null | head -n 1)
	[ -n "$ready" ] || die "apt cannot resolve linux-image-amd64 and no modules are cached (apt-get update, or check the network)"
	dirname "$ready"
	exit 0
fi
out=$cache/$kver
# Rebuilt when the echo module changes; the kernel's part comes with $ver.
stamp="$ver $(cat "$here/rpmsg_echo/rpmsg_echo.c" "$here/rpmsg_echo/Kbuild" | cksum)"
if [ -f "$out/.ready" ] && [ "$(cat "$out/.ready")" = "$stamp" ]; then
	echo "$out"
	exit 0
fi

for t in gcc-12:gcc-12 make:make dpkg-deb:dpkg xz:xz-utils; do
	command -v "${t%%:*}" >/dev/null 2>&1 || die "missing ${t#*:} (install with: sh scripts/deps.sh check-vm)"
done
# linux-headers-6.1.0-NN-amd64, its -common, the kbuild tools and the source
# of the same upload.
series=$(echo "$kver" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
flavour=${kver##*-}
pkgs="linux-headers-$kver linux-headers-${kver%-"$flavour"}-common linux-kbuild-$series=$ver linux-source-$series=$ver"
tree=$cache/tree-$ver
if [ ! -f "$tree/.ready" ]; then
	rm -rf "$tree"
	mkdir -p "$tree/dl"
	echo "$me: downloading $pkgs (once; cached in $tree)" >&2
	sandbox=""
	[ "$(id -u)" -eq 0 ] && sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086
	(cd "$tree/dl" && apt-get download -q $sandbox $pkgs) >"$tree/download.log" 2>&1 ||
		{ tail -n 3 "$tree/download.log" >&2; die "cannot download $pkgs"; }
	for d in "$tree"/dl/*.deb; do
		dpkg-deb -x "$d" "$tree/root" || die "cannot unpack $d"
	done
	# Of the source, only the RPMsg core and its user-space interface.
	tar -C "$tree" -xJf "$tree/root/usr/src/linux-source-$series.tar.xz" \
		$(for f in rpmsg_core.c rpmsg_ns.c rpmsg_char.c rpmsg_ctrl.c rpmsg_internal.h rpmsg_char.h; do
			echo "linux-source-$series/drivers/rpmsg/$f"; done) ||
		die "linux-source-$series has no drivers/rpmsg"
	rm -rf "$tree/dl" "$tree/root/usr/src/linux-source-$series.tar.xz"
	# The headers' Makefile includes the -common one by its installed path.
	hdr=$tree/root/usr/src/linux-headers-$kver
	sed -i "s|^include /usr/src/|include $tree/root/usr/src/|" "$hdr/Makefile"
	echo "$ver" >"$tree/.ready"
fi
hdr=$tree/root/usr/src/linux-headers-$kver
# Modules must be built by the compiler the kernel was.
want=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$hdr/.config")
have=$(gcc-12 --version | head -n 1)
[ "$want" = "$have" ] || echo "$me: the kernel was built with '$want', this is '$have'" >&2

rm -rf "$out"
mkdir -p "$out/src"
cp "$tree/linux-source-$series/drivers/rpmsg/"* "$here/rpmsg_echo/rpmsg_echo.c" "$here/rpmsg_echo/Kbuild" "$out/src/"
if ! make -C "$hdr" M="$out/src" modules >"$out/build.log" 2>&1; then
	tail -n 20 "$out/build.log" >&2
	echo "$me: the modules did not build (log: $out/build.log)" >&2
	exit 1
fi
cp "$out"/src/*.ko "$out/"
echo "$stamp" >"$out/.ready"
echo "$out"
