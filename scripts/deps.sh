#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure the Debian packages a make target needs are installed, as far
# as the package archive allows: installs the missing ones when run as root,
# otherwise prints the exact apt-get line. On a system without dpkg it only
# names what it would want.
#
# A broken index (a mirror caught mid-sync: "File has unexpected size")
# stops nothing that does not need it: `apt-get update` is tried three
# times, and an index it still cannot read is reported and left out. The
# native packages are installed first, then each foreign architecture's
# apart, and a set apt refuses is tried package by package. What could not
# be installed is named (with apt's reason) on the console and in RECORD,
# one "PKG<tab>why" line each, which the tests read to skip with that
# reason (tests/e2e/lib.sh: deps_why). Only the packages nothing builds
# without (ESSENTIAL below) make it fail.
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
# usage: scripts/deps.sh PROFILE [RECORD]
#        scripts/deps.sh packages RECORD PKG[:ARCH]...
#   PROFILE  build|check|check-vm|cross-aarch64|cross-armhf|packaging
#   packages exactly the packages named, every one of them needed
#   RECORD   where to write what could not be installed (default: nowhere)
#   APT_CONFIG is honoured (apt's own variable): dpkg's database is the one
#   its Dir::State::status names, so a test can work in a scratch root.
#   PG_DEPS_RETRY_WAIT seconds between tries of apt-get update (default 10)
set -eu

profile=${1:-build}
record=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
me=deps.sh

build="cmake make gcc libc6-dev pkg-config libjansson-dev libsqlite3-dev libssl-dev"
cross_arm64="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
cross_armhf="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user"
# Nothing is built without these; the rest only narrows what is tested.
essential="cmake make gcc libc6-dev"
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
	      musl-tools linux-libc-dev $cross_arm64 $cross_armhf $(group_deps check)"
	arches="arm64 armhf" ;;
check-vm) pkgs="$build $(group_deps build) binutils python3 qemu-system-x86 busybox-static cpio xz-utils zstd
	      qemu-system-arm $cross_arm64 $(group_deps check-vm)"
	# the arm64 test's board binary, as make cross-aarch64 builds it
	arches="arm64" ;;
# scripts/check-packaging.sh: Debian's packaging tools and the package's
# build dependencies (also for arm64), BitBake's host tools (locales: the
# sources of the en_US.UTF-8 locale it wants, compiled into a scratch
# directory), Buildroot's check-package (python3-magic, flake8, shellcheck).
packaging) pkgs="$build $(group_deps build) git dpkg-dev debhelper lintian crossbuild-essential-arm64 qemu-user
	      libasound2-dev:arm64 gawk diffstat chrpath locales python3 python3-magic flake8 shellcheck debootstrap"
	essential="$essential dpkg-dev debhelper"
	arches="arm64" ;;
cross-aarch64) pkgs="cmake make $cross_arm64"; essential="cmake make gcc-aarch64-linux-gnu"; arches="arm64" ;;
cross-armhf) pkgs="cmake make $cross_armhf"; essential="cmake make gcc-arm-linux-gnueabihf"; arches="armhf" ;;
packages)
	[ $# -ge 3 ] || { echo "usage: $me packages RECORD PKG[:ARCH]..." >&2; exit 2; }
	shift 2
	pkgs="$*" essential="$*"
	multi_libs="" ;;
*) echo "$me: unknown profile '$profile'" >&2; exit 2 ;;
esac
for a in $arches; do
	for l in $multi_libs; do
		pkgs="$pkgs $l:$a"
	done
done
[ -z "$record" ] || { mkdir -p "$(dirname "$record")" && : >"$record"; }
notes=$(mktemp)
log=$(mktemp)
trap 'rm -f "$notes" "$log"' EXIT

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "$me: not a Debian system; make sure these (or your distribution's equivalents) are installed: $(echo $pkgs)" >&2
	exit 0
fi

# dpkg's database: the one apt uses (APT_CONFIG may name another).
admindir=$(dirname "$(apt-config shell s Dir::State::status/f 2>/dev/null | sed -n "s/^s='\(.*\)'$/\1/p")")
[ -d "$admindir" ] || admindir=/var/lib/dpkg
dpkg_q() { dpkg-query --admindir="$admindir" "$@"; }

installed() {
	case "$(dpkg_q -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null || true)" in
	ii*) return 0 ;;
	*) return 1 ;;
	esac
}

missing=""
for p in $pkgs; do
	installed "$p" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

