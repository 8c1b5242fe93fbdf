#!/bin/sh
# Makes sure the Debian packages a make target needs are installed: installs
# the missing ones when run as root, otherwise prints the exact apt-get line
# and fails. On a system without dpkg it only names what it would want.
#
# Besides the lists below, every benchmark group may name what it needs in
# src/bench/<group>/deps, lines of the form
#     build: PKG...      headers of its optional libraries (every profile that builds)
#     check: PKG...      what its tests use (peer tools, a renderer)
#     check-vm: PKG...   what its VM tests use
#     cross: PKG...      -dev packages whose static archives a static cross
#                        build links, installed for the target architecture
# so a new group adds its file and nothing here changes. Parts of perfguide
# that are no group keep theirs the same way: src/store/deps and src/guide/deps,
# lava/deps (the LAVA test definition).
#
# usage: scripts/deps.sh build|check|check-vm|cross-aarch64|cross-armhf|packaging
set -eu

profile=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)

build="cmake make gcc libc6-dev pkg-config libjansson-dev libsqlite3-dev libssl-dev"
cross_arm64="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
cross_armhf="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user"
# group_deps KEY: the packages every group's deps file lists under KEY.
group_deps() {
	for f in "$top"/src/bench/*/deps "$top"/src/store/deps "$top"/src/guide/deps "$top"/lava/deps; do
		[ -f "$f" ] || continue
		sed -n "s/^$1:[[:space:]]*//p" "$f"
	done | tr '\n' ' '
}

# The static cross builds link these from Debian's multiarch packages
# (PKG:arm64, PKG:armhf), with the groups' `cross:` lists. alsa-lib is not
# among them: Debian ships no libasound.a.
multi_libs="libjansson-dev libsqlite3-dev libssl-dev $(group_deps cross)"

arches=""
case "$profile" in
build) pkgs="$build $(group_deps build)" ;;
check)
	pkgs="$build $(group_deps build) clang libcmocka-dev python3 file chromium iproute2 nftables valgrind
	      $cross_arm64 $cross_armhf $(group_deps check)"
	arches="arm64 armhf" ;;
check-vm) pkgs="$build $(group_deps build) binutils python3 qemu-system-x86 busybox-static cpio xz-utils zstd
	      qemu-system-arm $cross_arm64 $(group_deps check-vm)"
	# the arm64 test's board binary, as make cross-aarch64 builds it
	arches="arm64" ;;
# scripts/check-packaging.sh: Debian's packaging tools and the package's
# build dependencies (also for arm64), BitBake's host tools, Buildroot's
# check-package (python3-magic, flake8, shellcheck).
packaging) pkgs="$build $(group_deps build) git dpkg-dev debhelper lintian crossbuild-essential-arm64 qemu-user
	      libasound2-dev:arm64 gawk diffstat chrpath locales python3 python3-magic flake8 shellcheck debootstrap"
	arches="arm64" ;;
cross-aarch64) pkgs="cmake make $cross_arm64"; arches="arm64" ;;
cross-armhf) pkgs="cmake make $cross_armhf"; arches="armhf" ;;
*) echo "deps.sh: unknown profile '$profile'" >&2; exit 2 ;;
esac
for a in $arches; do
	for l in $multi_libs; do
		pkgs="$pkgs $l:$a"
	done
done

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps.sh: not a Debian system; make sure these (or your distribution's equivalents) are installed: $(echo $pkgs)" >&2
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
[ -n "$missing" ] || exit 0

need_arches=""
for a in $arches; do
	case "$missing" in
	*":$a"*) dpkg --print-foreign-architectures | grep -qx "$a" || need_arches="$need_arches $a" ;;
	esac
done

if [ "$(id -u)" -ne 0 ]; then
	echo "perfguide needs these packages; install them with:" >&2
	for a in $need_arches; do
		echo "  sudo dpkg --add-architecture $a" >&2
	done
	[ -n "$need_arches" ] && echo "  sudo apt-get update" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi

echo "deps.sh: installing$missing" >&2
for a in $need_arches; do
	dpkg --add-architecture "$a"
done
export DEBIAN_FRONTEND=noninteractive
# Another apt (an unattended upgrade, a second make) may hold the dpkg lock:
# wait for it rather than fail half-installed.
apt="apt-get -o DPkg::Lock::Timeout=600 -q"
log=$(mktemp)
# shellcheck disable=SC2086
if ! { $apt update && $apt install -y --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 15 "$log" >&2
	rm -f "$log"
	echo "deps.sh: could not install$missing (the apt-get output is above); nothing was built" >&2
	exit 1
fi
rm -f "$log"
exit 0
