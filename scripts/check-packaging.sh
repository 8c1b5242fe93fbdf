#!/bin/sh
# SPDX-License-Identifier: MIT
# The distribution packages, checked with the distributions' own tools, each
# in a scratch directory (never in the tree, which stays as it is):
#
#   debian     dpkg-buildpackage -us -uc -b of a copy of the tree, and lintian
#   arm64      the same with -a arm64 (the cross toolchain and the :arm64
#              build dependencies; skipped with what is missing otherwise:
#              Debian 12's libpq-dev:arm64 and libpq-dev cannot both be
#              installed, so a machine that builds natively needs --fresh)
#
#   With --fresh (root), both run in a fresh Debian 12 root instead
#   (debootstrap, cached in the scratch directory; each step in a copy of it,
#   with apt-get build-dep [-a arm64] of debian/control and nothing else).
#   yocto      meta-perfguide, inside a clone of this repository, with POKY
#              (an LTS branch of poky's public repository: scarthgap or
#              later): without META_OE the layer must be refused (jansson is
#              meta-oe's); with META_OE (a meta-openembedded checkout of the
#              same branch) BitBake parses it, prints the recipe's values,
#              dry-runs its tasks (every dependency resolved) and fetches and
#              unpacks its default source, the pinned commit of the
#              repository the layer is in (VERSION and LICENSE checked)
#   buildroot  utils/check-package of BUILDROOT on buildroot/package/perfguide/*
#              and the BR2_EXTERNAL tree's own files (-b), and
#              perfguide.hash against the tarball Buildroot's own git
#              download makes of PERFGUIDE_RELEASE_VERSION from this repository
#
# POKY, BUILDROOT and META_OE are checkouts you fetched (git clone); nothing
# is fetched here, and nothing needs the network but apt for missing
# packages (scripts/deps.sh packaging). BitBake refuses root: as root, it
# runs as nobody (the checkouts must be readable by all).
#
# usage: scripts/check-packaging.sh [--fresh] POKY BUILDROOT [META_OE]
#   PG_PKG_DIR   scratch directory (default ${TMPDIR:-/tmp}/perfguide-packaging)
#   PG_PKG_STEPS the steps to run (default "debian arm64 yocto buildroot")
set -u
me=check-packaging
top=$(cd "$(dirname "$0")/.." && pwd)
fresh=0
[ "${1:-}" = --fresh ] && { fresh=1; shift; }
[ $# -ge 2 ] || { awk 'NR > 2 && /^#/ { print; next } NR > 2 { exit }' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
poky=$(cd "$1" 2>/dev/null && pwd) || { echo "$me: no poky checkout at $1" >&2; exit 2; }
br=$(cd "$2" 2>/dev/null && pwd) || { echo "$me: no Buildroot checkout at $2" >&2; exit 2; }
metaoe=""
[ $# -ge 3 ] && { metaoe=$(cd "$3" 2>/dev/null && pwd) || { echo "$me: no meta-openembedded at $3" >&2; exit 2; }; }
work=${PG_PKG_DIR:-${TMPDIR:-/tmp}/perfguide-packaging}
steps=${PG_PKG_STEPS:-debian arm64 yocto buildroot}

[ $fresh -eq 0 ] || [ "$(id -u)" -eq 0 ] || { echo "$me: --fresh needs root (debootstrap, chroot)" >&2; exit 2; }
sh "$top/scripts/deps.sh" packaging || exit 1
mkdir -p "$work"
work=$(cd "$work" && pwd)
failed="" passed="" skipped=""
result() { # STEP pass|fail|skip WHY
	case $2 in
	pass) passed="$passed $1" ;;
	fail) failed="$failed $1"; echo "$me: $1: FAIL: $3" >&2 ;;
	skip) skipped="$skipped $1"; echo "$me: $1: SKIP: $3" >&2 ;;
	esac
}

