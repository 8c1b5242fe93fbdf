#!/bin/sh
# Makes sure the Debian packages a make target needs are installed: installs
# the missing ones when run as root, otherwise prints the exact apt-get line
# and fails. On a system without dpkg it only names what it would want.
#
# usage: scripts/deps.sh build|check|check-vm|cross-aarch64|cross-armhf
set -eu

profile=${1:-build}
build="cmake make gcc libc6-dev pkg-config libjansson-dev libsqlite3-dev libssl-dev"
case "$profile" in
build) pkgs="$build" ;;
# glmark2 under Xvfb on Mesa's software renderer: ext.glmark2's live test.
check) pkgs="$build clang libcmocka-dev python3 file qemu-user chromium gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross iproute2 nftables glmark2-es2-x11 xvfb xauth libgl1-mesa-dri libegl-mesa0" ;;
check-vm) pkgs="$build binutils python3 qemu-system-x86 busybox-static cpio xz-utils zstd" ;;
cross-aarch64) pkgs="cmake make gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user" ;;
cross-armhf) pkgs="cmake make gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user" ;;
*) echo "deps.sh: unknown profile '$profile'" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps.sh: not a Debian system; make sure these (or your distribution's equivalents) are installed: $pkgs" >&2
	exit 0
fi

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "perfguide needs these packages; install them with:" >&2
		echo "  sudo apt-get install -y$missing" >&2
		exit 1
	fi
	echo "deps.sh: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# A static cross build links jansson only when the target's own copy is
# there (Debian multiarch). Without it the binary is built with libc alone:
# the results are shown but not written as JSON.
case "$profile" in
cross-aarch64|cross-armhf)
	arch=arm64
	[ "$profile" = cross-armhf ] && arch=armhf
	st=$(dpkg-query -W -f '${db:Status-Abbrev}' "libjansson-dev:$arch" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*)
		if [ "$(id -u)" -eq 0 ]; then
			echo "deps.sh: adding Debian architecture $arch for libjansson-dev:$arch" >&2
			dpkg --add-architecture "$arch"
			if apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
				apt-get install -y -qq --no-install-recommends "libjansson-dev:$arch" >/dev/null; then
				:
			else
				echo "deps.sh: libjansson-dev:$arch not installable; the $arch build will have no JSON output" >&2
			fi
		else
			echo "deps.sh: for JSON results in the $arch build: sudo dpkg --add-architecture $arch && sudo apt-get update && sudo apt-get install libjansson-dev:$arch" >&2
		fi
		;;
	esac
	;;
esac
exit 0