# note PKG WHY: one package that could not be installed.
failed=""
note() {
	failed="$failed $1"
	printf '%s\t%s\n' "$1" "$2" >>"$notes"
	[ -z "$record" ] || printf '%s\t%s\n' "$1" "$2" >>"$record"
}

# essential_missing: the essential packages still not installed.
essential_missing() {
	for p in $essential; do
		installed "$p" || printf ' %s' "$p"
	done
}

need_arches=""
for a in $(printf '%s\n' $missing | sed -n 's/^[^:]*:\(.*\)$/\1/p' | sort -u); do
	dpkg --admindir="$admindir" --print-foreign-architectures | grep -qx "$a" || need_arches="$need_arches $a"
done

if [ "$(id -u)" -ne 0 ]; then
	echo "$me: perfguide needs these packages; install them with:" >&2
	for a in $need_arches; do
		echo "  sudo dpkg --add-architecture $a" >&2
	done
	[ -n "$need_arches" ] && echo "  sudo apt-get update" >&2
	echo "  sudo apt-get install -y$missing" >&2
	for p in $missing; do
		note "$p" "not installed, and $me is not root to install it"
	done
	ess=$(essential_missing)
	[ -z "$ess" ] || { echo "$me: nothing is built without$ess" >&2; exit 1; }
	echo "$me: carrying on without them: the tests that need them skip, saying so" >&2
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# Another apt (an unattended upgrade, a second make) may hold the dpkg lock:
# wait for it rather than fail half-installed.
apt="apt-get -o DPkg::Lock::Timeout=600 -q"

for a in $need_arches; do
	dpkg --admindir="$admindir" --add-architecture "$a"
done

# update: apt-get update, three tries; what it still cannot read is named
# (bad_index) and the rest of the archive used.
bad_index=""
update() {
	for try in 1 2 3; do
		if $apt update >"$log" 2>&1; then
			bad_index=""
			return
		fi
		bad_index=$(sed -n 's/^E: Failed to fetch \([^ ]*\) *\(.*\)$/\1: \2/p' "$log" | sed 's/ *\[IP: [^]]*\]//')
		[ -n "$bad_index" ] || bad_index=$(grep '^E:' "$log" | tail -n 1)
		[ $try -eq 3 ] || sleep "${PG_DEPS_RETRY_WAIT:-10}"
	done
	echo "$me: apt-get update could not read, after 3 tries:" >&2
	echo "$bad_index" | sed 's/^/  /' >&2
	echo "$me: carrying on with the indexes it read" >&2
}

# install PKG...: as one set; if apt refuses the set, one by one, noting
# each package it refuses with its last error line (and the unread indexes
# of that architecture, likely the cause).
install() {
	# shellcheck disable=SC2086
	$apt install -y --no-install-recommends "$@" >"$log" 2>&1 && return
	[ $# -gt 1 ] || { note "$1" "$(why "$1")"; return; }
	for p in "$@"; do
		$apt install -y --no-install-recommends "$p" >"$log" 2>&1 || note "$p" "$(why "$p")"
	done
}

why() {
	# the unmet dependency apt names, else its last error
	w=$(grep -E ' Depends: .* but ' "$log" | head -n 1 | sed 's/^ *//; s/  */ /g')
	[ -n "$w" ] || w=$(grep '^E:' "$log" | tail -n 1 | sed 's/^E: //')
	a=${1#*:}
	[ "$a" != "$1" ] || a=$(dpkg --print-architecture)
	# an index of that architecture, or for all (binary-all, a flat repository's)
	idx=$(echo "$bad_index" | awk -v a="binary-$a/" 'index($1, a) || index($1, "binary-all/") || !index($1, "binary-") { print; exit }')
	echo "apt-get: ${w:-failed}${idx:+; apt-get update could not read $idx}"
}

echo "$me: installing$missing" >&2
update
native=$(printf '%s\n' $missing | grep -v ':' || true)
# shellcheck disable=SC2086
[ -z "$native" ] || install $native
for a in $(printf '%s\n' $missing | sed -n 's/^[^:]*:\(.*\)$/\1/p' | sort -u); do
	# shellcheck disable=SC2046
	install $(printf '%s\n' $missing | grep ":$a\$")
done

if [ -n "$failed" ]; then
	echo "$me: could not install$failed:" >&2
	sed 's/^/  /; s/\t/: /' "$notes" >&2
fi
ess=$(essential_missing)
[ -z "$ess" ] || { echo "$me: nothing is built without$ess" >&2; exit 1; }
[ -z "$failed" ] || echo "$me: carrying on without them: the tests that need them skip, saying so" >&2
exit 0