# A copy of the tree's files (committed and not, as git sees them).
copy_tree() {
	rm -rf "$work/src" && mkdir -p "$work/src/perfguide"
	(cd "$top" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$work/src/perfguide"
}

# build_pkg NAME ARCH: dpkg-buildpackage here, or in a fresh root.
build_pkg() {
	if [ $fresh -eq 1 ]; then
		in_fresh_root "$1" "$2"
	else
		(cd "$work/src/perfguide" && dpkg-buildpackage ${2:+-a "$2"} -us -uc -b)
	fi
}

# deb ARCH: dpkg-buildpackage for ARCH (native when empty), then lintian.
deb() {
	name=debian${1:+-$1}
	copy_tree
	log=$work/$name.log
	if [ $fresh -eq 0 ] && [ -n "$1" ] && ! (cd "$work/src/perfguide" && dpkg-checkbuilddeps -a "$1") >"$log" 2>&1; then
		result "$name" skip "$(tail -n 1 "$log") (install them, e.g. with apt-get build-dep -a $1)"
		return
	fi
	if ! build_pkg "$name" "$1" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		result "$name" fail "dpkg-buildpackage failed ($log)"
		return
	fi
	changes=$(ls "$work"/src/perfguide_*_"${1:-$(dpkg --print-architecture)}".changes)
	echo "== $name: $(basename "$changes")"
	dpkg-deb -f "$work"/src/perfguide_*_"${1:-$(dpkg --print-architecture)}".deb Package Architecture Depends
	echo "-- lintian --pedantic:"
	lintian --pedantic -I "$changes" 2>&1 | grep -v '^running with root privileges'
	# its exit status: 1 for an error, 2 when it could not check
	if ! lintian "$changes" >/dev/null 2>&1; then
		result "$name" fail "lintian reports errors, or could not check $changes"
	else
		result "$name" pass
	fi
}

# in_fresh_root NAME ARCH: the package built in a copy of a fresh Debian
# 12 root, its build dependencies (for ARCH: -a ARCH) from debian/control
# and nothing else; the results come back to $work/src.
in_fresh_root() {
	base=$work/bookworm root=$work/$1.root
	if [ ! -f "$base/.ready" ]; then
		mirror=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
		rm -rf "$base"
		debootstrap --variant=minbase bookworm "$base" "${mirror:-http://deb.debian.org/debian}" || return 1
		: >"$base/.ready"
	fi
	umount_root "$root"
	rm -rf "$root" && cp -a "$base" "$root" || return 1
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/resolv.conf; do
		[ -f "$f" ] && mkdir -p "$root$(dirname "$f")" && cp "$f" "$root$f"
	done
	mkdir -p "$root/build" && cp -a "$work/src/perfguide" "$root/build/perfguide"
	for m in proc sys dev dev/pts; do mount --bind "/$m" "$root/$m"; done
	a=${2:+-a $2}
	p=${2:+-P cross}
	chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive sh -c "
		set -e
		${2:+dpkg --add-architecture $2}
		apt-get update -qq
		apt-get install -y -q --no-install-recommends build-essential dpkg-dev debhelper ${2:+crossbuild-essential-$2} >/dev/null
		apt-get build-dep -y -q $a $p ./build/perfguide >/dev/null
		cd /build/perfguide && dpkg-buildpackage $a -us -uc -b"
	rc=$?
	umount_root "$root"
	cp "$root"/build/perfguide*_* "$work/src/" 2>/dev/null
	rm -rf "$root"
	return $rc
}

umount_root() {
	awk -v p="$1/" 'index($2, p) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
}

# bb DIR COMMANDS: BitBake commands in the build directory DIR, as a plain
# user (nobody when we are root), in the en_US.UTF-8 locale BitBake
# insists on (LOCPATH names a private copy where the host has none).
bb() {
	d=$1
	shift
	cat >"$work/bb.sh" <<EOF
${locpath:+export LOCPATH=$locpath BB_ENV_PASSTHROUGH_ADDITIONS=LOCPATH}
export HOME=$work/yocto LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 PATH=/usr/bin:/bin:/usr/sbin:/sbin
cd "$poky" && . ./oe-init-build-env "$d" >/dev/null || exit 1
grep -q '^BB_NO_NETWORK' conf/local.conf || echo 'BB_NO_NETWORK = "1"' >>conf/local.conf
$*
EOF
	# (LOCPATH in bash's own environment too, for its setlocale)
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups env ${locpath:+LOCPATH=$locpath} bash "$work/bb.sh"
	else
		env ${locpath:+LOCPATH=$locpath} bash "$work/bb.sh"
	fi
}

yocto() {
	[ -f "$poky/oe-init-build-env" ] || { result yocto fail "$poky is not poky (no oe-init-build-env)"; return; }
	# BitBake insists on the en_US.UTF-8 locale. Where the host has not
	# generated it, it is compiled into the scratch directory and found
	# through LOCPATH: the host's locale configuration is never changed.
	locpath=""
	if ! locale -a 2>/dev/null | grep -qix 'en_US.utf8'; then
		locpath=$work/locale
		mkdir -p "$locpath"
		if ! localedef -i en_US -f UTF-8 "$locpath/en_US.UTF-8" >"$work/localedef.log" 2>&1; then
			result yocto skip "BitBake needs the en_US.UTF-8 locale, and localedef could not make it (Debian's locales package has its sources): $(tail -n 1 "$work/localedef.log")"
			return
		fi
		chmod -R a+rX "$locpath"
	fi
	rm -rf "$work/yocto" && mkdir -p "$work/yocto"
	# The layer inside a clone of this repository's committed HEAD: the
	# recipe's default source is the repository its layer is in.
	git clone -q "$top" "$work/yocto/perfguide" 2>/dev/null ||
		{ mkdir -p "$work/yocto/perfguide" && cp -r "$top/meta-perfguide" "$work/yocto/perfguide/"; }
	chmod -R a+rX "$work/yocto"
	[ "$(id -u)" -eq 0 ] && chown -R 65534:65534 "$work/yocto"
	layer="$work/yocto/perfguide/meta-perfguide"
	log=$work/yocto.log
	echo "== yocto (poky $(git -C "$poky" rev-parse --abbrev-ref HEAD 2>/dev/null)${metaoe:+ + meta-oe}):"
	if [ -z "$metaoe" ]; then
		# Without meta-oe (jansson) the layer is refused, not built without results files.
		bb "$work/yocto/build" "bitbake-layers add-layer $layer" >"$log" 2>&1
		cat "$log"
		if grep -q "openembedded-layer" "$log" && ! bb "$work/yocto/build" "bitbake-layers show-layers" 2>/dev/null |
			grep -q '^perfguide '; then
			result yocto pass
		else
			result yocto fail "meta-perfguide was added without meta-oe ($log)"
		fi
		return
	fi
	# With meta-oe: the parse, the recipe's values, a dry run of its tasks
	# (every dependency resolved), and its source fetched and unpacked from
	# the repository the layer is in, at the pinned commit, with no network.
	bb "$work/yocto/build" "bitbake-layers add-layer $metaoe/meta-oe $layer || exit 1
bitbake -p 2>&1 | tail -n 1
bitbake -e perfguide 2>&1 | grep -E '^(PACKAGECONFIG|DEPENDS|EXTRA_OECMAKE|SRC_URI|SRCREV|PV|LICENSE|S)=|^ERROR:'
bitbake -n perfguide 2>&1 | grep -E '^(ERROR:|NOTE: Tasks Summary)'
bitbake -c unpack perfguide 2>&1 | grep -E '^(ERROR:|NOTE: Tasks Summary)'" >"$log" 2>&1
	cat "$log"
	src=$(sed -n 's/^S="\(.*\)"$/\1/p' "$log")
	pv=$(sed -n 's/^PV="\(.*\)+git"$/\1/p' "$log")
	if grep -q '^ERROR:' "$log" || ! grep -q ' 0 errors\.' "$log" || ! grep -q '^PACKAGECONFIG=' "$log"; then
		result yocto fail "BitBake did not parse meta-perfguide cleanly ($log)"
	elif [ "$(grep -c 'Tasks Summary: .*all succeeded' "$log")" -ne 2 ]; then
		result yocto fail "the dry run or the unpack of perfguide failed ($log)"
	elif [ "$(cat "$src/VERSION" 2>/dev/null)" != "$pv" ] || ! cmp -s "$src/LICENSE" "$top/LICENSE"; then
		result yocto fail "the unpacked source at $src is not the pinned $pv (VERSION, LICENSE)"
	else
		echo "-- unpacked: $src: VERSION $(cat "$src/VERSION"), the tree's LICENSE"
		result yocto pass
	fi
}

buildroot() {
	[ -x "$br/utils/check-package" ] || { result buildroot fail "$br is not Buildroot (no utils/check-package)"; return; }
	# check-package reads files of its own tree (relative to its utils/):
	# a scratch tree of its utils and our package, the checkout untouched.
	rm -rf "$work/br" && mkdir -p "$work/br/package"
	cp -r "$br/utils" "$work/br/utils" && cp -r "$top/buildroot/package/perfguide" "$work/br/package/perfguide"
	echo "== buildroot ($(git -C "$br" log -1 --format=%h 2>/dev/null)) utils/check-package:"
	out=$(cd "$work/br" && /usr/bin/python3 utils/check-package package/perfguide/* 2>&1)
	rc=$?
	echo "$out"
	# and the BR2_EXTERNAL tree's own files (buildroot/), in its mode
	cp "$top/buildroot/external.desc" "$top/buildroot/external.mk" "$top/buildroot/Config.in" "$work/br/"
	out2=$(cd "$work/br" && /usr/bin/python3 utils/check-package -b external.desc external.mk Config.in 2>&1)
	rc2=$?
	echo "$out2"
	if [ $rc -ne 0 ] || [ $rc2 -ne 0 ] || ! echo "$out" | grep -q '^0 warnings generated' ||
		! echo "$out2" | grep -q '^0 warnings generated'; then
		result buildroot fail "check-package has warnings"
		return
	fi
	# The hash: Buildroot's own git download of the pinned commit, here.
	v=$(sed -n 's/^PERFGUIDE_RELEASE_VERSION = //p' "$top/buildroot/package/perfguide/perfguide.mk")
	rm -rf "$work/br-dl" && mkdir -p "$work/br-dl"
	tgz=$work/br-dl/perfguide-$v$(sed -n 's/^BR_FMT_VERSION_git = //p' "$br/package/pkg-download.mk").tar.gz
	# (its temporary files go to the directory it runs in)
	if ! (cd "$work/br-dl" && BR_BACKEND_DL_GETOPTS=":hc:d:o:n:N:H:lru:qf:e" GIT=git TAR=tar \
		bash "$br/support/download/git" -q -o "$tgz" -u "file://$top" -c "$v" -d "$work/br-dl/git" \
		-n "perfguide-$v") >"$work/br-dl.log" 2>&1; then
		result buildroot fail "Buildroot's git download of $v from this repository failed ($work/br-dl.log)"
		return
	fi
	want=$(awk -v f="$(basename "$tgz")" '$1 == "sha256" && $3 == f { print $2 }' "$top/buildroot/package/perfguide/perfguide.hash")
	have=$(sha256sum "$tgz" | cut -d' ' -f1)
	echo "-- perfguide.hash: $want; Buildroot's tarball of $v: $have"
	if [ "$want" = "$have" ]; then result buildroot pass; else result buildroot fail "perfguide.hash does not match"; fi
}

for s in $steps; do
	case $s in
	debian) deb "" ;;
	arm64) deb arm64 ;;
	yocto) yocto ;;
	buildroot) buildroot ;;
	*) echo "$me: unknown step '$s'" >&2; exit 2 ;;
	esac
done
echo "$me: passed:${passed:- none}; skipped:${skipped:- none}; failed:${failed:- none}"
[ -z "$failed" ]
